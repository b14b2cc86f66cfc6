package table_test

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

type tier string

type billing struct {
	Tier tier `dynamo:"tier"`
}

// subscriber checks two enums (one nested) before its other checks, and
// normalizes its email after them, as entity Validate functions do.
type subscriber struct {
	ID      string  `dynamo:"id"`
	Plan    string  `dynamo:"plan"`
	Billing billing `dynamo:"billing"`
	Email   string  `dynamo:"email"`
}

var subscriberDef = table.Def[subscriber]{
	Type: "Subscriber",
	Keys: table.Template{PK: "SUB#{id}", SK: "SUB"},
	Validate: func(s *subscriber) error {
		if err := table.CheckEnum("plan", s.Plan, "free", "starter"); err != nil {
			return err
		}
		if _, err := table.ParseEnum("billing.tier", string(s.Billing.Tier), tier("basic"), tier("plus")); err != nil {
			return err
		}
		if !strings.Contains(s.Email, "@") {
			return table.Invalid("email", "%q is not an email address", s.Email)
		}
		s.Email = strings.ToLower(s.Email)
		return nil
	},
}

func subscriberRow(id, plan, tr, email string) table.Item {
	return table.Item{"id": &types.AttributeValueMemberS{Value: id}, "plan": &types.AttributeValueMemberS{Value: plan},
		"billing": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"tier": &types.AttributeValueMemberS{Value: tr}}},
		"email":   &types.AttributeValueMemberS{Value: email}}
}

// Issue 35: Import keeps an enum value the entity does not know (the
// source holds it) and reports it, in a dry run as in the real run, through
// ImportMany and Import; every other check of Validate still applies (a
// bad email after the unknown plan is refused) and its normalization too;
// Create still refuses the unknown value. Before, every such item was a
// conflict, left behind.
func TestImportKeepsUnknownEnumValues(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("kept"))
	subs := table.NewEntity(tb, subscriberDef)
	rows := []table.Item{
		subscriberRow("a", "pro", "basic", "Ann@X.io"), // unknown plan: kept; email normalized
		subscriberRow("b", "pro", "basic", "bad"),      // unknown plan, and a bad email: refused
		subscriberRow("c", "free", "gold", "c@x.io"),   // unknown nested tier: kept
		subscriberRow("d", "free", "basic", "d@x.io"),  // nothing unknown
	}
	type kept struct{ PK, Field, Value string }
	run := func(dry bool) ([]importResult, []kept) {
		var mu sync.Mutex
		var got []kept
		c := table.WithKeptValues(ctx(t), func(kv table.KeptValue) {
			mu.Lock()
			defer mu.Unlock()
			if kv.Entity != "Subscriber" || len(kv.Allowed) != 2 {
				t.Errorf("kept value %+v", kv)
			}
			got = append(got, kept{kv.Key.PK, kv.Field, kv.Value})
		})
		res := resultsOf(subs.ImportMany(c, rows, dry))
		slices.SortFunc(got, func(a, b kept) int { return strings.Compare(a.PK, b.PK) })
		return res, got
	}
	wantRes := []importResult{{Outcome: table.Changed}, {Outcome: table.Conflicted, Invalid: true, Err: true}, {Outcome: table.Changed}, {Outcome: table.Changed}}
	wantKept := []kept{{"SUB#a", "plan", "pro"}, {"SUB#c", "billing.tier", "gold"}}
	for _, dry := range []bool{true, false} {
		res, got := run(dry)
		if d := cmp.Diff(wantRes, res); d != "" {
			t.Errorf("dry run %v: outcomes (-want +got):\n%s", dry, d)
		}
		if d := cmp.Diff(wantKept, got); d != "" {
			t.Errorf("dry run %v: kept values (-want +got):\n%s", dry, d)
		}
	}
	a, err := subs.Get(ctx(t), table.Key{PK: "SUB#a", SK: "SUB"})
	if err != nil || a.Plan != "pro" || a.Email != "ann@x.io" {
		t.Errorf("imported a: %+v, %v; want plan pro kept, email normalized", a, err)
	}
	c, err := subs.Get(ctx(t), table.Key{PK: "SUB#c", SK: "SUB"})
	if err != nil || c.Billing.Tier != "gold" {
		t.Errorf("imported c: %+v, %v; want tier gold kept", c, err)
	}
	// One item through Import: kept and reported the same way.
	var one []table.KeptValue
	cc := table.WithKeptValues(ctx(t), func(kv table.KeptValue) { one = append(one, kv) })
	if o, err := subs.Import(cc, subscriberRow("e", "team", "plus", "e@x.io"), false); err != nil || o != table.Changed || len(one) != 1 || one[0].Value != "team" {
		t.Errorf("Import: %v %v, kept %+v", o, err, one)
	}
	// Strict writes: a write that sets an unknown value is refused.
	var ve *table.ValidationError
	if err := subs.Create(ctx(t), &subscriber{ID: "f", Plan: "pro", Billing: billing{Tier: "basic"}, Email: "f@x.io"}); !errors.As(err, &ve) || !ve.Unknown || ve.Field != "plan" || ve.Value != "pro" {
		t.Errorf("Create with an unknown plan: %v, want a ValidationError for plan", err)
	}
	// Carried through by an update of another field.
	if got, err := subs.Update(ctx(t), table.Key{PK: "SUB#a", SK: "SUB"}, func(s *subscriber) error { s.Email = "ann2@x.io"; return nil }); err != nil || got.Plan != "pro" {
		t.Errorf("update of a: %+v, %v", got, err)
	}
}
