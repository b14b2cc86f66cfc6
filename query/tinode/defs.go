package tinode

import (
	"time"

	tn "github.com/singletable/singletable/entity/tinode"
	"github.com/singletable/singletable/table"
)

// Entity type names (the table's entity-type attribute).
const (
	TypeUser         = "TinodeUser"
	TypeAuth         = "TinodeAuth"
	TypeTopic        = "TinodeTopic"
	TypeSubscription = "TinodeSubscription"
	TypeMessage      = "TinodeMessage"
	TypeDelMessage   = "TinodeDelMessage"
	TypeCredential   = "TinodeCredential"
)

// touch keeps CreatedAt/UpdatedAt: set on create when not given (so
// imported items keep theirs), UpdatedAt advanced on every later write.
func touch(created, updated *time.Time, now time.Time, isCreate bool) {
	now = now.UTC()
	if isCreate {
		if created.IsZero() {
			*created = now
		}
		if updated.IsZero() {
			*updated = *created
		}
		return
	}
	*updated = now
}

var userDef = table.Def[tn.User]{
	Type:     TypeUser,
	Key:      func(u *tn.User) (table.Key, error) { return tn.UserKey(u.Id) },
	Validate: func(u *tn.User) error { return u.Validate() },
	// Unique (the tag guards or entries) is set by New: it follows the
	// store's tag rule (Options.SharedTags).
	Touch: func(u *tn.User, now time.Time, created bool) {
		touch(&u.CreatedAt, &u.UpdatedAt, now, created)
	},
	IndexedFields: []string{"Id", "Tags"},
}

var authDef = table.Def[tn.AuthRecord]{
	Type:     TypeAuth,
	Key:      func(a *tn.AuthRecord) (table.Key, error) { return tn.AuthKey(a.Unique) },
	Validate: func(a *tn.AuthRecord) error { return a.Validate() },
	Indexes: func(a *tn.AuthRecord) (map[table.Index]table.IndexKey, error) {
		ik, err := tn.AuthByUser(a)
		return map[table.Index]table.IndexKey{table.GSI1: ik}, err
	},
	IndexedFields: []string{"unique", "userid"},
}

var topicDef = table.Def[tn.Topic]{
	Type:     TypeTopic,
	Key:      func(t *tn.Topic) (table.Key, error) { return tn.TopicKey(t.Id) },
	Validate: func(t *tn.Topic) error { return t.Validate() },
	// A group topic is listed under its owner (TN-22).
	Indexes: func(t *tn.Topic) (map[table.Index]table.IndexKey, error) {
		ik, ok, err := tn.TopicByOwner(t)
		if !ok || err != nil {
			return nil, err
		}
		return map[table.Index]table.IndexKey{table.GSI1: ik}, nil
	},
	// Topic tags share the tag guards (or entries) with user tags; New
	// sets Unique by the store's tag rule.
	Touch: func(t *tn.Topic, now time.Time, created bool) {
		touch(&t.CreatedAt, &t.UpdatedAt, now, created)
	},
	IndexedFields: []string{"Id", "Owner", "Tags"},
}

var subDef = table.Def[tn.Subscription]{
	Type: TypeSubscription,
	Key: func(s *tn.Subscription) (table.Key, error) {
		return tn.SubscriptionKey(s.Topic, s.User)
	},
	Validate: func(s *tn.Subscription) error { return s.Validate() },
	Indexes: func(s *tn.Subscription) (map[table.Index]table.IndexKey, error) {
		ik, err := tn.SubscriptionByUser(s)
		return map[table.Index]table.IndexKey{table.GSI1: ik}, err
	},
	Touch: func(s *tn.Subscription, now time.Time, created bool) {
		if s.Id == "" {
			s.Id = tn.SubscriptionID(s.Topic, s.User)
		}
		touch(&s.CreatedAt, &s.UpdatedAt, now, created)
	},
	Version:       func(s *tn.Subscription) *int64 { return &s.Version },
	IndexedFields: []string{"Id", "Topic", "User", "UpdatedAt"},
}

var delDef = table.Def[tn.DelMessage]{
	Type: TypeDelMessage,
	Key: func(d *tn.DelMessage) (table.Key, error) {
		return tn.DelKey(d.Topic, d.DelId)
	},
	Validate:      func(d *tn.DelMessage) error { return d.Validate() },
	IndexedFields: []string{"Topic", "DelId"},
}

var credDef = table.Def[tn.Credential]{
	Type: TypeCredential,
	Key: func(c *tn.Credential) (table.Key, error) {
		return tn.CredKey(c.User, c.Method, c.Value)
	},
	Validate: func(c *tn.Credential) error { return c.Validate() },
	// Unvalidated credentials are listed by age in a sparse GSI2 (TN-30).
	Indexes: func(c *tn.Credential) (map[table.Index]table.IndexKey, error) {
		ik, ok, err := tn.CredUnvalidated(c)
		if !ok || err != nil {
			return nil, err
		}
		return map[table.Index]table.IndexKey{table.GSI2: ik}, nil
	},
	// A validated credential is unique among validated credentials.
	Unique: func(c *tn.Credential) []table.Unique {
		if !c.Done || c.DeletedAt != nil {
			return nil
		}
		return []table.Unique{tn.CredUnique(c.Method, c.Value)}
	},
	Touch: func(c *tn.Credential, now time.Time, created bool) {
		touch(&c.CreatedAt, &c.UpdatedAt, now, created)
	},
	IndexedFields: []string{"User", "Method", "Value", "Done", "UpdatedAt", "DeletedAt"},
}

var msgDef = table.Def[tn.Message]{
	Type:     TypeMessage,
	Key:      func(m *tn.Message) (table.Key, error) { return tn.MessageKey(m.Topic, m.SeqId) },
	Validate: func(m *tn.Message) error { return m.Validate() },
	Expires:  func(m *tn.Message) time.Time { return m.Expires() },
	Touch: func(m *tn.Message, now time.Time, created bool) {
		touch(&m.CreatedAt, &m.UpdatedAt, now, created)
	},
	Version:       func(m *tn.Message) *int64 { return &m.Version },
	IndexedFields: []string{"Topic", "SeqId", "ExpireTime"},
}
