package listbackup

import (
	"context"
	"fmt"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// APIKeyPrefix starts every plaintext API key.
const APIKeyPrefix = "lbk_"

// APIKeys serves LB-52..LB-54. Only the SHA-256 hash of a key is stored.
// The read of one pattern is declared ([table.Pattern]): its field, whole
// on the Store and the account's own on [AccountScope].
type APIKeys struct {
	// ByAccount lists an account's API keys, newest first, only those in
	// a status when it is set (LB-53). The status is a server-side filter,
	// so a page may hold fewer items than its limit; the cursor continues
	// correctly.
	//
	//	page, err := s.APIKeys.ByAccount.List(ctx, lb.APIKey{AccountID: a, Status: lb.APIKeyActive})
	ByAccount *table.Pattern[lb.APIKey]
	// ByID reads an API key (LB-53, the read beside it).
	//
	//	k, err := s.APIKeys.ByID.Get(ctx, lb.APIKey{APIKeyID: id})
	ByID *table.Pattern[lb.APIKey]
	// Revoke revokes an API key (LB-54), with no read: status revoked, and
	// Validate refuses it from then on. Revoking twice is harmless.
	Revoke func(context.Context, lb.APIKeyID) (lb.APIKey, error)
	// TouchLastUsed stamps lastUsedAt with the store's clock (LB-52, its
	// write side), with no read, and returns the key as written.
	TouchLastUsed func(context.Context, lb.APIKeyID) (lb.APIKey, error)

	validate, create table.Op
	touched          func(lb.APIKeyID) table.Patch // TouchLastUsed's patch, made once (a view copies it)
	e                *entities
	acct             lb.AccountID // set: the view of one account (Store.ForAccount)
}

func newAPIKeys(e *entities) *APIKeys {
	return (&APIKeys{e: e,
		touched: func(lb.APIKeyID) table.Patch {
			return table.Patch{Set: map[string]any{"lastUsedAt": lb.Seconds(e.now()).Unix()}}
		},
		ByAccount: table.NewPattern(e.apiKeys, table.PatternDef[lb.APIKey]{ID: "LB-53", Name: "listbackup.APIKeys.ByAccount",
			Doc: "An account's API keys, newest first; of one status when it is given.", Reads: table.ReadPage, Index: table.GSI2,
			WholePartition: true, Desc: true, FilterOn: []string{"status"},
			Check: func(k *lb.APIKey) error { // the status filters: checked when set
				if k.Status == "" {
					return nil
				}
				return table.CheckEnum("status", k.Status)
			}}),
		create:   table.NewOp(e.t, "LB-52", "listbackup.APIKeys.Create"),
		validate: table.NewOp(e.t, "LB-52", "listbackup.APIKeys.Validate"),
		ByID: table.NewPattern(e.apiKeys, table.PatternDef[lb.APIKey]{ID: "LB-53", Name: "listbackup.APIKeys.ByID",
			Doc: "An API key.", Reads: table.ReadOne}),
	}).declare()
}

// in returns the API keys of account acct alone.
func (s *APIKeys) in(acct lb.AccountID) *APIKeys {
	c := *s
	c.acct, c.ByAccount, c.ByID = acct, s.ByAccount.In(string(acct)), s.ByID.In(string(acct))
	return c.declare()
}

// declare declares the writes of the view (its account's, or whole).
func (s *APIKeys) declare() *APIKeys {
	view := items(s.e.apiKeys, s.acct) // one view for every write
	key := func(id lb.APIKeyID) lb.APIKey { return lb.APIKey{APIKeyID: id} }
	s.Revoke = table.PatchWith(view, table.WriteDef[lb.APIKey]{ID: "LB-54", Name: "listbackup.APIKeys.Revoke",
		Doc: "Revokes an API key: one UpdateItem setting status revoked; Validate refuses it from then on."}, key,
		func(lb.APIKeyID) table.Patch {
			return table.Patch{Set: map[string]any{"status": string(lb.KeyRevoked)}}
		})
	s.TouchLastUsed = table.PatchWith(view, table.WriteDef[lb.APIKey]{ID: "LB-52", Name: "listbackup.APIKeys.TouchLastUsed",
		Doc: "Stamps an API key's lastUsedAt with the store's clock (one UpdateItem)."}, key, s.touched)
	return s
}

// NewAPIKey is the input of [APIKeys.Create].
type NewAPIKey struct {
	AccountID   lb.AccountID
	UserID      lb.UserID
	Name        string
	Permissions []string
	ExpiresAt   time.Time // zero: never
	Metadata    lb.Object
}

// Create issues an API key and returns its plaintext (lbk_ + 32 random
// bytes, shown once) and the stored key, which holds only apiKeyHash.
// Errors: *table.ValidationError.
//
// Pattern: LB-52 (its write side).
func (s *APIKeys) Create(ctx context.Context, in NewAPIKey) (string, lb.APIKey, error) {
	return table.Run2(ctx, s.create, func(ctx context.Context) (_ string, _ lb.APIKey, err error) {
		plain := APIKeyPrefix + lb.NewSecret(32)
		k := lb.APIKey{
			APIKeyID: lb.APIKeyID(lb.NewUUID()), APIKeyHash: lb.Hash(plain), AccountID: in.AccountID, UserID: in.UserID,
			Name: in.Name, Permissions: in.Permissions, Status: lb.KeyActive, CreatedAt: lb.Seconds(s.e.now()),
			Metadata: in.Metadata,
		}
		if !in.ExpiresAt.IsZero() {
			k.ExpiresAt = lb.Seconds(in.ExpiresAt)
		}
		if err := s.v().Create(ctx, &k); err != nil {
			return "", lb.APIKey{}, err
		}
		return plain, k, nil
	})
}

// Validate returns the active key whose plaintext is key (LB-52): Query
// GSI1 PK = APIKEYHASH#{sha256(key)} (one item), confirmed by a strongly
// consistent GetItem of the key (table.Entity.GetByIndex): two requests,
// because the index is eventually consistent and a lagging one must never
// validate a revoked or deleted key. Errors:
// *table.ValidationError, table.ErrNotFound (unknown), ErrKeyInactive
// (revoked or past expiresAt).
func (s *APIKeys) Validate(ctx context.Context, key string) (lb.APIKey, error) {
	return table.Run(ctx, s.validate, func(ctx context.Context) (lb.APIKey, error) {
		if len(key) <= len(APIKeyPrefix) || key[:len(APIKeyPrefix)] != APIKeyPrefix {
			return lb.APIKey{}, table.Invalid("apiKey", "not a ListBackup API key")
		}
		// Confirmed by a consistent read of the key (GetByIndex): GSI lag never
		// validates a revoked or deleted key.
		k, err := s.v().GetByIndex(ctx, partition(s.e.apiKeys, table.GSI1, lb.APIKey{APIKeyHash: lb.Hash(key)}))
		if err != nil {
			return lb.APIKey{}, fmt.Errorf("validate API key: %w", err)
		}
		if k.Status != lb.KeyActive || (!k.ExpiresAt.IsZero() && !s.e.now().Before(k.ExpiresAt)) {
			return lb.APIKey{}, fmt.Errorf("validate API key %s: %w", k.APIKeyID, ErrKeyInactive)
		}
		return k, nil
	})
}

// Webhooks serves LB-55..LB-57. Signing secrets are encrypted at rest.
// The read of one pattern is declared ([table.Pattern]): its field, whole
// on the Store and the account's own on [AccountScope].
type Webhooks struct {
	// Active lists an account's active webhooks (LB-56); inactive and
	// soft-deleted webhooks are not in its sparse index.
	//
	//	page, err := s.Webhooks.Active.List(ctx, lb.Webhook{AccountID: a})
	Active *table.Pattern[lb.Webhook]
	// ActiveForEvent lists an account's active webhooks subscribed to one
	// event type, the fields' one Events value (LB-57): those of LB-56,
	// filtered server-side, so a page may hold fewer than its limit; the
	// cursor continues correctly.
	//
	//	page, err := s.Webhooks.ActiveForEvent.List(ctx, lb.Webhook{AccountID: a, Events: []string{"sync.failed"}})
	ActiveForEvent *table.Pattern[lb.Webhook]
	// ByID reads a webhook (LB-55). A soft-deleted webhook (LB-67) is not
	// found.
	//
	//	w, err := s.Webhooks.ByID.Get(ctx, lb.Webhook{WebhookID: id})
	ByID *table.Pattern[lb.Webhook]
	// Create creates a webhook (LB-55, its write side); WebhookID defaults
	// to a new UUID.
	Create func(context.Context, *lb.Webhook) error
	// Update applies change to a webhook (LB-55), moving its index entry when
	// isActive changes. A soft-deleted webhook cannot be updated.
	Update func(context.Context, lb.WebhookID, func(*lb.Webhook) error) (lb.Webhook, error)
	// Delete soft-deletes a webhook (LB-55, LB-67; core: "use status fields
	// instead of hard deletes"): isActive becomes false, deletedAt is
	// stamped with the store's clock and its GSI1 entry is removed, so
	// Active and ActiveForEvent (LB-56, LB-57) no longer return it and no
	// delivery is sent to it. The item stays in the table (delivery
	// history, audit) but Get, Update and Delete treat it as missing.
	Delete func(context.Context, lb.WebhookID) error

	deleted func(*lb.Webhook) error // Delete's change, made once (a view copies it)
	e       *entities
	acct    lb.AccountID // set: the view of one account (Store.ForAccount)
}

func newWebhooks(e *entities) *Webhooks {
	return (&Webhooks{e: e,
		deleted: func(w *lb.Webhook) error { w.IsActive, w.DeletedAt = false, lb.Seconds(e.now()); return nil },
		Active: table.NewPattern(e.webhooks, table.PatternDef[lb.Webhook]{ID: "LB-56", Name: "listbackup.Webhooks.Active",
			Doc: "An account's active webhooks.", Reads: table.ReadPage, Index: table.GSI1, WholePartition: true}),
		ActiveForEvent: table.NewPattern(e.webhooks, table.PatternDef[lb.Webhook]{ID: "LB-57", Name: "listbackup.Webhooks.ActiveForEvent",
			Doc: "An account's active webhooks subscribed to one event type.", Reads: table.ReadPage, Index: table.GSI1, WholePartition: true,
			FilterContains: []string{"events"},
			Check: func(w *lb.Webhook) error {
				if len(w.Events) != 1 {
					return table.Invalid("eventType", "give one event type, not %d", len(w.Events))
				}
				return lb.EventType(w.Events[0]).Check("eventType")
			}}),
		ByID: table.NewPattern(e.webhooks, table.PatternDef[lb.Webhook]{ID: "LB-55", Name: "listbackup.Webhooks.ByID",
			Doc: "A webhook by ID, a soft-deleted one not found.", Reads: table.ReadOne,
			Keep: live[lb.Webhook]}),
	}).declare()
}

// in returns the webhooks of account acct alone.
func (s *Webhooks) in(acct lb.AccountID) *Webhooks {
	c := *s
	c.acct, c.ByID, c.Active, c.ActiveForEvent = acct, s.ByID.In(string(acct)), s.Active.In(string(acct)), s.ActiveForEvent.In(string(acct))
	return c.declare()
}

// webhookDeleteAlso is Webhooks.Delete's further IDs, one value for every view.
var webhookDeleteAlso = []string{"LB-56", "LB-57", "LB-67"}

// declare declares the writes of the view (its account's, or whole).
func (s *Webhooks) declare() *Webhooks {
	view := items(s.e.webhooks, s.acct) // one view for every write
	s.Update = table.Update(view, table.WriteDef[lb.Webhook]{ID: "LB-55", Name: "listbackup.Webhooks.Update",
		Doc:  "Applies change to a webhook (LB-55), moving its index entry when isActive changes: a consistent read and one conditional write (table.Entity.Update), because the change is applied in Go to the stored webhook and written back only if nobody wrote it in between.",
		Live: notDeleted[lb.Webhook], LiveField: "deletedAt"}, func(id lb.WebhookID) lb.Webhook { return lb.Webhook{WebhookID: id} })
	s.Create = table.Create(view, table.WriteDef[lb.Webhook]{ID: "LB-55", Name: "listbackup.Webhooks.Create",
		Doc:    "Creates a webhook (WebhookID defaults to a new UUID).",
		Before: func(w *lb.Webhook) { newID(&w.WebhookID) }})
	s.Delete = table.SoftDelete(view, table.WriteDef[lb.Webhook]{ID: "LB-55", Name: "listbackup.Webhooks.Delete", Also: webhookDeleteAlso,
		Doc:  "Soft-deletes a webhook: isActive becomes false, deletedAt is stamped with the store's clock and its GSI1 entry is removed, so Active and ActiveForEvent (LB-56, LB-57) no longer return it and no delivery is sent to it.",
		Live: notDeleted[lb.Webhook], LiveField: "deletedAt"}, func(id lb.WebhookID) lb.Webhook { return lb.Webhook{WebhookID: id} },
		s.deleted)
	return s
}
