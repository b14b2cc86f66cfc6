package ferryhook

import (
	"sync"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// SpreadEventIDs makes s mint event IDs that fall, one call after another,
// in counter shards 0, 1, ..., n-1, 0, ... (table.Shard of the ID) and,
// for a write-sharded source, in event partitions 0, 1, ..., e-1, 0, ...
// (the bucket the ID records): a small scale sample then fills
// the shards as evenly as a large population of random IDs does
// (capacity.SpreadID's idea, for IDs the store mints). Concurrent ingests
// (group commits of several sources) share the sequence.
func SpreadEventIDs(s *Store, n, e int) {
	next := 0
	var mu sync.Mutex
	s.acceptEventID = func(id fh.EventID) bool {
		mu.Lock()
		defer mu.Unlock()
		if table.Shard(string(id), n) != next%n {
			return false
		}
		if _, _, b, ok := id.Location(); ok && b > 0 && b-1 != next%e {
			return false
		}
		next++
		return true
	}
}
