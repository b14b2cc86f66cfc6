package table

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/internal/keytmpl"
	"github.com/singletable/singletable/keys"
)

// Sharded partitions. One partition key value takes at most 1,000 write
// and 3,000 read units per second, on the table and on each GSI alike
// (docs/performance.md, "Scale"), and DynamoDB never splits a key whose items
// all change. A partition every item of a kind joins (all users, all due
// schedules, every run of a status) is therefore split in N shards: the
// template segment "{id:shardN}" (last in a partition-key template, such
// as "SCHED#DUE#{scheduleId:shard8}") writes the item to shard
// [Shard](id, N), so the partition key is SCHED#DUE#0 .. SCHED#DUE#7 and
// each shard takes 1/N of the writes. With N = 1 the segment is left out:
// the key is the unsharded one, byte for byte.
//
// A read of the whole partition ([Query.Shards], set by [Entity.List] from
// the template) sends one Query per shard at once and merges them in sort
// key order, so a page costs N requests (more when one shard holds far
// more of the range than the others: the shards that bound the page are
// read again), and its cursor holds a position per shard. A worker that
// owns some shards reads only those ([Query.OnlyShards]), or one shard by
// its full key.

// ShardPK returns the partition key of shard i of the sharded partition
// pk: pk#i, or pk itself when n is 1.
func ShardPK(pk string, i, n int) string { return keytmpl.ShardPK(pk, i, n) }

// Shards returns the shard count of the entity's partition key on index
// ix (Primary for the table), as its template declares: 0 when it is not
// sharded. Readers of a partition that several entity types share
// ([Table.ReadCollection]) pass it as [Query.Shards].
func (e *Entity[T]) Shards(ix Index) int {
	if e.decl == nil {
		return 0
	}
	t := e.decl.pk
	if ix != Primary {
		t = e.decl.indexes[ix][0]
	}
	if n := t.Shards(); n > 1 {
		return n
	}
	return 0
}

// withShards sets q.Shards from the entity's template when q names the
// partition without its shard segment.
func (e *Entity[T]) withShards(q Query) Query {
	if q.Shards != 0 || e.decl == nil {
		return q
	}
	t := e.decl.pk
	if q.Index != Primary {
		t = e.decl.indexes[q.Index][0]
	}
	if t.Unsharded(q.PK) {
		q.Shards = t.Shards()
	}
	return q
}

func checkShards(q Query) error {
	if q.Shards < 0 || q.Shards > MaxShards {
		return &ValidationError{Field: "Shards", Reason: fmt.Sprintf("%d is outside 0..%d", q.Shards, MaxShards)}
	}
	if q.ShardBase && q.Shards < 2 {
		return &ValidationError{Field: "ShardBase", Reason: "set without Shards"}
	}
	if len(q.OnlyShards) > 0 && q.Shards < 2 {
		return &ValidationError{Field: "OnlyShards", Reason: "set without Shards"}
	}
	seen := map[int]bool{}
	for _, i := range q.OnlyShards {
		if i < 0 || i >= q.Shards || seen[i] {
			return &ValidationError{Field: "OnlyShards", Reason: fmt.Sprintf("shard %d is outside 0..%d or repeated", i, q.Shards-1)}
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
func (t *Table) queryShards(ctx context.Context, q Query, entity string) (Page[Item], error) {
	var page Page[Item]
	pkName, skName, _, err := t.schema.KeyAttrs(q.Index)
	if err != nil {
		return page, err
	}
	nums := q.OnlyShards
	if len(nums) == 0 {
		nums = make([]int, q.Shards)
		for i := range nums {
			nums[i] = i
		}
	}
	binding := q.binding(t.schema.Name)
	var pos map[string]string
	if q.Cursor != "" {
		if pos, err = t.sealer().Open(binding, q.Cursor); err != nil {
			return page, err
		}
	}
	if q.ShardBase {
		// The unsharded partition itself, first among equal sort keys.
		nums = append([]int{baseShard}, nums...)
	}
	states := make([]*shardState, len(nums))
	for i, n := range nums {
		s := &shardState{n: n, pk: ShardPK(q.PK, n, q.Shards)}
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
				return page, fmt.Errorf("%w: cursor is for another partition", ErrInvalidCursor)
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
	keyAttrs := []string{t.schema.PK, t.schema.SK}
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
	page.Items = []Item{}
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
			need := (q.Limit - len(page.Items) + active - 1) / active
			sq.Limit = min(need+need/2+1, q.Limit-len(page.Items))
		}
		errs := make([]error, len(fetch))
		var wg sync.WaitGroup
		for i, s := range fetch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				qs := sq
				qs.PK = s.pk
				items, last, err := t.queryRaw(ctx, qs, entity, s.next)
				if err != nil {
					errs[i] = err
					return
				}
				s.buf, s.front, s.read = items, last, true
				s.next, s.done = last, len(last) == 0
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return Page[Item]{}, err
			}
		}
		// The cut-off: the first LastEvaluatedKey of an unfinished shard.
		var cut *shardState
		for _, s := range states {
			if !s.done && (cut == nil || before(sk(s.front), s.n, sk(cut.front), cut.n)) {
				cut = s
			}
		}
		for q.Limit == 0 || len(page.Items) < q.Limit {
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
			page.Items = append(page.Items, it)
		}
		if q.Limit == 0 || len(page.Items) >= q.Limit {
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
			return Page[Item]{}, err
		}
		b, _ := json.Marshal(m)
		out[name] = string(b)
	}
	if more {
		if page.Cursor, err = t.sealer().Seal(binding, out); err != nil {
			return Page[Item]{}, err
		}
	}
	return page, nil
}

// relayout returns the index partition-key attributes of raw stored under
// another shard count of the entity's sharded templates (with the shard
// segment of an older count, or none), which a write moves to derived's:
// the adoption job ([AdoptJob]) moves the items of a partition that a new
// release or profile shards, and any later write of an item does too.
func (e *Entity[T]) relayout(raw, derived Item) map[string]bool {
	if e.decl == nil {
		return nil
	}
	var out map[string]bool
	for ix, pair := range e.decl.indexes {
		n := pair[0].Shards()
		if n == 0 {
			continue
		}
		is, err := e.t.schema.GSI(ix)
		if err != nil {
			continue
		}
		want, _ := keytmpl.SegmentValue(derived[is.PK])
		had, stored := keytmpl.SegmentValue(raw[is.PK])
		if want == "" || !stored || had == want {
			continue
		}
		base := want
		if n > 1 {
			base = want[:strings.LastIndex(want, keys.Delimiter)]
		}
		rest, ok := strings.CutPrefix(had, base)
		if !ok {
			continue
		}
		if d, ok := strings.CutPrefix(rest, keys.Delimiter); rest == "" || (ok && d != "" && strings.Trim(d, "0123456789") == "") {
			if out == nil {
				out = map[string]bool{}
			}
			out[is.PK] = true
		}
	}
	return out
}

// MaxShards is the largest shard count a template or a query accepts.
const MaxShards = keytmpl.MaxShards

// Shard returns the shard of id among n (0 when n <= 1): the 32-bit
// FNV-1a hash of id's bytes, mod n. It is stable across processes,
// releases and languages, so every writer and reader of an ID agrees.
func Shard(id string, n int) int { return keytmpl.Shard(id, n) }
