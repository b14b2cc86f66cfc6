package table_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// rshipment: a warehouse's shipments by state (an enumeration that checks
// itself, ticketState), lane and ID; a lane's on GSI1.
type rshipment struct {
	Warehouse string      `dynamo:"warehouse"`
	State     ticketState `dynamo:"state"`
	Lane      string      `dynamo:"lane"`
	ID        string      `dynamo:"id"`
}

func rshipments(tb *table.Table) *table.Entity[rshipment] {
	return table.NewEntity(tb, table.Def[rshipment]{Type: "RShipment",
		Keys:      table.Template{PK: "WH#{warehouse}", SK: "S#{state}#{lane}#{id}"},
		IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "LANE#{lane}", SK: "S#{id}"}}})
}

// TestPatternRequire: a field PatternDef.Require names and a call leaves
// zero is a *table.ValidationError naming it, reason "required", before
// any request (a sort-key field, which would otherwise read the whole
// partition; a plain string; a partition-key field, in template order),
// after the declaration's Check; a set one still gets its own check; set,
// the read goes to DynamoDB Local.
func TestPatternRequire(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("shipments")).Schema())
	ships := rshipments(tb)
	byState := table.NewPattern(ships, table.PatternDef[rshipment]{ID: "R-1", Name: "ships.Shipments.ByState",
		Doc: "A warehouse's shipments in one state.", Reads: table.ReadPage | table.ReadRange, SortPrefix: true, Require: []string{"state"}})
	byLane := table.NewPattern(ships, table.PatternDef[rshipment]{ID: "R-2", Name: "ships.Shipments.ByLane",
		Doc: "A warehouse's shipments in one state and lane.", Reads: table.ReadOne | table.ReadPage, SortPrefix: true,
		Require: []string{"lane", "state", "warehouse"}})
	checked := table.NewPattern(ships, table.PatternDef[rshipment]{ID: "R-3", Name: "ships.Shipments.Checked",
		Doc: "The application's check first.", Reads: table.ReadPage, SortPrefix: true, Require: []string{"state"},
		Check: func(x *rshipment) error { return table.Invalid("shipment", "refused first") }})
	c := ctx(t)

	cases := []struct {
		name, field, reason string
		err                 error
	}{
		{"List with the required state unset", "state", "required", errOf(byState.List(c, rshipment{Warehouse: "w1"}))},
		{"Between with the state unset in to", "state", "required", errOf(byState.Between(c, rshipment{Warehouse: "w1", State: "open"}, rshipment{Warehouse: "w1"}))},
		{"List with an unknown state (its own check)", "state", `unknown state "lost"`, errOf(byState.List(c, rshipment{Warehouse: "w1", State: "lost"}))},
		{"List with the required lane unset", "lane", "required", errOf(byLane.List(c, rshipment{Warehouse: "w1", State: "open"}))},
		{"Get with a required partition-key field unset (template order)", "warehouse", "required", errOf(byLane.Get(c, rshipment{ID: "s1"}))},
		{"the declaration's Check first", "shipment", "refused first", errOf(checked.List(c, rshipment{Warehouse: "w1"}))},
	}
	for _, cs := range cases {
		var ve *table.ValidationError
		if !errors.As(cs.err, &ve) || ve.Field != cs.field || ve.Reason != cs.reason || !errors.Is(cs.err, table.ErrInvalidInput) {
			t.Errorf("%s: %v, want a *table.ValidationError %s: %s", cs.name, cs.err, cs.field, cs.reason)
		}
	}
	for _, err := range byState.All(c, rshipment{Warehouse: "w1"}) {
		var ve *table.ValidationError
		if !errors.As(err, &ve) || ve.Reason != "required" {
			t.Errorf("All with the state unset: %v, want required", err)
		}
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("%d requests sent for bad input (%v), want 0", n, rc.Ops())
	}

	for _, x := range []rshipment{{"w1", "open", "a", "s1"}, {"w1", "closed", "a", "s2"}, {"w1", "open", "b", "s3"}, {"w2", "open", "a", "s4"}} {
		if err := ships.Create(c, &x); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(p table.Page[rshipment], err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, x := range p.Items {
			out = append(out, x.ID)
		}
		return out
	}
	if diff := cmp.Diff([]string{"s1", "s3"}, ids(byState.List(c, rshipment{Warehouse: "w1", State: "open"}))); diff != "" {
		t.Errorf("List of w1's open shipments (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"s3"}, ids(byLane.List(c, rshipment{Warehouse: "w1", State: "open", Lane: "b"}))); diff != "" {
		t.Errorf("List of w1's open shipments in lane b (-want +got):\n%s", diff)
	}
	if x, err := byLane.Get(c, rshipment{Warehouse: "w1", State: "closed", Lane: "a", ID: "s2"}); err != nil || x.ID != "s2" {
		t.Errorf("Get s2: %+v, %v", x, err)
	}
}

// TestPatternRequireDeclaration: a Require name that is no field of the
// key templates of the pattern's index panics at NewPattern, naming it.
func TestPatternRequireDeclaration(t *testing.T) {
	t.Parallel()
	tb := table.New(tabletest.NewClient(t), table.NewSchema("shipments"))
	ships := rshipments(tb)
	for _, cs := range []struct {
		name, require string
		index         table.Index
	}{
		{"not a key field", "status", table.Primary},
		{"a non-key attribute", "Warehouse", table.Primary},
		{"a field of the table's templates, not the index's", "state", table.GSI1},
	} {
		t.Run(cs.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), fmt.Sprintf("Require %q", cs.require)) || !strings.Contains(fmt.Sprint(r), "R-9") {
					t.Errorf("NewPattern with Require %q on index %d: panic %v, want one naming it", cs.require, cs.index, r)
				}
			}()
			table.NewPattern(ships, table.PatternDef[rshipment]{ID: "R-9", Name: "ships.Shipments.Bad", Doc: "Bad.",
				Reads: table.ReadPage, Index: cs.index, Require: []string{cs.require}})
		})
	}
}
