package listbackup

import (
	"context"
	"fmt"
	"iter"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// AccountScope is the store as one account sees it (issue 11: tenant
// scoping enforced by signatures). Obtain it with [Store.ForAccount] once
// the caller's account is authenticated, and hand request handlers only
// this: its by-ID reads and writes (Sources.ByID, Jobs.Update, Webhooks.Delete,
// APIKeys.Revoke, ...) reach only items whose accountId is the account.
// An ID of another account's item gives table.ErrNotFound and changes
// nothing, on reads and on writes, because every write carries the
// condition "accountId = account" in the same request (table.Scoped);
// lists of another account's partition come back empty, and a cursor
// minted for another account's list is refused by its seal. The Store's
// own fields stay unscoped, for back-office jobs that cross accounts.
type AccountScope struct {
	// Account is the account the scope is restricted to.
	Account     lb.AccountID
	Sources     *Sources
	Jobs        *Jobs
	Connections *Connections
	Webhooks    *Webhooks
	APIKeys     *APIKeys
	Teams       *Teams
	Tags        *Tags
	get         table.Op
	accounts    *Accounts
}

// ForAccount returns the store restricted to account (see [AccountScope]).
// An invalid account ID is a *table.ValidationError.
func (s *Store) ForAccount(account lb.AccountID) (*AccountScope, error) {
	if err := account.Validate("accountId"); err != nil {
		return nil, err
	}
	return &AccountScope{Account: account, accounts: s.Accounts,
		Sources: s.Sources.in(account), Jobs: s.Jobs.in(account),
		Connections: s.Connections.in(account), Webhooks: s.Webhooks.in(account),
		APIKeys: s.APIKeys.in(account), Teams: s.Teams.in(account), Tags: s.Tags.in(account),
		get: table.NewOp(s.t, "LB-9", "listbackup.AccountScope.Get"),
	}, nil
}

// Get returns the scope's own account (LB-9), read by Accounts.ByID (a
// soft-deleted account is not found): a request handler holds the scope
// alone, not the Store's Accounts. Errors: table.ErrNotFound.
func (a *AccountScope) Get(ctx context.Context) (lb.Account, error) {
	return table.Run(ctx, a.get, func(ctx context.Context) (lb.Account, error) {
		return a.accounts.ByID.Get(ctx, lb.Account{AccountID: a.Account})
	})
}

// view is an entity seen whole (acct "") or through one account's scope:
// the one place where the group types (Sources, Jobs, ...) choose.
type view[T any] struct {
	e     *table.Entity[T]
	acct  lb.AccountID
	owner func(*T) lb.AccountID
}

func (v view[T]) scoped() *table.Scoped[T] { return v.e.In(string(v.acct)) }

func (v view[T]) Get(ctx context.Context, k table.Key, opts ...table.ReadOption) (T, error) {
	if v.acct == "" {
		return v.e.Get(ctx, k, opts...)
	}
	return v.scoped().Get(ctx, k, opts...)
}

func (v view[T]) Create(ctx context.Context, item *T) error {
	if v.acct == "" {
		return v.e.Create(ctx, item)
	}
	return v.scoped().Create(ctx, item)
}

func (v view[T]) Update(ctx context.Context, k table.Key, change func(*T) error) (T, error) {
	if v.acct == "" {
		return v.e.Update(ctx, k, change)
	}
	return v.scoped().Update(ctx, k, change)
}

func (v view[T]) Patch(ctx context.Context, k table.Key, p table.Patch) (T, error) {
	if v.acct == "" {
		return v.e.Patch(ctx, k, p)
	}
	return v.scoped().Patch(ctx, k, p)
}

func (v view[T]) Delete(ctx context.Context, k table.Key) error {
	if v.acct == "" {
		return v.e.Delete(ctx, k)
	}
	return v.scoped().Delete(ctx, k)
}

func (v view[T]) List(ctx context.Context, q table.Query, opts ...table.ListOption) (table.Page[T], error) {
	if v.acct == "" {
		return v.e.List(ctx, q, opts...)
	}
	return v.scoped().List(ctx, q, opts...)
}

func (v view[T]) ListAll(ctx context.Context, q table.Query, opts ...table.ListOption) iter.Seq2[T, error] {
	if v.acct == "" {
		return v.e.ListAll(ctx, q, opts...)
	}
	return v.scoped().ListAll(ctx, q, opts...)
}

// GetByIndex reads through an index, then (scoped) drops an item of
// another account as missing.
func (v view[T]) GetByIndex(ctx context.Context, q table.Query) (T, error) {
	item, err := v.e.GetByIndex(ctx, q)
	if err != nil || v.acct == "" {
		return item, err
	}
	if v.owner(&item) != v.acct {
		var zero T
		return zero, fmt.Errorf("%s: %w", v.e.Type(), table.ErrNotFound)
	}
	return item, nil
}

func (s *Sources) v() view[lb.Source] {
	return view[lb.Source]{s.e.sources, s.acct, func(x *lb.Source) lb.AccountID { return x.AccountID }}
}
func (s *Jobs) v() view[lb.Job] {
	return view[lb.Job]{s.e.jobs, s.acct, func(x *lb.Job) lb.AccountID { return x.AccountID }}
}
func (s *Connections) v() view[lb.Connection] {
	return view[lb.Connection]{s.e.connections, s.acct, func(x *lb.Connection) lb.AccountID { return x.AccountID }}
}
func (s *Webhooks) v() view[lb.Webhook] {
	return view[lb.Webhook]{s.e.webhooks, s.acct, func(x *lb.Webhook) lb.AccountID { return x.AccountID }}
}
func (s *APIKeys) v() view[lb.APIKey] {
	return view[lb.APIKey]{s.e.apiKeys, s.acct, func(x *lb.APIKey) lb.AccountID { return x.AccountID }}
}
func (s *Teams) v() view[lb.Team] {
	return view[lb.Team]{s.e.teams, s.acct, func(x *lb.Team) lb.AccountID { return x.AccountID }}
}
func (s *Tags) v() view[lb.Tag] {
	return view[lb.Tag]{s.e.tags, s.acct, func(x *lb.Tag) lb.AccountID { return x.AccountID }}
}
