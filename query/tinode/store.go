package tinode

import (
	"time"

	tn "github.com/singletable/singletable/entity/tinode"
	"github.com/singletable/singletable/table"
)

// Options configure a [Store].
type Options struct {
	// SaveAttempts bounds how often [Messages.Save] retries after losing
	// the race for a topic's next SeqId (default 200; the context deadline
	// also ends it).
	SaveAttempts int
	// SaveBackoff is the first wait between attempts; it doubles up to
	// SaveMaxBackoff, with full jitter (defaults 2ms and 250ms).
	SaveBackoff, SaveMaxBackoff time.Duration
}

// Store is Tinode's storage on one single table. Its fields group the
// access patterns by entity; all are safe for concurrent use.
type Store struct {
	Users    *Users
	Auth     *Auth
	Topics   *Topics
	Subs     *Subscriptions
	Messages *Messages
	// Creds are the credentials under validation (TN-30).
	Creds *Credentials

	t     *table.Table
	user  *table.Entity[tn.User]
	auth  *table.Entity[tn.AuthRecord]
	topic *table.Entity[tn.Topic]
	sub   *table.Entity[tn.Subscription]
	msg   *table.Entity[tn.Message]
	del   *table.Entity[tn.DelMessage]
	cred  *table.Entity[tn.Credential]
	opts  Options
}

// New returns the store on table t (created with table.NewSchema).
func New(t *table.Table, opts ...func(*Options)) *Store {
	o := Options{SaveAttempts: 200, SaveBackoff: 2 * time.Millisecond, SaveMaxBackoff: 250 * time.Millisecond}
	for _, f := range opts {
		f(&o)
	}
	s := &Store{t: t, opts: o,
		user:  table.NewEntity(t, userDef),
		auth:  table.NewEntity(t, authDef),
		topic: table.NewEntity(t, topicDef),
		sub:   table.NewEntity(t, subDef),
		msg:   table.NewEntity(t, msgDef),
		del:   table.NewEntity(t, delDef),
		cred:  table.NewEntity(t, credDef),
	}
	s.Users = &Users{s}
	s.Auth = &Auth{s}
	s.Topics = &Topics{s}
	s.Subs = &Subscriptions{s}
	s.Messages = &Messages{s}
	s.Creds = &Credentials{s}
	return s
}

// Table returns the table the store uses.
func (s *Store) Table() *table.Table { return s.t }
