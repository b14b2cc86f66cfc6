package tinode

import (
	"context"
	"errors"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// Cache is Tinode's persistent cache (today's kvmeta rows): short-lived
// strings by key, such as pending confirmation codes. Entries are one
// partition, PK = PCACHE, SK = KEY#{key}, so a key prefix is a
// begins_with condition (keys.Escape keeps prefixes: the escape of a
// prefix is a prefix of the escape). One partition holds up to 1,000
// writes per second, far above what confirmation codes need.
type Cache struct {
	// ByKey reads the entry of a key (TN-34, Tinode's PCacheGet).
	//
	//	e, err := s.Cache.ByKey.Get(ctx, tn.CacheEntry{Key: key}) // e.Value
	ByKey *table.Pattern[tn.CacheEntry]

	upsert, delete, expire table.Op
	s                      *Store
}

func newCache(s *Store) *Cache {
	return &Cache{s: s,
		ByKey: table.NewPattern(s.cache, table.PatternDef[tn.CacheEntry]{ID: "TN-34", Name: "tinode.Cache.ByKey",
			Doc: "A cache entry by key.", Reads: table.ReadOne,
			Require: []string{"Key"}}),
		upsert: table.NewOp(s.t, "TN-34", "tinode.Cache.Upsert"),
		delete: table.NewOp(s.t, "TN-34", "tinode.Cache.Delete"),
		expire: table.NewOp(s.t, "TN-35", "tinode.Cache.Expire"),
	}
}

// Upsert sets key to value, stamping CreatedAt now (TN-34, Tinode's
// PCacheUpsert): one PutItem; with failOnDuplicate one conditional PutItem
// that gives table.ErrAlreadyExists when the key is held.
func (c *Cache) Upsert(ctx context.Context, key, value string, failOnDuplicate bool) error {
	return c.upsert.Do(ctx, func(ctx context.Context) error {
		e := tn.CacheEntry{Key: key, Value: value, CreatedAt: c.s.now()}
		if failOnDuplicate {
			return c.s.cache.Create(ctx, &e)
		}
		return c.s.cache.Put(ctx, &e)
	})
}

// Delete deletes key (TN-34, Tinode's PCacheDelete): one DeleteItem. A
// missing key is not an error, as in Tinode's SQL adapters.
func (c *Cache) Delete(ctx context.Context, key string) error {
	return c.delete.Do(ctx, func(ctx context.Context) error {
		k, err := c.s.cache.CheckedKey(tn.CacheEntry{Key: key})
		if err != nil {
			return err
		}
		if err := c.s.cache.Delete(ctx, k); err != nil && !errors.Is(err, table.ErrNotFound) {
			return err
		}
		return nil
	})
}

// Expire deletes the entries whose key starts with prefix and that were
// written before olderThan, and returns how many (TN-35, Tinode's
// PCacheExpire): Query PK = PCACHE, SK begins_with KEY#{prefix} (one page
// per 1 MB), then one BatchWriteItem per 25 entries. An empty prefix is
// refused, as Tinode refuses it.
func (c *Cache) Expire(ctx context.Context, prefix string, olderThan time.Time) (int, error) {
	return table.Run(ctx, c.expire, func(ctx context.Context) (int, error) {
		if prefix == "" {
			return 0, table.Invalid("prefix", "empty")
		}
		// the key of the entry named prefix is the prefix of every key it begins
		k := c.s.cache.Key(tn.CacheEntry{Key: prefix})
		if err := k.Err(); err != nil {
			return 0, err
		}
		q := table.Query{PK: k.PK, SK: table.SKBeginsWith(k.SK)}
		var old []table.Key
		for e, err := range c.s.cache.ListAll(ctx, q) {
			if err != nil {
				return 0, err
			}
			if e.CreatedAt.Before(olderThan) {
				k, _ := c.s.cache.CheckedKey(tn.CacheEntry{Key: e.Key})
				old = append(old, k)
			}
		}
		if len(old) == 0 {
			return 0, nil
		}
		if err := c.s.cache.BatchDelete(ctx, old); err != nil {
			return 0, err
		}
		return len(old), nil
	})
}
