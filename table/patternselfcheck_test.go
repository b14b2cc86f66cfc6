package table_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// ticketID is a typed ID that checks itself: "t-" and at most 8 bytes.
type ticketID string

func (id ticketID) Validate(field string) error {
	if !strings.HasPrefix(string(id), "t-") || len(id) > 8 {
		return table.Invalid(field, "%q is not a ticket ID", id)
	}
	return nil
}

// ticketState is an enumeration that checks itself.
type ticketState string

func (s ticketState) Check(field string) error {
	if s != "open" && s != "closed" {
		return table.Invalid(field, "unknown state %q", s)
	}
	return nil
}

// qticket: a queue's tickets by state then ID, and by label on GSI1
// (under an escaping transform: the type's own check still holds).
type qticket struct {
	Queue ticketID    `dynamo:"queue"`
	State ticketState `dynamo:"state"`
	ID    ticketID    `dynamo:"id"`
	Label ticketID    `dynamo:"label"`
}

// TestPatternKeyFieldsCheckThemselves: a declared pattern with no Check
// calls the key fields' own checks (Validate(field), Check(field)) with
// the attribute's name before any request: a partition-key field always
// (empty too, under a transform too), a sort-key field when set; the
// declaration's Check runs first. Good input reads DynamoDB Local.
func TestPatternKeyFieldsCheckThemselves(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("tickets")).Schema())
	tickets := table.NewEntity(tb, table.Def[qticket]{Type: "QTicket",
		Keys:      table.Template{PK: "QUEUE#{queue}", SK: "T#{state}#{id}"},
		IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "LABEL#{label:esc}", SK: "T#{id}"}}})
	byQueue := table.NewPattern(tickets, table.PatternDef[qticket]{ID: "T-20", Name: "tickets.Tickets.ByQueue",
		Doc: "A queue's tickets, by state.", Reads: table.ReadOne | table.ReadPage, SortPrefix: true})
	byLabel := table.NewPattern(tickets, table.PatternDef[qticket]{ID: "T-21", Name: "tickets.Tickets.ByLabel",
		Doc: "A label's tickets.", Reads: table.ReadPage, Index: table.GSI1, WholePartition: true})
	checked := table.NewPattern(tickets, table.PatternDef[qticket]{ID: "T-22", Name: "tickets.Tickets.Checked",
		Doc: "One qticket, the application's check first.", Reads: table.ReadOne,
		Check: func(x *qticket) error { return table.Invalid("qticket", "refused first") }})
	c := ctx(t)

	cases := []struct {
		name, field, reason string
		err                 error
	}{
		{"Get with a bad partition ID", "queue", `"q1" is not a ticket ID`, errOf(byQueue.Get(c, qticket{Queue: "q1", State: "open", ID: "t-1"}))},
		{"Get with an empty partition ID (checked always)", "queue", `"" is not a ticket ID`, errOf(byQueue.Get(c, qticket{State: "open", ID: "t-1"}))},
		{"Get with a bad sort ID", "id", `"x" is not a ticket ID`, errOf(byQueue.Get(c, qticket{Queue: "t-q", State: "open", ID: "x"}))},
		{"List with an unknown state", "state", `unknown state "lost"`, errOf(byQueue.List(c, qticket{Queue: "t-q", State: "lost"}))},
		{"List with a bad label under :esc", "label", `"zz" is not a ticket ID`, errOf(byLabel.List(c, qticket{Label: "zz"}))},
		{"the declaration's Check first", "qticket", "refused first", errOf(checked.Get(c, qticket{Queue: "q1", ID: "x"}))},
	}
	for _, cs := range cases {
		var ve *table.ValidationError
		if !errors.As(cs.err, &ve) || ve.Field != cs.field || ve.Reason != cs.reason {
			t.Errorf("%s: %v, want a *table.ValidationError %s: %s", cs.name, cs.err, cs.field, cs.reason)
		}
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("%d requests sent for bad input (%v), want 0", n, rc.Ops())
	}

	for _, x := range []qticket{{"t-q", "open", "t-1", "t-a#b"}, {"t-q", "closed", "t-2", "t-a#b"}, {"t-q", "open", "t-3", "t-c"}} {
		if err := tickets.Create(c, &x); err != nil {
			t.Fatal(err)
		}
	}
	got := func(p table.Page[qticket], err error) []ticketID {
		if err != nil {
			t.Fatal(err)
		}
		var out []ticketID
		for _, x := range p.Items {
			out = append(out, x.ID)
		}
		return out
	}
	// an unset sort-key field is not checked: the whole partition
	if diff := cmp.Diff([]ticketID{"t-2", "t-1", "t-3"}, got(byQueue.List(c, qticket{Queue: "t-q"}))); diff != "" {
		t.Errorf("List of the queue (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]ticketID{"t-1", "t-3"}, got(byQueue.List(c, qticket{Queue: "t-q", State: "open"}))); diff != "" {
		t.Errorf("List of the open tickets (-want +got):\n%s", diff)
	}
	// a label with the delimiter is escaped by the template
	if diff := cmp.Diff([]ticketID{"t-1", "t-2"}, got(byLabel.List(c, qticket{Label: "t-a#b"}))); diff != "" {
		t.Errorf("List of label t-a#b (-want +got):\n%s", diff)
	}
	if x, err := byQueue.Get(c, qticket{Queue: "t-q", State: "closed", ID: "t-2"}); err != nil || x.ID != "t-2" {
		t.Errorf("Get t-2: %+v, %v", x, err)
	}
}

func errOf[T any](_ T, err error) error { return err }
