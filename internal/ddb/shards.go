package ddb

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
)

// A read of a sharded partition (a template's "shardN" segment, or a
// write-sharded collection's layout) sends one Query per shard at once and
// merges them in sort key order, so a page costs N requests (more when one
// shard holds far more of the range than the others: the shards that
// bound the page are read again), and its cursor holds a position per
// shard. A worker that owns some shards reads only those
// ([Query.OnlyShards]).

func (q Query) checkShards() error {
	if q.Shards < 0 || q.Shards > keytmpl.MaxShards {
		return &codec.ValidationError{Field: "Shards", Reason: fmt.Sprintf("%d is outside 0..%d", q.Shards, keytmpl.MaxShards)}
	}
	if q.ShardBase && q.Shards < 2 {
		return &codec.ValidationError{Field: "ShardBase", Reason: "set without Shards"}
	}
	if len(q.OnlyShards) > 0 && q.Shards < 2 {
		return &codec.ValidationError{Field: "OnlyShards", Reason: "set without Shards"}
	}
	seen := map[int]bool{}
	for _, i := range q.OnlyShards {
		if i < 0 || i >= q.Shards || seen[i] {
			return &codec.ValidationError{Field: "OnlyShards", Reason: fmt.Sprintf("shard %d is outside 0..%d or repeated", i, q.Shards-1)}
		}
		seen[i] = true
	}
	return nil
}

// shardState is one shard of a merged page.
type shardState struct {
	n     int    // shard number
	pk    string // its partition key
	pos   Item   // where the page's output stands in it (nil: its start)
	next  Item   // where the next request starts (nil: its start)
	buf   []Item // items read and not yet emitted
	done  bool   // nothing after buf
	read  bool   // a request was sent this page
	front Item   // LastEvaluatedKey of the last request
}

// donePos marks an exhausted shard in a cursor.
const donePos = "-"

// baseShard numbers the unsharded partition read with [Query.ShardBase].
const baseShard = -1

// shardName names shard n's position in a merged cursor.
func shardName(n int) string {
	if n == baseShard {
		return "b"
	}
	return "s" + strconv.Itoa(n)
}

// queryShards serves a query of every shard of a sharded partition: a
// k-way merge in sort-key order (ties by shard number). Each round sends
// one Query to every shard whose read items are all emitted; an item is
// emitted only when no shard still to be read can hold one before it
// (its sort key is at or before every unfinished shard's
// LastEvaluatedKey), so pages are complete and ordered, and the cursor
// records, per shard, the last item emitted or the last key evaluated.
func (c *Conn) queryShards(ctx context.Context, q Query) ([]Item, string, error) {
	pkName, skName, _, err := c.Schema.KeyAttrs(q.Index)
	if err != nil {
		return nil, "", err
	}
	nums := q.OnlyShards
	if len(nums) == 0 {
		nums = make([]int, q.Shards)
		for i := range nums {
			nums[i] = i
		}
	}
	binding := q.binding(c.Schema.Name)
	var pos map[string]string
	if q.Cursor != "" {
		if pos, err = c.Sealer.Open(binding, q.Cursor); err != nil {
			return nil, "", err
		}
	}
	if q.ShardBase {
		// The unsharded partition itself, first among equal sort keys.
		nums = append([]int{baseShard}, nums...)
	}
	states := make([]*shardState, len(nums))
	for i, n := range nums {
		s := &shardState{n: n, pk: keytmpl.ShardPK(q.PK, n, q.Shards)}
		if n == baseShard {
			s.pk = q.PK
		}
		switch p, ok := pos[shardName(n)]; {
		case !ok:
		case p == donePos:
			s.done = true
		default:
			var m map[string]string
			if json.Unmarshal([]byte(p), &m) != nil || m[pkName] != s.pk {
				return nil, "", fmt.Errorf("%w: cursor is for another partition", ErrInvalidCursor)
			}
			s.pos = make(Item, len(m))
			for k, v := range m {
				s.pos[k] = &types.AttributeValueMemberS{Value: v}
			}
			s.next = s.pos
		}
		states[i] = s
	}
	sk := func(it Item) string {
		v, _ := keytmpl.SegmentValue(it[skName])
		return v
	}
	// before reports whether (a, shard i) comes before (b, shard j) in
	// the merged order.
	before := func(a string, i int, b string, j int) bool {
		if a != b {
			return (a < b) != q.Desc
		}
		return i < j
	}
	keyAttrs := []string{c.Schema.PK, c.Schema.SK}
	if q.Index != Primary {
		keyAttrs = append(keyAttrs, pkName, skName)
	}
	keyOf := func(it Item) Item {
		k := make(Item, len(keyAttrs))
		for _, a := range keyAttrs {
			k[a] = it[a]
		}
		return k
	}
	items := []Item{}
	for round := 0; ; round++ {
		var fetch []*shardState
		active := 0
		for _, s := range states {
			if !s.done {
				active++
				if len(s.buf) == 0 {
					fetch = append(fetch, s)
				}
			}
		}
		if len(fetch) == 0 {
			break
		}
		sq := q
		sq.Cursor, sq.Shards, sq.OnlyShards = "", 0, nil
		if q.Limit > 0 {
			// Each shard is asked for its share of what the page still
			// needs, with a margin for the hash's unevenness.
			need := (q.Limit - len(items) + active - 1) / active
			sq.Limit = min(need+need/2+1, q.Limit-len(items))
		}
		errs := make([]error, len(fetch))
		var wg sync.WaitGroup
		for i, s := range fetch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				qs := sq
				qs.PK = s.pk
				got, last, err := c.queryRaw(ctx, qs, s.next)
				if err != nil {
					errs[i] = err
					return
				}
				s.buf, s.front, s.read = got, last, true
				s.next, s.done = last, len(last) == 0
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return nil, "", err
			}
		}
		// The cut-off: the first LastEvaluatedKey of an unfinished shard.
		var cut *shardState
		for _, s := range states {
			if !s.done && (cut == nil || before(sk(s.front), s.n, sk(cut.front), cut.n)) {
				cut = s
			}
		}
		for q.Limit == 0 || len(items) < q.Limit {
			var head *shardState
			for _, s := range states {
				if len(s.buf) > 0 && (head == nil || before(sk(s.buf[0]), s.n, sk(head.buf[0]), head.n)) {
					head = s
				}
			}
			if head == nil || (cut != nil && before(sk(cut.front), cut.n, sk(head.buf[0]), head.n)) {
				break
			}
			it := head.buf[0]
			head.buf = head.buf[1:]
			head.pos = keyOf(it)
			items = append(items, it)
		}
		if q.Limit == 0 || len(items) >= q.Limit {
			break
		}
	}
	// Each shard's position: past everything it returned when all of it
	// was emitted, else after its last emitted item.
	out := map[string]string{"v": "1"}
	more := false
	for _, s := range states {
		name := shardName(s.n)
		p := s.pos
		if len(s.buf) == 0 {
			if s.done {
				out[name] = donePos
				continue
			}
			p = s.next
		}
		more = true
		if p == nil {
			continue // still at its start
		}
		m, err := keyPosition(p)
		if err != nil {
			return nil, "", err
		}
		b, _ := json.Marshal(m)
		out[name] = string(b)
	}
	var cursor string
	if more {
		if cursor, err = c.Sealer.Seal(binding, out); err != nil {
			return nil, "", err
		}
	}
	return items, cursor, nil
}
