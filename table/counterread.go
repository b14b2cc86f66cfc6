package table

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
)

// CounterTotals is what a counter set holds for one owner.
type CounterTotals struct {
	// Values are the exact counts: the owner's attribute plus what the
	// shards gained since the last rollup.
	Values map[string]int64
	// Pending is what the shards gained since the last rollup (0 right
	// after one).
	Pending map[string]int64
	// Latest are the largest values of the owner's and the shards'.
	Latest map[string]string
	// State is the owner's state; Shards how many shard items exist.
	State  map[string]string
	Shards int
}

// counterRead is one read of an owner's counters.
type counterRead struct {
	owner, rollup Item
	shards        []Item
}

// read fetches the owner, the rollup item and the shards in one strongly
// consistent BatchGetItem (unprocessed keys retried).
func (c *Counters) read(ctx context.Context, owner string, ownerKey Key) (counterRead, error) {
	var r counterRead
	if err := keytmpl.CheckKey(ownerKey); err != nil {
		return r, err
	}
	ks := []Key{ownerKey, c.RollupKey(owner)}
	for i := range c.spec.Shards {
		ks = append(ks, c.ShardKey(owner, i))
	}
	raws, err := c.t.batchGet(ctx, CounterType, ks, true)
	if err != nil {
		return r, err
	}
	found := make(map[Key]Item, len(raws))
	for _, it := range raws {
		found[c.t.c.KeyOf(it)] = it
	}
	if it, ok := found[ownerKey]; ok && !c.t.c.Expired(it) {
		r.owner = it
	}
	r.rollup = found[ks[1]]
	for _, k := range ks[2:] {
		if it, ok := found[k]; ok {
			r.shards = append(r.shards, it)
		}
	}
	return r, nil
}

func numOf(v types.AttributeValue) (int64, bool) {
	n, ok := v.(*types.AttributeValueMemberN)
	if !ok {
		return 0, false
	}
	i, err := strconv.ParseInt(n.Value, 10, 64)
	return i, err == nil
}

func strOf(v types.AttributeValue) string {
	s, _ := v.(*types.AttributeValueMemberS)
	if s == nil {
		return ""
	}
	return s.Value
}

// totals computes the figures of r.
func (c *Counters) totals(r counterRead) CounterTotals {
	t := CounterTotals{Values: map[string]int64{}, Pending: map[string]int64{}, Latest: map[string]string{}, State: map[string]string{}, Shards: len(r.shards)}
	for _, a := range c.spec.Sums {
		var sum int64
		for _, s := range r.shards {
			n, _ := numOf(s[a])
			sum += n
		}
		rolled, _ := numOf(r.rollup[a])
		base, _ := numOf(r.owner[a])
		t.Pending[a] = sum - rolled
		t.Values[a] = base + sum - rolled
	}
	for _, a := range c.spec.Latest {
		l := strOf(r.owner[a])
		for _, s := range r.shards {
			l = max(l, strOf(s[a]))
		}
		if l != "" {
			t.Latest[a] = l
		}
	}
	for _, a := range c.spec.State {
		t.State[a] = strOf(r.owner[a])
	}
	return t
}

// Read returns owner's exact counts (ownerKey: the owning item), in one
// strongly consistent BatchGetItem of the owner, its rollup item and its N
// shards. A missing owner gives [ErrNotFound].
func (c *Counters) Read(ctx context.Context, owner string, ownerKey Key) (CounterTotals, error) {
	r, err := c.read(ctx, owner, ownerKey)
	if err != nil {
		return CounterTotals{}, opErr("read counters", CounterType, ownerKey, err)
	}
	if r.owner == nil {
		return CounterTotals{}, opErr("read counters", CounterType, ownerKey, ErrNotFound)
	}
	return c.totals(r), nil
}

// expectAttr appends the condition that attribute n (bound to a) of item
// still holds its value in raw.
func expectAttr(x exprs, cond []string, n, p string, raw Item, a string) []string {
	x.Names[n] = a
	switch v := raw[a].(type) {
	case nil:
		return append(cond, "attribute_not_exists("+n+")")
	case *types.AttributeValueMemberNULL:
		x.Values[p+"t"] = &types.AttributeValueMemberS{Value: "NULL"}
		return append(cond, "attribute_type("+n+", "+p+"t)")
	default:
		x.Values[p] = v
		return append(cond, n+" = "+p)
	}
}

// rollupOps returns the rollup transaction of r, or nil when the owner is
// current.
func (c *Counters) rollupOps(owner string, ownerKey Key, r counterRead, tot CounterTotals) []TxOp {
	ox := c.exprs()
	ocond := []string{"attribute_exists(#pk)"}
	var oset, oadd []string
	rx := c.exprs()
	rset := c.typeSet()
	var rcond []string
	if r.rollup == nil {
		rcond = append(rcond, "attribute_not_exists(#pk)")
	}
	for i, a := range c.spec.Sums {
		n := strconv.Itoa(i)
		if tot.Pending[a] == 0 {
			continue
		}
		sum := tot.Pending[a]
		if rolled, ok := numOf(r.rollup[a]); ok {
			sum += rolled
		}
		rx.Names["#s"+n], rx.Values[":s"+n] = a, codec.Num(sum)
		rset = append(rset, "#s"+n+" = :s"+n)
		if r.rollup != nil {
			rcond = expectAttr(rx, rcond, "#s"+n, ":r"+n, r.rollup, a)
		}
		ox.Names["#s"+n] = a
		if _, isNum := numOf(r.owner[a]); isNum || r.owner[a] == nil {
			ox.Values[":s"+n] = codec.Num(tot.Pending[a])
			oadd = append(oadd, "#s"+n+" :s"+n)
		} else { // NULL or another type: the exact figure over it
			ocond = expectAttr(ox, ocond, "#s"+n, ":o"+n, r.owner, a)
			ox.Values[":s"+n] = codec.Num(tot.Values[a])
			oset = append(oset, "#s"+n+" = :s"+n)
		}
	}
	for i, a := range c.spec.Latest {
		l := tot.Latest[a]
		if l == "" || l == strOf(r.owner[a]) {
			continue
		}
		n := strconv.Itoa(i)
		ocond = expectAttr(ox, ocond, "#l"+n, ":p"+n, r.owner, a)
		ox.Values[":l"+n] = &types.AttributeValueMemberS{Value: l}
		oset = append(oset, "#l"+n+" = :l"+n)
	}
	// The state copies: rewritten when a shard's differs from the owner's.
	var sync []TxOp
	if len(r.shards) > 0 && len(c.spec.State) > 0 {
		stale := len(r.shards) < c.spec.Shards
		for _, s := range r.shards {
			for _, a := range c.spec.State {
				stale = stale || strOf(s[a]) != tot.State[a]
			}
		}
		if stale {
			sync = c.StateOps(owner, tot.State)
		}
	}
	if len(oset)+len(oadd) == 0 && len(sync) == 0 && len(rset) == len(c.typeSet()) {
		return nil
	}
	for i, a := range c.spec.State {
		ocond = expectAttr(ox, ocond, "#c"+strconv.Itoa(i), ":c"+strconv.Itoa(i), r.owner, a)
	}
	var ops []TxOp
	if len(oset)+len(oadd) > 0 {
		ops = append(ops, c.update(ownerKey, ox, oset, oadd, nil, ocond))
		ops[0].op.What = "owner"
	} else {
		ops = append(ops, c.check(ownerKey, ox, ocond))
	}
	if len(rset) > len(c.typeSet()) {
		ops = append(ops, c.update(c.RollupKey(owner), rx, rset, nil, nil, rcond))
	}
	return append(ops, sync...)
}

// Rollup brings owner's documented attributes up to date (ownerKey: the
// owning item): one consistent BatchGetItem, then, unless the owner is
// current, one transaction that adds to each of the owner's sums what the
// shards gained since the last rollup, sets each Latest attribute to the
// largest value, records the shards' sums in the rollup item, and copies
// the owner's state into shards whose copy differs; it is conditioned on
// the rollup item and the owner's state as read, and read again and
// retried when another rollup, a reset or a state change came first.
// changed reports whether it wrote. A missing owner gives [ErrNotFound].
func (c *Counters) Rollup(ctx context.Context, owner string, ownerKey Key) (tot CounterTotals, changed bool, err error) {
	for attempt := 0; ; attempt++ {
		r, err := c.read(ctx, owner, ownerKey)
		if err != nil {
			return CounterTotals{}, false, opErr("rollup", CounterType, ownerKey, err)
		}
		if r.owner == nil {
			return CounterTotals{}, false, opErr("rollup", CounterType, ownerKey, ErrNotFound)
		}
		tot = c.totals(r)
		ops := c.rollupOps(owner, ownerKey, r, tot)
		if ops == nil {
			return tot, false, nil
		}
		err = c.t.Transact(ctx, ops...)
		if err == nil {
			for a, p := range tot.Pending {
				if p != 0 {
					tot.Pending[a] = 0
				}
			}
			return tot, true, nil
		}
		var te *TxError
		if !errors.As(err, &te) || attempt >= c.t.opts.ConflictRetries {
			return CounterTotals{}, false, opErr("rollup", CounterType, ownerKey, err)
		}
		if serr := ddb.Sleep(ctx, ddb.Backoff(attempt, 5*time.Millisecond, 200*time.Millisecond)); serr != nil {
			return CounterTotals{}, false, opErr("rollup", CounterType, ownerKey, serr)
		}
	}
}

// Visit is a [Job] visit that rolls up the owner raw when owner names it
// (its ID, ok), and skips every other item: a rollup job is
// Job{Name: ..., Visit: func(ctx, raw, dry) { return c.Visit(ctx, raw, dry, owner) }},
// run with [Table.RunJob]. A dry run reads and reports without writing.
func (c *Counters) Visit(ctx context.Context, raw Item, dryRun bool, owner func(raw Item) (string, bool)) (JobOutcome, error) {
	id, ok := owner(raw)
	if !ok {
		return Skipped, nil
	}
	k := c.t.c.KeyOf(raw)
	if dryRun {
		r, err := c.read(ctx, id, k)
		if err != nil || r.owner == nil {
			return Skipped, err
		}
		if c.rollupOps(id, k, r, c.totals(r)) == nil {
			return Unchanged, nil
		}
		return Changed, nil
	}
	_, changed, err := c.Rollup(ctx, id, k)
	switch {
	case errors.Is(err, ErrNotFound):
		return Skipped, nil
	case err != nil:
		return Unchanged, err
	case changed:
		return Changed, nil
	}
	return Unchanged, nil
}
