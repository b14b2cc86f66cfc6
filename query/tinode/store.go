package tinode

import (
	"context"
	"slices"
	"time"

	"github.com/singletable/singletable/entity/tn"
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
	// SharedTags switches from tinode.md's rule, where every tag (of a
	// user or a topic) has one holder in the whole table, to today's
	// Tinode's: a tag may be held by many users and topics, each holder
	// once, except the tags of the UniqueTagNamespaces (such as "alias"
	// for "alias:bob"), which stay unique. Shared tags are found through
	// lookup entries written with their holder (table.Unique.Shared).
	// Decide before the first write: switching later leaves the tags
	// written before without the entries the new rule reads (re-save
	// their holders).
	SharedTags bool
	// UniqueTagNamespaces are the namespaces whose tags stay unique when
	// SharedTags is set; "*" makes every namespaced tag ("ns:value")
	// unique and only plain tags shared.
	UniqueTagNamespaces []string
	// IndexShards splits the unused-file index partition (TN-33) in that
	// many shards, FILEUNUSED#0 .. FILEUNUSED#{n-1} by a hash of the file's
	// ID (table.Shard): DefaultIndexShards if 0; 1 keeps the single
	// partition FILEUNUSED. Files.DeleteUnused then reads every shard: n
	// Queries per page, merged oldest first. The partition is the
	// library's own (tinode.md has no unused-file index), so no opt-in is
	// needed; files written under another shard count move with the
	// adoption job (singletable adopt).
	IndexShards int
	// MessageShards is the messages' profile (issue 22; see Messages.Reshard).
	// 0, the default, is tinode.md's layout byte for byte: every message
	// in TOPIC#{name}, and message reads never look for another. N >= 1
	// is the sharded profile: topics this store creates write their
	// messages to N partitions (TOPIC#{name}#{seq mod N}; 1 keeps
	// TOPIC#{name} until Messages.Reshard switches the topic), and every
	// message read first reads the topic's layout (one consistent GetItem
	// more) and, for a sharded topic, fans out over its partitions.
	MessageShards int
	// ServerNumbered says the topics' messages are numbered and written
	// by servers of their own, each message with [Messages.ImportAt]
	// under a layout the server read earlier and keeps for a while
	// (Tinode's servers, through adapters/tinode). [Messages.Reshard] (and
	// so [ReshardJob]) then starts the new epoch past the newest message
	// stored under the topic's layout, whatever the topic's SeqId records,
	// and always appends an epoch, never redoes one: every shard count a
	// server may still write with stays in the layout, so every read
	// (History's fan-out, Get's other places, Newest, purges) still finds
	// a message a server wrote under the layout before a switch, until
	// each server has read the new one (issue 43).
	ServerNumbered bool
}

// DefaultIndexShards is the shard count of the unused-file index when
// Options sets none: at 1,000 uploads a second (the target's 1,000
// messages/s, each with a file), each upload puts 4 WCU on its partition
// (entry put, moved by Finish, removed by Link), so 8 shards take 500 WCU/s
// each, under the 800 WCU/s a partition key may take.
const DefaultIndexShards = 8

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
	// Files are upload records and their links (TN-31..TN-33).
	Files *Files
	// Cache is the persistent cache (TN-34, TN-35).
	Cache *Cache
	// Meta holds the data layout's version (TN-36).
	Meta *Meta

	t     *table.Table
	user  *table.Entity[tn.User]
	auth  *table.Entity[tn.AuthRecord]
	topic *table.Entity[tn.Topic]
	sub   *table.Entity[tn.Subscription]
	msg   *table.Entity[tn.Message]
	del   *table.Entity[tn.DelMessage]
	cred  *table.Entity[tn.Credential]
	file  *table.Entity[tn.File]
	link  *table.Entity[tn.FileLink]
	cache *table.Entity[tn.CacheEntry]
	ver   *table.Entity[tn.DBVersion]
	opts  Options
	// layouts remembers topics' message layouts for Messages.Get (see
	// knownLayout).
	layouts layoutMemo
}

// New returns the store on table t (created with table.NewSchema).
func New(t *table.Table, opts ...func(*Options)) *Store {
	o := Options{SaveAttempts: 200, SaveBackoff: 2 * time.Millisecond, SaveMaxBackoff: 250 * time.Millisecond}
	for _, f := range opts {
		f(&o)
	}
	if o.IndexShards <= 0 {
		o.IndexShards = DefaultIndexShards
	}
	o.IndexShards = min(o.IndexShards, table.MaxShards)
	s := &Store{t: t, opts: o}
	rule := o.tagRule()
	*s = Store{t: t, opts: o,
		user:  table.NewEntity(t, userDef(rule)),
		auth:  table.NewEntity(t, authDef),
		topic: table.NewEntity(t, topicDef(rule)),
		sub:   table.NewEntity(t, subDef),
		msg:   table.NewEntity(t, msgDef),
		del:   table.NewEntity(t, delDef),
		cred:  table.NewEntity(t, credDef),
		file:  table.NewEntity(t, fileDef(o.IndexShards)),
		link:  table.NewEntity(t, linkDef),
		cache: table.NewEntity(t, cacheDef),
		ver:   table.NewEntity(t, versionDef),
	}
	s.Users = newUsers(s)
	s.Auth = newAuth(s)
	s.Topics = newTopics(s)
	s.Subs = newSubscriptions(s)
	s.Messages = newMessages(s)
	s.Creds = newCredentials(s)
	s.Files = newFiles(s)
	s.Cache = newCache(s)
	s.Meta = newMeta(s)
	return s
}

// Table returns the table the store uses.
func (s *Store) Table() *table.Table { return s.t }

// tagRule returns the tag rule the options choose.
func (o Options) tagRule() tn.TagRule {
	return tn.TagRule{Shared: o.SharedTags, UniqueNamespaces: o.UniqueTagNamespaces}
}

// tagValue returns what tag's holder writes under the store's tag rule.
func (s *Store) tagValue(tag string) table.Unique { return s.opts.tagRule().Unique(tag) }

// findByTags is contact discovery over one kind of tag holder (TN-19,
// [Users.FindByTags] and [Topics.FindByTags]): the holders of tags
// (tagHolders; a guard owned by the other kind is skipped), read with
// getMany in the order of their first matching tag, each matched by the
// tags it still holds as read (its ID and tags from of). A shared tag's
// entry is an index, never the truth (issue 26), so an item changed
// behind it does not match the tags it dropped.
func findByTags[T any, ID comparable, M any](ctx context.Context, s *Store, tags []string, e *table.Entity[T],
	getMany func(context.Context, []ID) ([]T, error), of func(T) (ID, []string), match func(T, []string) M) ([]M, error) {
	if err := checkTagArgs(tags); err != nil {
		return nil, err
	}
	guards, err := s.tagHolders(ctx, tags)
	if err != nil {
		return nil, err
	}
	var ids []ID
	matched := map[ID][]string{}
	for _, g := range guards {
		holder, err := e.FromKey(g.Owner)
		if err != nil {
			continue // the other kind's tag
		}
		tag, err := tn.TagFromUnique(g.Unique)
		if err != nil {
			return nil, err
		}
		id, _ := of(holder)
		if _, ok := matched[id]; !ok {
			ids = append(ids, id)
		}
		matched[id] = append(matched[id], tag)
	}
	items, err := getMany(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]M, 0, len(items))
	for _, item := range items {
		id, held := of(item)
		var still []string
		for _, tag := range matched[id] {
			if slices.Contains(held, tag) {
				still = append(still, tag)
			}
		}
		if len(still) > 0 {
			out = append(out, match(item, still))
		}
	}
	return out, nil
}

// tagHolders returns the holders of each tag (guards of unique tags in
// one BatchGetItem, the entries of each shared tag in one Query per page)
// in the order of tags.
func (s *Store) tagHolders(ctx context.Context, tags []string) ([]table.Guard, error) {
	var uniq []table.Unique
	var out []table.Guard
	for _, tag := range tags {
		if u := s.tagValue(tag); !u.Shared {
			uniq = append(uniq, u)
		}
	}
	guards, err := s.t.LookupUniques(ctx, uniq)
	if err != nil {
		return nil, err
	}
	byTag := map[string][]table.Guard{}
	for _, g := range guards {
		byTag[g.Value] = append(byTag[g.Value], g)
	}
	for _, tag := range tags {
		u := s.tagValue(tag)
		if !u.Shared {
			out = append(out, byTag[u.Value]...)
			continue
		}
		for cursor := ""; ; {
			opts := []table.ListOption{table.Limit(100)}
			if cursor != "" {
				opts = append(opts, table.After(cursor))
			}
			p, err := s.t.LookupShared(ctx, u, opts...)
			if err != nil {
				return nil, err
			}
			out = append(out, p.Items...)
			if cursor = p.Cursor; cursor == "" {
				break
			}
		}
	}
	return out, nil
}
