package table_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
)

// The sharded counters of a member: logins summed over 8 shards, the
// member's status copied into each (issue 22; docs/performance.md, "Scale profiles").
func memberCounters(t *testing.T, tb *table.Table) *table.Counters {
	t.Helper()
	c, err := tb.Counters(table.CounterSpec{Name: "logins", Shards: 8, Sums: []string{"logins"}, Latest: []string{"note"}, State: []string{"status"}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// foreignStatus is another writer's `SET status = :s` on the item k,
// which the counters' state copies do not see.
func foreignStatus(t *testing.T, tb *table.Table, k table.Key, status string) {
	t.Helper()
	if _, err := tb.Client().UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: aws.String(tb.Name()),
		Key:                       map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}},
		UpdateExpression:          aws.String("SET #s = :s"),
		ExpressionAttributeNames:  map[string]string{"#s": "status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":s": &types.AttributeValueMemberS{Value: status}}}); err != nil {
		t.Fatal(err)
	}
}

// countedMember creates member id with status on and its counter shards
// (state on), and returns its key.
func countedMember(t *testing.T, f fixture, c *table.Counters, id string) table.Key {
	t.Helper()
	k := f.create(t, member{ID: id, Email: id + "@x.io", Status: "on"})
	if err := f.t.Transact(ctx(t), c.InitOps(id, k, map[string]string{"status": "on"})...); err != nil {
		t.Fatal(err)
	}
	return k
}

// Counted writes go to N shards under their own partition keys, refused in
// the transaction when the shard's state copy is not the one wanted; a
// state change written with StateOps reaches every shard at once; Read is
// exact in one BatchGetItem; Rollup adds the shards' gain to the owner,
// keeping increments written to the owner directly, and a second rollup
// changes nothing; ResetOps starts from 0.
func TestCountersShardStateAndRollup(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := memberCounters(t, f.t)
	k := f.create(t, member{ID: "ann", Email: "ann@x.io", Status: "on", Logins: 10})
	if err := f.t.Transact(ctx(t), c.InitOps("ann", k, map[string]string{"status": "on"})...); err != nil {
		t.Fatal(err)
	}
	if err := f.t.Transact(ctx(t), c.InitOps("ann", k, map[string]string{"status": "on"})...); !errors.Is(err, table.ErrTransactionCanceled) {
		t.Fatalf("second InitOps: %v, want a canceled transaction (the shards exist)", err)
	}
	add := func(i int, want string) error {
		return f.t.Transact(ctx(t), c.AddOp("ann", fmt.Sprintf("evt-%d", i), map[string]int64{"logins": 1},
			map[string]string{"note": fmt.Sprintf("2026-11-25T10:00:%02d.000Z", i)}, map[string]string{"status": want}))
	}
	for i := range 20 {
		if err := add(i, "on"); err != nil {
			t.Fatal(err)
		}
	}
	var te *table.TxError
	if err := add(99, "off"); !errors.As(err, &te) || te.Failed()[0].Item == nil {
		t.Fatalf("add wanting another state: %v, want a canceled transaction returning the shard", err)
	}
	// 20 writes over 8 shards, all under their own partition keys.
	pks := map[string]bool{}
	for i := range 20 {
		pks[c.ShardKey("ann", c.Pick(fmt.Sprintf("evt-%d", i))).PK] = true
	}
	if len(pks) < 2 || c.ShardKey("ann", 3).PK != "_CTR#logins#ann#3" || c.RollupKey("ann").PK != "_CTR#logins#ann" {
		t.Fatalf("shard keys %v, %s", pks, c.ShardKey("ann", 3))
	}
	tot, err := c.Read(ctx(t), "ann", k)
	if err != nil {
		t.Fatal(err)
	}
	if tot.Values["logins"] != 30 || tot.Pending["logins"] != 20 || tot.Latest["note"] != "2026-11-25T10:00:19.000Z" || tot.Shards != 8 {
		t.Fatalf("Read = %+v, want 30 logins (10 on the item, 20 in shards), latest :19, 8 shards", tot)
	}
	// Another writer adds to the item directly; the rollup keeps it.
	if _, err := f.members.Add(ctx(t), k, "logins", 5); err != nil {
		t.Fatal(err)
	}
	if _, changed, err := c.Rollup(ctx(t), "ann", k); err != nil || !changed {
		t.Fatalf("Rollup: changed %v, %v", changed, err)
	}
	got, _ := f.members.Get(ctx(t), k)
	if got.Logins != 35 || got.Note != "2026-11-25T10:00:19.000Z" {
		t.Fatalf("after the rollup: logins %d note %q, want 35 and the latest", got.Logins, got.Note)
	}
	if _, changed, err := c.Rollup(ctx(t), "ann", k); err != nil || changed {
		t.Fatalf("second Rollup: changed %v, %v, want no change", changed, err)
	}
	// A state change on the owner and every shard in one transaction.
	if _, err := f.members.UpdateAlso(ctx(t), k, c.StateOps("ann", map[string]string{"status": "off"}), func(m *member) error {
		m.Status = "off"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if err := add(100+i, "on"); err == nil {
			t.Fatalf("add %d after the state changed: accepted", i)
		}
	}
	if err := add(200, "off"); err != nil {
		t.Fatal(err)
	}
	// Reset: shards, rollup item (and here the owner) to 0.
	p, err := f.members.PatchOp(k, table.Patch{Set: map[string]any{"logins": 0}})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.t.Transact(ctx(t), append([]table.TxOp{p}, c.ResetOps("ann", []string{"logins"}, map[string]string{"status": "off"})...)...); err != nil {
		t.Fatal(err)
	}
	if err := add(201, "off"); err != nil {
		t.Fatal(err)
	}
	if tot, _ := c.Read(ctx(t), "ann", k); tot.Values["logins"] != 1 {
		t.Fatalf("after a reset and one add: %d logins, want 1", tot.Values["logins"])
	}
	if _, err := c.Read(ctx(t), "bob", table.Key{PK: "MEMBER#bob", SK: "PROFILE"}); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("Read of a missing owner: %v, want ErrNotFound", err)
	}
}

// The rollup copies a state another writer set on the owner into the
// shards; a rollup job visits owners only (never the shards: bookkeeping).
func TestCountersRollupJob(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := memberCounters(t, f.t)
	k := countedMember(t, f, c, "cy")
	if err := f.t.Transact(ctx(t), c.AddOp("cy", "e1", map[string]int64{"logins": 2}, nil, map[string]string{"status": "on"})); err != nil {
		t.Fatal(err)
	}
	foreignStatus(t, f.t, k, "off")
	job := table.Job{Name: "member-logins", Visit: func(cx context.Context, raw table.Item, dry bool) (table.JobOutcome, error) {
		return c.Visit(cx, raw, dry, func(raw table.Item) (string, bool) {
			if !f.members.Owns(raw) {
				return "", false
			}
			id, ok := raw["id"].(*types.AttributeValueMemberS)
			return id.Value, ok
		})
	}}
	dry := job
	dry.DryRun = true
	rep, err := f.t.RunJob(ctx(t), dry)
	if err != nil || rep.Changed != 1 || rep.Seen != 1 {
		t.Fatalf("dry run: %v, %v; want 1 seen (the shards are bookkeeping), 1 to change", rep, err)
	}
	if rep, err = f.t.RunJob(ctx(t), job); err != nil || rep.Changed != 1 {
		t.Fatalf("run: %v, %v", rep, err)
	}
	got, _ := f.members.Get(ctx(t), k)
	if got.Logins != 2 {
		t.Fatalf("logins %d after the job, want 2", got.Logins)
	}
	if err := f.t.Transact(ctx(t), c.AddOp("cy", "e2", map[string]int64{"logins": 1}, nil, map[string]string{"status": "on"})); err == nil {
		t.Fatal("add wanting status on after the job copied off: accepted")
	}
	if _, err := f.t.Counters(table.CounterSpec{Name: "Bad Name", Shards: 4, Sums: []string{"n"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Fatalf("a bad name: %v", err)
	}
	if _, err := f.t.Counters(table.CounterSpec{Name: "n", Shards: 99, Sums: []string{"n"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Fatalf("99 shards: %v", err)
	}
}

// A rollup with nothing pending that only copies the owner's state into
// the shards (another writer changed it on the owner) conditions the
// owner with a condition check, and that check binds only the
// placeholders it uses: DynamoDB refuses unused ones.
func TestCountersRollupStateOnly(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := memberCounters(t, f.t)
	k := countedMember(t, f, c, "di")
	foreignStatus(t, f.t, k, "off")
	if tot, changed, err := c.Rollup(ctx(t), "di", k); err != nil || !changed || tot.State["status"] != "off" {
		t.Fatalf("Rollup: %+v, changed %v, %v; want the state off copied", tot, changed, err)
	}
	if err := f.t.Transact(ctx(t), c.AddOp("di", "e1", map[string]int64{"logins": 1}, nil, map[string]string{"status": "on"})); err == nil {
		t.Fatal("add wanting status on after the rollup copied off: accepted")
	}
	if err := f.t.Transact(ctx(t), c.AddOp("di", "e2", map[string]int64{"logins": 1}, nil, map[string]string{"status": "off"})); err != nil {
		t.Fatal(err)
	}
	if _, changed, err := c.Rollup(ctx(t), "di", k); err != nil || !changed {
		t.Fatalf("second Rollup: changed %v, %v", changed, err)
	}
	if got, _ := f.members.Get(ctx(t), k); got.Logins != 1 {
		t.Fatalf("logins %d, want 1", got.Logins)
	}
}

// CreateAlso writes a new owner and its counter shards (NewShardOps) in
// one transaction: the shards carry the state, the first counted write
// needs no InitOps, and Read counts it. When an action of also fails (the
// shards already exist), nothing is written: the owner stays absent.
func TestCreateAlsoWithShards(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := memberCounters(t, f.t)
	m := member{ID: "cal", Email: "cal@x.io", Status: "on"}
	if err := f.members.CreateAlso(ctx(t), &m, c.NewShardOps("cal", map[string]string{"status": "on"})); err != nil {
		t.Fatal(err)
	}
	if err := f.t.Transact(ctx(t), c.AddOp("cal", "evt-1", map[string]int64{"logins": 1}, nil, map[string]string{"status": "on"})); err != nil {
		t.Fatalf("the first counted write, with no InitOps: %v", err)
	}
	got, err := f.members.Get(ctx(t), table.Key{PK: "MEMBER#cal", SK: "PROFILE"})
	if err != nil || got.Email != "cal@x.io" {
		t.Fatalf("the owner: %+v, %v", got, err)
	}
	tot, err := c.Read(ctx(t), "cal", table.Key{PK: "MEMBER#cal", SK: "PROFILE"})
	if err != nil || tot.Values["logins"] != 1 || tot.Shards != 8 || tot.State["status"] != "on" {
		t.Errorf("read: %+v, %v; want 1 login over 8 shards, status on", tot, err)
	}
	// Another owner whose shards would collide with cal's: refused whole.
	other := member{ID: "dee", Email: "dee@x.io", Status: "on"}
	err = f.members.CreateAlso(ctx(t), &other, c.NewShardOps("cal", map[string]string{"status": "on"}))
	if err == nil {
		t.Fatal("CreateAlso with shards that exist: no error")
	}
	if _, err := f.members.Get(ctx(t), table.Key{PK: "MEMBER#dee", SK: "PROFILE"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("the refused owner: %v, want ErrNotFound (nothing written)", err)
	}
}
