package ferryhook

import (
	"strings"
	"time"

	fh "github.com/singletable/singletable/entity/ferryhook"
	"github.com/singletable/singletable/table"
)

// Unique-value names of the guard items.
const (
	uniqueEmail   = "email"
	uniqueKeyHash = "keyhash"
)

var userDef = table.Def[fh.User]{
	Type: "User",
	Key:  func(u *fh.User) (table.Key, error) { return fh.UserKey(u.UserID) },
	Indexes: func(u *fh.User) (map[table.Index]table.IndexKey, error) {
		pk, err := fh.EmailGSI1PK.Build(u.Email)
		if err != nil {
			return nil, err
		}
		return map[table.Index]table.IndexKey{table.GSI1: {PK: string(pk), SK: string(fh.UserGSI1SK.MustBuild())}}, nil
	},
	Validate: func(u *fh.User) error { return u.Validate() },
	// One person, one email, whatever its case or Unicode form: the guard
	// holds the folded address (keys.FoldEmail), GSI1 the stored one.
	Unique: func(u *fh.User) []table.Unique {
		return []table.Unique{{Name: uniqueEmail, Value: fh.NormalizeEmail(u.Email)}}
	},
	Touch: func(u *fh.User, now time.Time, created bool) {
		if created && u.CreatedAt.IsZero() {
			u.CreatedAt = fh.ISO(now)
		}
		u.UpdatedAt = fh.ISO(now)
	},
	IndexedFields: []string{"email"},
	Match:         func(k table.Key) bool { return strings.HasPrefix(k.PK, "USER#") && k.SK == "PROFILE" },
}

var sourceDef = table.Def[fh.Source]{
	Type: "Source",
	Key:  func(s *fh.Source) (table.Key, error) { return fh.SourceKey(s.UserID, s.SourceID) },
	Indexes: func(s *fh.Source) (map[table.Index]table.IndexKey, error) {
		pk, err := fh.SourceIDGSI3PK.Build(string(s.SourceID))
		if err != nil {
			return nil, err
		}
		return map[table.Index]table.IndexKey{table.GSI3: {PK: string(pk), SK: string(fh.SourceGSI3SK.MustBuild())}}, nil
	},
	Validate: func(s *fh.Source) error { return s.Validate() },
	Touch: func(s *fh.Source, now time.Time, created bool) {
		if created && s.CreatedAt.IsZero() {
			s.CreatedAt = fh.ISO(now)
		}
	},
	// The provider's signing secret is a credential: encrypted at rest.
	Secrets: map[string]func(*fh.Source) *string{"signingSecret": func(s *fh.Source) *string { return &s.SigningSecret }},
	Match:   func(k table.Key) bool { return strings.HasPrefix(k.PK, "USER#") && strings.HasPrefix(k.SK, "SRC#") },
}

var connectionDef = table.Def[fh.Connection]{
	Type:     "Connection",
	Key:      func(c *fh.Connection) (table.Key, error) { return fh.ConnectionKey(c.SourceID, c.ConnectionID) },
	Validate: func(c *fh.Connection) error { return c.Validate() },
	Touch: func(c *fh.Connection, now time.Time, created bool) {
		if created && c.CreatedAt.IsZero() {
			c.CreatedAt = fh.ISO(now)
		}
		c.UpdatedAt = fh.ISO(now)
	},
	// The outbound signing secret is a credential: encrypted at rest.
	Secrets: map[string]func(*fh.Connection) *string{"signingSecret": func(c *fh.Connection) *string { return &c.SigningSecret }},
	Match:   func(k table.Key) bool { return strings.HasPrefix(k.PK, "SRC#") && strings.HasPrefix(k.SK, "CONN#") },
}

var apiKeyDef = table.Def[fh.APIKey]{
	Type: "APIKey",
	Key:  func(k *fh.APIKey) (table.Key, error) { return fh.APIKeyKey(k.UserID, k.KeyID) },
	Indexes: func(k *fh.APIKey) (map[table.Index]table.IndexKey, error) {
		pk, err := fh.KeyHashGSI2PK.Build(k.KeyHash)
		if err != nil {
			return nil, err
		}
		return map[table.Index]table.IndexKey{table.GSI2: {PK: string(pk), SK: string(fh.APIKeyGSI2SK.MustBuild())}}, nil
	},
	Validate: func(k *fh.APIKey) error { return k.Validate() },
	Unique:   func(k *fh.APIKey) []table.Unique { return []table.Unique{{Name: uniqueKeyHash, Value: k.KeyHash}} },
	// The key-hash guard carries what authentication returns, so
	// APIKeys.Authenticate is one GetItem (issue 12); lastUsedAt, written
	// on every request, is not carried.
	Carry: []string{"keyId", "userId", "name", "keyHash", "keyPrefix", "permissions", "createdAt"},
	Touch: func(k *fh.APIKey, now time.Time, created bool) {
		if created && k.CreatedAt.IsZero() {
			k.CreatedAt = fh.ISO(now)
		}
	},
	IndexedFields: []string{"keyHash"},
	Match:         func(k table.Key) bool { return strings.HasPrefix(k.PK, "USER#") && strings.HasPrefix(k.SK, "KEY#") },
}

var eventDef = table.Def[fh.Event]{
	Type: "Event",
	Key:  func(e *fh.Event) (table.Key, error) { return fh.EventKey(e.SourceID, e.ReceivedAt, e.EventID) },
	Indexes: func(e *fh.Event) (map[table.Index]table.IndexKey, error) {
		pk, err := fh.EventIDGSI1PK.Build(string(e.EventID))
		if err != nil {
			return nil, err
		}
		return map[table.Index]table.IndexKey{table.GSI1: {PK: string(pk), SK: string(fh.EventGSI1SK.MustBuild())}}, nil
	},
	Validate: func(e *fh.Event) error { return e.Validate() },
	Expires:  func(e *fh.Event) time.Time { return e.ExpiresAt.Time() },
	Match:    func(k table.Key) bool { return strings.HasPrefix(k.PK, "SRC#") && strings.HasPrefix(k.SK, "EVT#") },
}

var attemptDef = table.Def[fh.DeliveryAttempt]{
	Type:     "DeliveryAttempt",
	Key:      func(a *fh.DeliveryAttempt) (table.Key, error) { return fh.AttemptKey(a.EventID, a.AttemptNumber) },
	Validate: func(a *fh.DeliveryAttempt) error { return a.Validate() },
	Expires: func(a *fh.DeliveryAttempt) time.Time {
		if a.ExpiresAt == 0 {
			return time.Time{}
		}
		return a.ExpiresAt.Time()
	},
	Match: func(k table.Key) bool { return strings.HasPrefix(k.PK, "EVT#") && strings.HasPrefix(k.SK, "ATT#") },
}
