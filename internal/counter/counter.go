package counter

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/expr"
	"github.com/singletable/singletable/internal/keytmpl"
	"github.com/singletable/singletable/keys"
)

// Sharded counters. One item takes at most 1,000 write units per second
// (docs/performance.md, "Scale"), so a counter every event adds to (a
// source's eventCount, an owner's usage) caps the whole event rate. A
// [Counters] set moves such counters off their owning item into N shard
// items, one picked per event by [Shard] of the event's ID, each under its
// own partition key (_CTR#{name}#{owner}#{i}, SK SHARD) and in no GSI, so
// each takes 1/N of the writes and no projected entry is rewritten.
//
// The state a counted write is conditioned on (a source's status, an
// owner's plan: Spec.State) travels with the shards: every shard
// holds a copy, [Counters.AddOp] conditions on the copy in the shard it
// adds to, and whoever changes the state on the owner writes every shard
// in the same transaction ([Counters.StateOps], or [Entity.UpdateAlso]).
// So a changed state refuses the very next write, in the transaction,
// never through a cache.
//
// The owner keeps its documented attributes, kept current by a rollup
// ([Counters.Rollup], [Counters.Visit] in a [Job]): it adds to each of the
// owner's counters what the shards gained since the last rollup (recorded
// in a rollup item, _CTR#{name}#{owner}/ROLLUP), so increments written to
// the owner directly by another writer are kept. The exact figure, the
// owner's value plus what the shards hold beyond the rollup, is one
// strongly consistent BatchGetItem of the owner, the rollup item and the N
// shards ([Counters.Read]).
//
// What holds under faults:
//   - AddOp, StateOps, InitOps and ResetOps are actions of the caller's
//     transaction: all or nothing with the rest of it; a lost response is
//     resent with the transaction's idempotency token and counted once
//     ([Table.Transact]).
//   - A rollup is one transaction (owner, rollup item, and the state copies
//     when a shard's copy differs from the owner's) conditioned on the
//     rollup item and the owner's state as read: two rollups, or a rollup
//     and a reset, never both apply; the loser reads again. A rollup lost
//     in flight changes nothing (the next one adds what it would have).
//   - A state changed on the owner by a writer that does not know the
//     shards (another service) is not seen by AddOp until the next rollup
//     copies it to the shards.

// Outcome is what a visit did with one item: the values of
// table.JobOutcome in the same order.
type Outcome int

// The outcomes of [Counters.Visit].
const (
	Unchanged Outcome = iota
	Changed
	Skipped
)

// Type is the entity-type attribute of counter shards and rollup
// items (library bookkeeping, which jobs do not visit).
const Type = "_counter"

// MaxShards is the largest shard count of a counter set: the
// owner, its rollup item and the shards are read in one BatchGetItem (at
// most 100 keys).
const MaxShards = ddb.MaxBatchGet - 2

// Prefix starts the partition keys of counter shards and rollup items.
const Prefix = "_CTR#"

// Spec declares a set of sharded counters of one kind of owner.
type Spec struct {
	// Name names the set in its shards' keys: a-z, 0-9, '-', '_'.
	Name string
	// Shards is N, 1..MaxShards.
	Shards int
	// Sums are the counters the shards add to and the rollup sums (the
	// owner's eventCount).
	Sums []string
	// Latest are attributes set on the shard by each write, whose largest
	// value (compared as strings: ISO times) the rollup sets on the owner
	// when it is later than the owner's (lastEventAt).
	Latest []string
	// State are the owner's attributes copied into every shard, which
	// AddOp conditions on (a status, a plan). String values; "" is absent.
	State []string
}

// Counters is a set of sharded counters on a table (see the section
// above). Build it with [Table.Counters].
type Counters struct {
	c    *ddb.Conn
	spec Spec
}

// New returns the counter set spec on c's table, or a *codec.ValidationError.
func New(c *ddb.Conn, spec Spec) (*Counters, error) {
	bad := func(field, f string, args ...any) (*Counters, error) {
		return nil, &codec.ValidationError{Field: "counters " + field, Reason: fmt.Sprintf(f, args...)}
	}
	if spec.Name == "" || strings.ContainsFunc(spec.Name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) {
		return bad("name", "%q: want a-z, 0-9, '-', '_'", spec.Name)
	}
	if spec.Shards < 1 || spec.Shards > MaxShards {
		return bad("shards", "%d is outside 1..%d", spec.Shards, MaxShards)
	}
	if len(spec.Sums)+len(spec.Latest) == 0 {
		return bad("sums", "no counter declared")
	}
	s := c.Schema
	reserved := map[string]bool{s.PK: true, s.SK: true, s.TypeAttr: true, s.VersionAttr: true, s.TokenAttr: true, s.TTLAttr: true}
	seen := map[string]bool{}
	for _, a := range slices.Concat(spec.Sums, spec.Latest, spec.State) {
		if a == "" || reserved[a] || seen[a] {
			return bad("attribute", "%q is empty, a key or bookkeeping attribute, or declared twice", a)
		}
		seen[a] = true
	}
	return &Counters{c: c, spec: spec}, nil
}

// Spec returns the set's declaration.
func (c *Counters) Spec() Spec { return c.spec }

// Pick returns the shard a write identified by id (an event ID) goes to:
// [Shard](id, N).
func (c *Counters) Pick(id string) int { return keytmpl.Shard(id, c.spec.Shards) }

func (c *Counters) base(owner string) string {
	return Prefix + c.spec.Name + keys.Delimiter + keys.Escape(owner)
}

// ShardKey returns the key of owner's shard i: PK
// _CTR#{name}#{owner}#{i}, SK SHARD (owner escaped like a key segment).
func (c *Counters) ShardKey(owner string, i int) ddb.Key {
	return ddb.Key{PK: c.base(owner) + keys.Delimiter + strconv.Itoa(i), SK: "SHARD"}
}

// RollupKey returns the key of owner's rollup item: PK _CTR#{name}#{owner},
// SK ROLLUP. It holds, per counter, the shards' sum at the last rollup.
func (c *Counters) RollupKey(owner string) ddb.Key {
	return ddb.Key{PK: c.base(owner), SK: "ROLLUP"}
}

// counterExprs builds an expression with the table's key and type
// attributes bound (#pk, #ty, :ty).
func (c *Counters) exprs() expr.Exprs {
	x := expr.New()
	x.Names["#pk"] = c.c.Schema.PK
	if c.c.Schema.TypeAttr != "" {
		x.Names["#ty"] = c.c.Schema.TypeAttr
		x.Values[":ty"] = &types.AttributeValueMemberS{Value: Type}
	}
	return x
}

func (c *Counters) typeSet() []string {
	if c.c.Schema.TypeAttr == "" {
		return nil
	}
	return []string{"#ty = :ty"}
}

func (c *Counters) declared(list []string, a, what string) error {
	if !slices.Contains(list, a) {
		return &codec.ValidationError{Field: "counters " + c.spec.Name, Reason: fmt.Sprintf("%q is not a declared %s", a, what)}
	}
	return nil
}

// stateCond appends to cond the condition that each attribute of want
// holds its value ("" absent), binding placeholders with prefix p.
func (c *Counters) stateCond(x expr.Exprs, cond []string, want map[string]string, p string) ([]string, error) {
	for i, a := range slices.Sorted(maps.Keys(want)) {
		if err := c.declared(c.spec.State, a, "state attribute"); err != nil {
			return nil, err
		}
		n := "#" + p + strconv.Itoa(i)
		x.Names[n] = a
		if want[a] == "" {
			cond = append(cond, "attribute_not_exists("+n+")")
			continue
		}
		x.Values[":"+p+strconv.Itoa(i)] = &types.AttributeValueMemberS{Value: want[a]}
		cond = append(cond, n+" = :"+p+strconv.Itoa(i))
	}
	return cond, nil
}

func (c *Counters) update(k ddb.Key, x expr.Exprs, set, add, remove, cond []string) ddb.Op {
	var parts []string
	if len(set) > 0 {
		parts = append(parts, "SET "+strings.Join(set, ", "))
	}
	if len(add) > 0 {
		parts = append(parts, "ADD "+strings.Join(add, ", "))
	}
	if len(remove) > 0 {
		parts = append(parts, "REMOVE "+strings.Join(remove, ", "))
	}
	ex, ce := strings.Join(parts, " "), strings.Join(cond, " AND ")
	prune(x, ex, ce)
	u := &types.Update{
		TableName:                 aws.String(c.c.Schema.Name),
		Key:                       c.c.KeyItem(k),
		UpdateExpression:          aws.String(ex),
		ExpressionAttributeNames:  x.Names,
		ExpressionAttributeValues: x.Vals(),
	}
	if ce != "" {
		u.ConditionExpression = aws.String(ce)
	}
	return ddb.Op{Update: u, Key: k, What: Type}
}

// check returns a ConditionCheck of k on cond.
func (c *Counters) check(k ddb.Key, x expr.Exprs, cond []string) ddb.Op {
	ce := strings.Join(cond, " AND ")
	prune(x, ce)
	return ddb.Op{Check: &types.ConditionCheck{
		TableName:                 aws.String(c.c.Schema.Name),
		Key:                       c.c.KeyItem(k),
		ConditionExpression:       aws.String(ce),
		ExpressionAttributeNames:  x.Names,
		ExpressionAttributeValues: x.Vals(),
	}, Key: k, What: "check"}
}

// prune drops the placeholders none of exprs uses (DynamoDB refuses
// unused ones).
func prune(x expr.Exprs, exprs ...string) {
	used := map[string]bool{}
	for _, e := range exprs {
		for i := 0; i < len(e); i++ {
			if e[i] != '#' && e[i] != ':' {
				continue
			}
			j := i + 1
			for j < len(e) && (e[j] == '_' || e[j] >= 'a' && e[j] <= 'z' || e[j] >= 'A' && e[j] <= 'Z' || e[j] >= '0' && e[j] <= '9') {
				j++
			}
			used[e[i:j]] = true
			i = j - 1
		}
	}
	for n := range x.Names {
		if !used[n] {
			delete(x.Names, n)
		}
	}
	for v := range x.Values {
		if !used[v] {
			delete(x.Values, v)
		}
	}
}

// AddOp returns the action that counts one write identified by id (an
// event ID) for owner: on shard [Counters.Pick](id), ADD each of add, SET
// each of latest, on condition that the shard exists and its state copy
// holds want (attributes of Spec.State; "" absent). Put it in the
// transaction of the write it counts. When the condition fails, the
// cancellation reason's ddb.Item is the shard as stored (nil: the owner has no
// shards yet, see [Counters.InitOps]).
func (c *Counters) AddOp(owner, id string, add map[string]int64, latest, want map[string]string) ddb.Op {
	k := c.ShardKey(owner, c.Pick(id))
	x := c.exprs()
	set, adds := c.typeSet(), []string(nil)
	for i, a := range slices.Sorted(maps.Keys(add)) {
		if err := c.declared(c.spec.Sums, a, "sum"); err != nil {
			return ddb.Op{Key: k, What: Type, Err: err}
		}
		n := strconv.Itoa(i)
		x.Names["#s"+n], x.Values[":s"+n] = a, codec.Num(add[a])
		adds = append(adds, "#s"+n+" :s"+n)
	}
	for i, a := range slices.Sorted(maps.Keys(latest)) {
		if err := c.declared(c.spec.Latest, a, "latest attribute"); err != nil {
			return ddb.Op{Key: k, What: Type, Err: err}
		}
		n := strconv.Itoa(i)
		x.Names["#l"+n], x.Values[":l"+n] = a, &types.AttributeValueMemberS{Value: latest[a]}
		set = append(set, "#l"+n+" = :l"+n)
	}
	cond, err := c.stateCond(x, []string{"attribute_exists(#pk)"}, want, "c")
	if err != nil {
		return ddb.Op{Key: k, What: Type, Err: err}
	}
	if len(set)+len(adds) == 0 {
		return ddb.Op{Key: k, What: Type, Err: &codec.ValidationError{Field: "counters " + c.spec.Name, Reason: "nothing to add"}}
	}
	return c.update(k, x, set, adds, nil, cond)
}

// stateSet returns the SET and REMOVE clauses writing state.
func (c *Counters) stateSet(x expr.Exprs, state map[string]string) (set, remove []string, err error) {
	for i, a := range slices.Sorted(maps.Keys(state)) {
		if err := c.declared(c.spec.State, a, "state attribute"); err != nil {
			return nil, nil, err
		}
		n := strconv.Itoa(i)
		x.Names["#c"+n] = a
		if state[a] == "" {
			remove = append(remove, "#c"+n)
			continue
		}
		x.Values[":c"+n] = &types.AttributeValueMemberS{Value: state[a]}
		set = append(set, "#c"+n+" = :c"+n)
	}
	return set, remove, nil
}

// StateOps returns the N actions that copy state (attributes of
// Spec.State; "" removes one) into every shard of owner, creating
// the shards that do not exist: put them in the transaction that changes
// the state on the owner.
func (c *Counters) StateOps(owner string, state map[string]string) []ddb.Op {
	ops := make([]ddb.Op, c.spec.Shards)
	for i := range ops {
		k := c.ShardKey(owner, i)
		x := c.exprs()
		set, remove, err := c.stateSet(x, state)
		if err != nil {
			ops[i] = ddb.Op{Key: k, What: Type, Err: err}
			continue
		}
		ops[i] = c.update(k, x, append(c.typeSet(), set...), nil, remove, nil)
	}
	return ops
}

// InitOps returns the actions that create owner's N shards, each with the
// state copy and no counts, on condition that none exists yet, and check
// that the owner (ownerKey) exists and holds state: one transaction gives
// an owner written before its counters were sharded its shards.
func (c *Counters) InitOps(owner string, ownerKey ddb.Key, state map[string]string) []ddb.Op {
	return append([]ddb.Op{c.CheckOp(ownerKey, state)}, c.NewShardOps(owner, state)...)
}

// NewShardOps returns the N puts that create owner's shards, each with
// the state copy and no counts, on condition that none exists: put them
// in the transaction that creates the owner (which [Counters.InitOps]
// cannot check, the owner being written in the same transaction), so its
// first counted write needs no shard creation.
func (c *Counters) NewShardOps(owner string, state map[string]string) []ddb.Op {
	var ops []ddb.Op
	for i := range c.spec.Shards {
		k := c.ShardKey(owner, i)
		item := c.c.KeyItem(k)
		if c.c.Schema.TypeAttr != "" {
			item[c.c.Schema.TypeAttr] = &types.AttributeValueMemberS{Value: Type}
		}
		for a, v := range state {
			if err := c.declared(c.spec.State, a, "state attribute"); err != nil {
				return []ddb.Op{{Key: k, What: Type, Err: err}}
			}
			if v != "" {
				item[a] = &types.AttributeValueMemberS{Value: v}
			}
		}
		ops = append(ops, ddb.Op{Put: &types.Put{
			TableName:                aws.String(c.c.Schema.Name),
			Item:                     item,
			ConditionExpression:      aws.String("attribute_not_exists(#pk)"),
			ExpressionAttributeNames: map[string]string{"#pk": c.c.Schema.PK},
		}, Key: k, What: Type})
	}
	return ops
}

// CheckOp returns a ConditionCheck that the owner (ownerKey) exists and
// holds state.
func (c *Counters) CheckOp(ownerKey ddb.Key, state map[string]string) ddb.Op {
	x := c.exprs()
	cond, err := c.stateCond(x, []string{"attribute_exists(#pk)"}, state, "o")
	if err != nil {
		return ddb.Op{Key: ownerKey, What: "check", Err: err}
	}
	return c.check(ownerKey, x, cond)
}

// ResetOps returns the N+1 actions that set sums (attributes of
// Spec.Sums) to 0 in every shard of owner and in its rollup item,
// and write state into every shard (creating missing shards): put them in
// the transaction that sets the owner's sums to 0 (a new billing period).
func (c *Counters) ResetOps(owner string, sums []string, state map[string]string) []ddb.Op {
	ops := c.StateOps(owner, state)
	for i := range ops {
		if ops[i].Err != nil {
			return ops
		}
		u := ops[i].Update
		var zero []string
		for j, a := range sums {
			if err := c.declared(c.spec.Sums, a, "sum"); err != nil {
				ops[i].Err = err
				return ops
			}
			n := strconv.Itoa(j)
			u.ExpressionAttributeNames["#z"+n] = a
			zero = append(zero, "#z"+n+" = :zero")
		}
		if u.ExpressionAttributeValues == nil {
			u.ExpressionAttributeValues = map[string]types.AttributeValue{}
		}
		u.ExpressionAttributeValues[":zero"] = codec.Num(0)
		ex := aws.ToString(u.UpdateExpression)
		if rest, ok := strings.CutPrefix(ex, "SET "); ok {
			ex = "SET " + strings.Join(zero, ", ") + ", " + rest
		} else {
			ex = "SET " + strings.Join(zero, ", ") + " " + ex
		}
		u.UpdateExpression = aws.String(ex)
	}
	k := c.RollupKey(owner)
	x := c.exprs()
	set := c.typeSet()
	for j, a := range sums {
		n := strconv.Itoa(j)
		x.Names["#z"+n] = a
		set = append(set, "#z"+n+" = :zero")
	}
	x.Values[":zero"] = codec.Num(0)
	return append(ops, c.update(k, x, set, nil, nil, nil))
}

// Totals is what a counter set holds for one owner.
type Totals struct {
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
	owner, rollup ddb.Item
	shards        []ddb.Item
}

// read fetches the owner, the rollup item and the shards in one strongly
// consistent BatchGetItem (unprocessed keys retried).
func (c *Counters) read(ctx context.Context, owner string, ownerKey ddb.Key) (counterRead, error) {
	var r counterRead
	if err := keytmpl.CheckKey(ownerKey); err != nil {
		return r, err
	}
	ks := []ddb.Key{ownerKey, c.RollupKey(owner)}
	for i := range c.spec.Shards {
		ks = append(ks, c.ShardKey(owner, i))
	}
	raws, err := c.c.BatchGet(ctx, Type, ks, true, nil, nil)
	if err != nil {
		return r, err
	}
	found := make(map[ddb.Key]ddb.Item, len(raws))
	for _, it := range raws {
		found[c.c.KeyOf(it)] = it
	}
	if it, ok := found[ownerKey]; ok && !c.c.Expired(it) {
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
func (c *Counters) totals(r counterRead) Totals {
	t := Totals{Values: map[string]int64{}, Pending: map[string]int64{}, Latest: map[string]string{}, State: map[string]string{}, Shards: len(r.shards)}
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
// shards. A missing owner gives [ddb.ErrNotFound].
func (c *Counters) Read(ctx context.Context, owner string, ownerKey ddb.Key) (Totals, error) {
	r, err := c.read(ctx, owner, ownerKey)
	if err != nil {
		return Totals{}, ddb.OpErr("read counters", Type, ownerKey, err)
	}
	if r.owner == nil {
		return Totals{}, ddb.OpErr("read counters", Type, ownerKey, ddb.ErrNotFound)
	}
	return c.totals(r), nil
}

// expectAttr appends the condition that attribute n (bound to a) of item
// still holds its value in raw.
func expectAttr(x expr.Exprs, cond []string, n, p string, raw ddb.Item, a string) []string {
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
func (c *Counters) rollupOps(owner string, ownerKey ddb.Key, r counterRead, tot Totals) []ddb.Op {
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
	var sync []ddb.Op
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
	var ops []ddb.Op
	if len(oset)+len(oadd) > 0 {
		ops = append(ops, c.update(ownerKey, ox, oset, oadd, nil, ocond))
		ops[0].What = "owner"
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
// changed reports whether it wrote. A missing owner gives [ddb.ErrNotFound].
func (c *Counters) Rollup(ctx context.Context, owner string, ownerKey ddb.Key) (tot Totals, changed bool, err error) {
	for attempt := 0; ; attempt++ {
		r, err := c.read(ctx, owner, ownerKey)
		if err != nil {
			return Totals{}, false, ddb.OpErr("rollup", Type, ownerKey, err)
		}
		if r.owner == nil {
			return Totals{}, false, ddb.OpErr("rollup", Type, ownerKey, ddb.ErrNotFound)
		}
		tot = c.totals(r)
		ops := c.rollupOps(owner, ownerKey, r, tot)
		if ops == nil {
			return tot, false, nil
		}
		err = c.c.Transact(ctx, "", ops)
		if err == nil {
			for a, p := range tot.Pending {
				if p != 0 {
					tot.Pending[a] = 0
				}
			}
			return tot, true, nil
		}
		var te *ddb.TxError
		if !errors.As(err, &te) || attempt >= c.c.ConflictRetries {
			return Totals{}, false, ddb.OpErr("rollup", Type, ownerKey, err)
		}
		if serr := ddb.Sleep(ctx, ddb.Backoff(attempt, 5*time.Millisecond, 200*time.Millisecond)); serr != nil {
			return Totals{}, false, ddb.OpErr("rollup", Type, ownerKey, serr)
		}
	}
}

// Visit is a [Job] visit that rolls up the owner raw when owner names it
// (its ID, ok), and skips every other item: a rollup job is
// Job{Name: ..., Visit: func(ctx, raw, dry) { return c.Visit(ctx, raw, dry, owner) }},
// run with [Table.RunJob]. A dry run reads and reports without writing.
func (c *Counters) Visit(ctx context.Context, raw ddb.Item, dryRun bool, owner func(raw ddb.Item) (string, bool)) (Outcome, error) {
	id, ok := owner(raw)
	if !ok {
		return Skipped, nil
	}
	k := c.c.KeyOf(raw)
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
	case errors.Is(err, ddb.ErrNotFound):
		return Skipped, nil
	case err != nil:
		return Unchanged, err
	case changed:
		return Changed, nil
	}
	return Unchanged, nil
}
