package table_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Voyage's fields check themselves on every write, with no Validate
// method: its typed ID (crewID) and its enumeration (crewMood, nested in
// prefs); Def.Required refuses a blank name.
type Voyage struct {
	ID    crewID    `dynamo:"id"`
	Name  string    `dynamo:"name"`
	Prefs crewPrefs `dynamo:"prefs"`
}

// Every write checks an item's fields before any request: each field
// whose type checks itself (a typed ID, an enumeration declared with
// NewEnum), nested ones with their dotted names, and the attributes
// Def.Required names; every failure, joined, then the type's own Validate.
// Entity.Validate runs the same check, for an operation that must refuse
// the item before its first request.
func ExampleDef_required() {
	t, done := tabletest.ForExample("ExampleDef_required")
	defer done()
	ctx := context.Background()
	voyages := table.NewEntity(tabletest.NewTable(t, table.NewSchema("example")), table.Def[Voyage]{
		Type: "Voyage", Keys: table.Template{PK: "VOYAGE#{id}", SK: "VOYAGE"}, Required: []string{"name"}})

	bad := Voyage{ID: "crw_1", Name: " ", Prefs: crewPrefs{Mood: "sunny"}}
	err := voyages.Create(ctx, &bad)
	fmt.Println(errors.Is(err, table.ErrInvalidInput))
	fmt.Println(voyages.Validate(&bad))

	good := Voyage{ID: "crw_1", Name: "Argo", Prefs: crewPrefs{Mood: "calm"}}
	fmt.Println(voyages.Validate(&good), voyages.Create(ctx, &good))
	// Output:
	// true
	// singletable: invalid name: required
	// singletable: invalid prefs.mood: unknown value "sunny" (want one of calm, stormy)
	// <nil> <nil>
}
