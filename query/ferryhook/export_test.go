package ferryhook

import (
	"sync"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// SpreadEventIDs makes s mint event IDs that fall, one call after another,
// in counter shards 0, 1, ..., n-1, 0, ... (table.Shard of the ID, one
// sequence for every source, since the owner's usage shards are shared by
// all of them) and, for a write-sharded source, in event partitions 0, 1,
// ..., e-1, 0, ... (the bucket the ID records, one sequence per source,
// since each source has its own event partitions): a small scale sample
// then fills the shards as evenly as a large population of random IDs
// does (capacity.SpreadID's idea, for IDs the store mints). With one
// sequence for buckets too, 80 events over 20 sources could give one
// source two events in one partition, which the model then charged at
// 125 calls a second (a CI failure of TestIngestWCU_FH12_FH16).
func SpreadEventIDs(s *Store, n, e int) {
	next := 0
	bucket := map[fh.SourceID]int{}
	var mu sync.Mutex
	s.acceptEventID = func(id fh.EventID) bool {
		mu.Lock()
		defer mu.Unlock()
		if table.Shard(string(id), n) != next%n {
			return false
		}
		src, _, b, ok := id.Location()
		if ok && b > 0 && b-1 != bucket[src]%e {
			return false
		}
		next++
		bucket[src]++
		return true
	}
}

// keyStore builds the keys the external tests read stored items by: its
// entities' declarations, on tables it never reaches.
var keyStore = New(table.New(nil, MainSchema("")), table.New(nil, EventsSchema("")))

// UserKey, SourceKey, ConnectionKey, APIKeyKey and EventKey are the keys
// the store's entities build (table.Entity.CheckedKey, table.Entity.Key).
func UserKey(id fh.UserID) (table.Key, error) { return keyStore.user.CheckedKey(fh.User{UserID: id}) }

func SourceKey(user fh.UserID, id fh.SourceID) (table.Key, error) {
	return keyStore.source.CheckedKey(fh.Source{UserID: user, SourceID: id})
}

func ConnectionKey(source fh.SourceID, id fh.ConnectionID) (table.Key, error) {
	return keyStore.conn.CheckedKey(fh.Connection{SourceID: source, ConnectionID: id})
}

func APIKeyKey(user fh.UserID, id fh.APIKeyID) (table.Key, error) {
	return keyStore.apiKey.CheckedKey(fh.APIKey{UserID: user, KeyID: id})
}

func EventKey(source fh.SourceID, at fh.UnixMillis, id fh.EventID) (table.Key, error) {
	k := keyStore.event.Key(fh.Event{SourceID: source, ReceivedAt: at, EventID: id})
	return k, k.Err()
}
