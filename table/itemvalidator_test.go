package table_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// vnote validates itself: its pointer has Validate() error.
type vnote struct {
	ID   string `dynamo:"id"`
	Body string `dynamo:"body"`
}

func (n *vnote) Validate() error {
	if n.Body == "" {
		return table.Invalid("body", "empty")
	}
	return nil
}

// TestEntityTypeValidatesItself: an entity declared without Def.Validate
// whose type has Validate() error is checked with it on every write
// (here Create and Put) before any request, as a declared one is; a
// declared Validate replaces it (here, one letting everything through).
// Good items are written to DynamoDB Local.
func TestEntityTypeValidatesItself(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("vnotes")).Schema())
	keys := table.Template{PK: "VNOTE#{id}", SK: "VNOTE"}
	notes := table.NewEntity(tb, table.Def[vnote]{Type: "VNote", Keys: keys})
	c := ctx(t)

	bad := vnote{ID: "n1"}
	for name, err := range map[string]error{
		"Create": notes.Create(c, &bad),
		"Put":    notes.Put(c, &bad),
	} {
		var ve *table.ValidationError
		if !errors.As(err, &ve) || ve.Field != "body" || ve.Reason != "empty" {
			t.Errorf("%s of an item without body: %v, want a *table.ValidationError body: empty", name, err)
		}
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("%d requests sent for invalid items (%v), want 0", n, rc.Ops())
	}

	good := vnote{ID: "n1", Body: "hello"}
	if err := notes.Create(c, &good); err != nil {
		t.Fatal(err)
	}
	if got, err := notes.Get(c, notes.Key(vnote{ID: "n1"})); err != nil || got.Body != "hello" {
		t.Errorf("Get n1: %+v, %v", got, err)
	}

	// A declared Validate is the one used.
	unchecked := table.NewEntity(tb, table.Def[vnote]{Type: "VNoteRaw", Keys: table.Template{PK: "RAW#{id}", SK: "RAW"},
		Validate: func(*vnote) error { return nil }})
	if err := unchecked.Create(c, &vnote{ID: "n2"}); err != nil {
		t.Errorf("Create through a Def whose Validate lets all through: %v", err)
	}
}
