package table_test

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// sentConds records the condition of every create put a client sends
// (PutItem, and the first put of a TransactWriteItems), in order, and
// runs before, when set, ahead of the request it is about to send.
type sentConds struct {
	mu     sync.Mutex
	conds  []string
	before func(n int) // n: this request's index in conds
}

func (s *sentConds) option() func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
			return st.Initialize.Add(middleware.InitializeMiddlewareFunc("sentConds", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				var cond *string
				switch p := in.Parameters.(type) {
				case *dynamodb.PutItemInput:
					cond = p.ConditionExpression
				case *dynamodb.TransactWriteItemsInput:
					if len(p.TransactItems) > 0 && p.TransactItems[0].Put != nil {
						cond = p.TransactItems[0].Put.ConditionExpression
					}
				default:
					return next.HandleInitialize(ctx, in)
				}
				s.mu.Lock()
				s.conds = append(s.conds, aws.ToString(cond))
				n, before := len(s.conds)-1, s.before
				s.mu.Unlock()
				if before != nil {
					before(n)
				}
				return next.HandleInitialize(ctx, in)
			}), middleware.After)
		})
	}
}

func (s *sentConds) got() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.conds...)
}

const (
	shortCond = "attribute_not_exists(#pk)"
	fullCond  = "(attribute_not_exists(#pk) OR #ttl BETWEEN :tiny AND :now)"
)

// A create is sent on attribute_not_exists alone; only when the key holds
// an item past its TTL is it sent again on the condition that also takes
// an expired item's key. Request counts and conditions are read from the
// requests sent.
func TestCreateConditionShortThenFull(t *testing.T) {
	t.Parallel()
	var clk clock
	clk.set(time.Unix(1_900_000_000, 0))
	f := newFixture(t, withClock(&clk))
	c := ctx(t)
	ttl := f.t.Schema().TTLAttr
	rawNote := func(id string, ttlAt int64, text string) {
		putRawItem(t, f.t, table.Item{"PK": &types.AttributeValueMemberS{Value: "MEMBER#" + id}, "SK": &types.AttributeValueMemberS{Value: "NOTE#0001"},
			"memberId": &types.AttributeValueMemberS{Value: id}, "seq": &types.AttributeValueMemberN{Value: "1"}, "text": &types.AttributeValueMemberS{Value: text},
			ttl: &types.AttributeValueMemberN{Value: strconv.FormatInt(ttlAt, 10)}})
	}
	past, future := clk.Now().Unix()-10, clk.Now().Unix()+3600

	t.Run("fresh key: one PutItem on the short condition", func(t *testing.T) {
		var sc sentConds
		ff, rc := faultyFixture(t, f, []func(*table.Options){withClock(&clk)}, sc.option())
		if err := ff.notes.Create(c, &note{MemberID: "fresh", Seq: 1, Text: "a"}); err != nil {
			t.Fatal(err)
		}
		if got := sc.got(); rc.Total() != 1 || len(got) != 1 || got[0] != shortCond {
			t.Fatalf("%d requests, conditions %q; want 1 PutItem on %q", rc.Total(), got, shortCond)
		}
	})
	t.Run("live item: one PutItem, ErrAlreadyExists", func(t *testing.T) {
		rawNote("live", future, "theirs")
		var sc sentConds
		ff, rc := faultyFixture(t, f, []func(*table.Options){withClock(&clk)}, sc.option())
		if err := ff.notes.Create(c, &note{MemberID: "live", Seq: 1, Text: "mine"}); !errors.Is(err, table.ErrAlreadyExists) {
			t.Fatalf("Create over a live item = %v, want ErrAlreadyExists", err)
		}
		if rc.Total() != 1 {
			t.Fatalf("%d requests, want 1", rc.Total())
		}
		if got, err := f.notes.Get(c, table.Key{PK: "MEMBER#live", SK: "NOTE#0001"}); err != nil || got.Text != "theirs" {
			t.Fatalf("after: %q, %v; want theirs untouched", got.Text, err)
		}
	})
	t.Run("expired item: two PutItems, the key taken", func(t *testing.T) {
		rawNote("expired", past, "old")
		var sc sentConds
		ff, rc := faultyFixture(t, f, []func(*table.Options){withClock(&clk)}, sc.option())
		if err := ff.notes.Create(c, &note{MemberID: "expired", Seq: 1, Text: "new"}); err != nil {
			t.Fatalf("Create over an expired item = %v, want success", err)
		}
		if got := sc.got(); rc.Of("PutItem") != 2 || rc.Total() != 2 || len(got) != 2 || got[0] != shortCond || got[1] != fullCond {
			t.Fatalf("%v, conditions %q; want 2 PutItems on %q then %q", rc.Ops(), got, shortCond, fullCond)
		}
		if got, err := f.notes.Get(c, table.Key{PK: "MEMBER#expired", SK: "NOTE#0001"}); err != nil || got.Text != "new" {
			t.Fatalf("after: %q, %v; want new", got.Text, err)
		}
	})
	t.Run("expired item replaced by a live one between the sends", func(t *testing.T) {
		rawNote("raced", past, "old")
		var sc sentConds
		sc.before = func(n int) {
			if n == 1 { // another writer takes the key before the second send
				rawNote("raced", future, "theirs")
			}
		}
		ff, rc := faultyFixture(t, f, []func(*table.Options){withClock(&clk)}, sc.option())
		if err := ff.notes.Create(c, &note{MemberID: "raced", Seq: 1, Text: "mine"}); !errors.Is(err, table.ErrAlreadyExists) {
			t.Fatalf("Create = %v, want ErrAlreadyExists", err)
		}
		if rc.Of("PutItem") != 2 {
			t.Fatalf("%v, want 2 PutItems", rc.Ops())
		}
		if got, err := f.notes.Get(c, table.Key{PK: "MEMBER#raced", SK: "NOTE#0001"}); err != nil || got.Text != "theirs" {
			t.Fatalf("after: %q, %v; want theirs untouched", got.Text, err)
		}
	})
	t.Run("expired item, the second send's response lost", func(t *testing.T) {
		rawNote("lost", past, "old")
		lost := &tabletest.LostResponses{Op: "PutItem", After: 1, Times: 1}
		ff, _ := faultyFixture(t, f, []func(*table.Options){withClock(&clk)}, lost.Option())
		if err := ff.notes.Create(c, &note{MemberID: "lost", Seq: 1, Text: "new"}); err != nil {
			t.Fatalf("Create = %v, want success (the retry finds its token)", err)
		}
		if lost.Lost() != 1 || lost.Calls() != 3 {
			t.Fatalf("lost %d of %d PutItems, want 1 of 3", lost.Lost(), lost.Calls())
		}
		if err := ff.notes.Create(c, &note{MemberID: "lost", Seq: 1, Text: "again"}); !errors.Is(err, table.ErrAlreadyExists) {
			t.Fatalf("a second Create = %v, want ErrAlreadyExists", err)
		}
	})
}

// The same in a transaction (a create with unique guards, and a CreateOp
// passed to Transact): one TransactWriteItems on the short condition, a
// second, with a new idempotency token, when the key holds an expired
// item; with the caller's own idempotency token, the full condition from
// the start (a token names one request).
func TestCreateConditionInTransactions(t *testing.T) {
	t.Parallel()
	var clk clock
	clk.set(time.Unix(1_900_000_000, 0))
	f := newFixture(t, withClock(&clk))
	c := ctx(t)
	exp := clk.Now().Add(time.Hour)
	f.create(t, member{ID: "old", Email: "old@x.io", Status: "on", ExpiresAt: exp})
	f.create(t, member{ID: "live", Email: "live@x.io", Status: "on", ExpiresAt: exp.Add(24 * time.Hour)})
	f.create(t, member{ID: "tok", Email: "tok@x.io", Status: "on", ExpiresAt: exp})
	clk.add(2 * time.Hour) // old and tok expired, live not

	var sc sentConds
	ff, rc := faultyFixture(t, f, []func(*table.Options){withClock(&clk)}, sc.option())
	if err := ff.members.Create(c, &member{ID: "fresh", Email: "fresh@x.io", Status: "on"}); err != nil {
		t.Fatal(err)
	}
	if got := sc.got(); rc.Total() != 1 || len(got) != 1 || got[0] != shortCond {
		t.Fatalf("fresh key: %v, conditions %q; want 1 TransactWriteItems on %q", rc.Ops(), got, shortCond)
	}

	sc, rc2 := sentConds{}, (*tabletest.RequestCounter)(nil)
	ff, rc2 = faultyFixture(t, f, []func(*table.Options){withClock(&clk)}, sc.option())
	if err := ff.members.Create(c, &member{ID: "old", Email: "new@x.io", Status: "new"}); err != nil {
		t.Fatalf("Create over an expired item = %v, want success", err)
	}
	if got := sc.got(); rc2.Of("TransactWriteItems") != 2 || rc2.Total() != 2 || got[1] != fullCond {
		t.Fatalf("expired key: %v, conditions %q; want 2 TransactWriteItems, the second on %q", rc2.Ops(), got, fullCond)
	}
	if got, err := f.members.Get(c, table.Key{PK: "MEMBER#old", SK: "PROFILE"}); err != nil || got.Status != "new" {
		t.Fatalf("after: %q, %v; want new", got.Status, err)
	}

	rc2.Reset()
	if err := ff.members.Create(c, &member{ID: "live", Email: "other@x.io", Status: "new"}); !errors.Is(err, table.ErrAlreadyExists) {
		t.Fatalf("Create over a live item = %v, want ErrAlreadyExists", err)
	}
	if rc2.Total() != 1 {
		t.Fatalf("live key: %v, want 1 TransactWriteItems", rc2.Ops())
	}

	sc, rc3 := sentConds{}, (*tabletest.RequestCounter)(nil)
	ff, rc3 = faultyFixture(t, f, []func(*table.Options){withClock(&clk)}, sc.option())
	ops, err := ff.notes.CreateOp(&note{MemberID: "tok", Seq: 9, Text: "x"})
	if err != nil {
		t.Fatal(err)
	}
	mops, err := ff.members.CreateOp(&member{ID: "tok", Email: "tok2@x.io", Status: "new"})
	if err != nil {
		t.Fatal(err)
	}
	if err := ff.t.TransactWith(c, []table.TxOption{table.IdempotencyToken("caller-token-1")}, append(mops, ops...)...); err != nil {
		t.Fatalf("Transact with the caller's token over an expired item = %v, want success", err)
	}
	if got := sc.got(); rc3.Total() != 1 || len(got) != 1 || got[0] != fullCond {
		t.Fatalf("caller's token: %v, conditions %q; want 1 TransactWriteItems on %q", rc3.Ops(), got, fullCond)
	}
}
