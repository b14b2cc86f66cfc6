package table

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/expr"
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
// owner's plan: CounterSpec.State) travels with the shards: every shard
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

// CounterType is the entity-type attribute of counter shards and rollup
// items (library bookkeeping, which jobs do not visit).
const CounterType = "_counter"

// MaxCounterShards is the largest shard count of a counter set: the
// owner, its rollup item and the shards are read in one BatchGetItem (at
// most 100 keys).
const MaxCounterShards = MaxBatchGet - 2

const counterPrefix = "_CTR#"

// CounterSpec declares a set of sharded counters of one kind of owner.
type CounterSpec struct {
	// Name names the set in its shards' keys: a-z, 0-9, '-', '_'.
	Name string
	// Shards is N, 1..MaxCounterShards.
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
	t    *Table
	spec CounterSpec
}

// Counters returns the counter set spec on t, or a *ValidationError.
func (t *Table) Counters(spec CounterSpec) (*Counters, error) {
	bad := func(field, f string, args ...any) (*Counters, error) {
		return nil, &ValidationError{Field: "counters " + field, Reason: fmt.Sprintf(f, args...)}
	}
	if spec.Name == "" || strings.ContainsFunc(spec.Name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) {
		return bad("name", "%q: want a-z, 0-9, '-', '_'", spec.Name)
	}
	if spec.Shards < 1 || spec.Shards > MaxCounterShards {
		return bad("shards", "%d is outside 1..%d", spec.Shards, MaxCounterShards)
	}
	if len(spec.Sums)+len(spec.Latest) == 0 {
		return bad("sums", "no counter declared")
	}
	s := t.schema
	reserved := map[string]bool{s.PK: true, s.SK: true, s.TypeAttr: true, s.VersionAttr: true, s.TokenAttr: true, s.TTLAttr: true}
	seen := map[string]bool{}
	for _, a := range slices.Concat(spec.Sums, spec.Latest, spec.State) {
		if a == "" || reserved[a] || seen[a] {
			return bad("attribute", "%q is empty, a key or bookkeeping attribute, or declared twice", a)
		}
		seen[a] = true
	}
	return &Counters{t: t, spec: spec}, nil
}

// Spec returns the set's declaration.
func (c *Counters) Spec() CounterSpec { return c.spec }

// Pick returns the shard a write identified by id (an event ID) goes to:
// [Shard](id, N).
func (c *Counters) Pick(id string) int { return Shard(id, c.spec.Shards) }

func (c *Counters) base(owner string) string {
	return counterPrefix + c.spec.Name + keys.Delimiter + keys.Escape(owner)
}

// ShardKey returns the key of owner's shard i: PK
// _CTR#{name}#{owner}#{i}, SK SHARD (owner escaped like a key segment).
func (c *Counters) ShardKey(owner string, i int) Key {
	return Key{PK: c.base(owner) + keys.Delimiter + strconv.Itoa(i), SK: "SHARD"}
}

// RollupKey returns the key of owner's rollup item: PK _CTR#{name}#{owner},
// SK ROLLUP. It holds, per counter, the shards' sum at the last rollup.
func (c *Counters) RollupKey(owner string) Key {
	return Key{PK: c.base(owner), SK: "ROLLUP"}
}

// counterExprs builds an expression with the table's key and type
// attributes bound (#pk, #ty, :ty).
func (c *Counters) exprs() exprs {
	x := expr.New()
	x.Names["#pk"] = c.t.schema.PK
	if c.t.schema.TypeAttr != "" {
		x.Names["#ty"] = c.t.schema.TypeAttr
		x.Values[":ty"] = &types.AttributeValueMemberS{Value: CounterType}
	}
	return x
}

func (c *Counters) typeSet() []string {
	if c.t.schema.TypeAttr == "" {
		return nil
	}
	return []string{"#ty = :ty"}
}

func (c *Counters) declared(list []string, a, what string) error {
	if !slices.Contains(list, a) {
		return &ValidationError{Field: "counters " + c.spec.Name, Reason: fmt.Sprintf("%q is not a declared %s", a, what)}
	}
	return nil
}

// stateCond appends to cond the condition that each attribute of want
// holds its value ("" absent), binding placeholders with prefix p.
func (c *Counters) stateCond(x exprs, cond []string, want map[string]string, p string) ([]string, error) {
	for i, a := range sortedKeys(want) {
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

func (c *Counters) update(k Key, x exprs, set, add, remove, cond []string) TxOp {
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
		TableName:                 aws.String(c.t.schema.Name),
		Key:                       c.t.c.KeyItem(k),
		UpdateExpression:          aws.String(ex),
		ExpressionAttributeNames:  x.Names,
		ExpressionAttributeValues: x.Vals(),
	}
	if ce != "" {
		u.ConditionExpression = aws.String(ce)
	}
	return TxOp{op: ddb.Op{Update: u, Key: k, What: CounterType}}
}

// check returns a ConditionCheck of k on cond.
func (c *Counters) check(k Key, x exprs, cond []string) TxOp {
	ce := strings.Join(cond, " AND ")
	prune(x, ce)
	return TxOp{op: ddb.Op{Check: &types.ConditionCheck{
		TableName:                 aws.String(c.t.schema.Name),
		Key:                       c.t.c.KeyItem(k),
		ConditionExpression:       aws.String(ce),
		ExpressionAttributeNames:  x.Names,
		ExpressionAttributeValues: x.Vals(),
	}, Key: k, What: "check"}}
}

// prune drops the placeholders none of exprs uses (DynamoDB refuses
// unused ones).
func prune(x exprs, exprs ...string) {
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
// holds want (attributes of CounterSpec.State; "" absent). Put it in the
// transaction of the write it counts. When the condition fails, the
// cancellation reason's Item is the shard as stored (nil: the owner has no
// shards yet, see [Counters.InitOps]).
func (c *Counters) AddOp(owner, id string, add map[string]int64, latest, want map[string]string) TxOp {
	k := c.ShardKey(owner, c.Pick(id))
	x := c.exprs()
	set, adds := c.typeSet(), []string(nil)
	for i, a := range sortedKeys(add) {
		if err := c.declared(c.spec.Sums, a, "sum"); err != nil {
			return TxOp{op: ddb.Op{Key: k, What: CounterType, Err: err}}
		}
		n := strconv.Itoa(i)
		x.Names["#s"+n], x.Values[":s"+n] = a, codec.Num(add[a])
		adds = append(adds, "#s"+n+" :s"+n)
	}
	for i, a := range sortedKeys(latest) {
		if err := c.declared(c.spec.Latest, a, "latest attribute"); err != nil {
			return TxOp{op: ddb.Op{Key: k, What: CounterType, Err: err}}
		}
		n := strconv.Itoa(i)
		x.Names["#l"+n], x.Values[":l"+n] = a, &types.AttributeValueMemberS{Value: latest[a]}
		set = append(set, "#l"+n+" = :l"+n)
	}
	cond, err := c.stateCond(x, []string{"attribute_exists(#pk)"}, want, "c")
	if err != nil {
		return TxOp{op: ddb.Op{Key: k, What: CounterType, Err: err}}
	}
	if len(set)+len(adds) == 0 {
		return TxOp{op: ddb.Op{Key: k, What: CounterType, Err: &ValidationError{Field: "counters " + c.spec.Name, Reason: "nothing to add"}}}
	}
	return c.update(k, x, set, adds, nil, cond)
}

// stateSet returns the SET and REMOVE clauses writing state.
func (c *Counters) stateSet(x exprs, state map[string]string) (set, remove []string, err error) {
	for i, a := range sortedKeys(state) {
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
// CounterSpec.State; "" removes one) into every shard of owner, creating
// the shards that do not exist: put them in the transaction that changes
// the state on the owner.
func (c *Counters) StateOps(owner string, state map[string]string) []TxOp {
	ops := make([]TxOp, c.spec.Shards)
	for i := range ops {
		k := c.ShardKey(owner, i)
		x := c.exprs()
		set, remove, err := c.stateSet(x, state)
		if err != nil {
			ops[i] = TxOp{op: ddb.Op{Key: k, What: CounterType, Err: err}}
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
func (c *Counters) InitOps(owner string, ownerKey Key, state map[string]string) []TxOp {
	return append([]TxOp{c.CheckOp(ownerKey, state)}, c.NewShardOps(owner, state)...)
}

// NewShardOps returns the N puts that create owner's shards, each with
// the state copy and no counts, on condition that none exists: put them
// in the transaction that creates the owner (which [Counters.InitOps]
// cannot check, the owner being written in the same transaction), so its
// first counted write needs no shard creation.
func (c *Counters) NewShardOps(owner string, state map[string]string) []TxOp {
	var ops []TxOp
	for i := range c.spec.Shards {
		k := c.ShardKey(owner, i)
		item := c.t.c.KeyItem(k)
		if c.t.schema.TypeAttr != "" {
			item[c.t.schema.TypeAttr] = &types.AttributeValueMemberS{Value: CounterType}
		}
		for a, v := range state {
			if err := c.declared(c.spec.State, a, "state attribute"); err != nil {
				return []TxOp{{op: ddb.Op{Key: k, What: CounterType, Err: err}}}
			}
			if v != "" {
				item[a] = &types.AttributeValueMemberS{Value: v}
			}
		}
		ops = append(ops, TxOp{op: ddb.Op{Put: &types.Put{
			TableName:                aws.String(c.t.schema.Name),
			Item:                     item,
			ConditionExpression:      aws.String("attribute_not_exists(#pk)"),
			ExpressionAttributeNames: map[string]string{"#pk": c.t.schema.PK},
		}, Key: k, What: CounterType}})
	}
	return ops
}

// CheckOp returns a ConditionCheck that the owner (ownerKey) exists and
// holds state.
func (c *Counters) CheckOp(ownerKey Key, state map[string]string) TxOp {
	x := c.exprs()
	cond, err := c.stateCond(x, []string{"attribute_exists(#pk)"}, state, "o")
	if err != nil {
		return TxOp{op: ddb.Op{Key: ownerKey, What: "check", Err: err}}
	}
	return c.check(ownerKey, x, cond)
}

// ResetOps returns the N+1 actions that set sums (attributes of
// CounterSpec.Sums) to 0 in every shard of owner and in its rollup item,
// and write state into every shard (creating missing shards): put them in
// the transaction that sets the owner's sums to 0 (a new billing period).
func (c *Counters) ResetOps(owner string, sums []string, state map[string]string) []TxOp {
	ops := c.StateOps(owner, state)
	for i := range ops {
		if ops[i].op.Err != nil {
			return ops
		}
		u := ops[i].op.Update
		var zero []string
		for j, a := range sums {
			if err := c.declared(c.spec.Sums, a, "sum"); err != nil {
				ops[i].op.Err = err
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
