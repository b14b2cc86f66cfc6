package table_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// An access pattern declared once (its catalog ID, index, checks): the
// engine gives its reads (Get, List, All) with the partition built from
// typed fields, the input checked before any request, and one span named
// by the ID; no store method is written for it.
func ExampleNewPattern() {
	t, done := tabletest.ForExample("ExampleNewPattern")
	defer done()
	ctx := context.Background()
	users := table.NewEntity(tabletest.NewTable(t, table.NewSchema("example")), userDef)
	byOrg := table.NewPattern(users, table.PatternDef[User]{
		ID: "EX-1", Name: "example.Users.ByOrg", Doc: "An organization's users.",
		Index: table.GSI1, Reads: table.ReadPage,
	})
	for _, id := range []string{"u1", "u2", "u3"} {
		_ = users.Create(ctx, &User{ID: id, Org: "acme", Email: id + "@example.com"})
	}
	for u, err := range byOrg.All(ctx, User{Org: "acme"}, table.Limit(2)) {
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println(u.ID)
	}
	_, err := byOrg.List(ctx, User{}) // no org: refused before any request
	var ve *table.ValidationError
	fmt.Println(errors.As(err, &ve), ve.Field)
	// Output:
	// u1
	// u2
	// u3
	// true org
}

// A store method that is more than one declared read (a write, several
// requests, an application's rule) runs in a declared operation: the ID
// and the method's name are data, the span is the engine's, and the
// access-pattern documents read the ID from the declaration.
func ExampleNewOp() {
	t, done := tabletest.ForExample("ExampleNewOp")
	defer done()
	ctx := context.Background()
	tb := tabletest.NewTable(t, table.NewSchema("example"))
	users := table.NewEntity(tb, userDef)
	register := table.NewOp(tb, "EX-2", "example.Users.Register")
	err := register.Do(ctx, func(ctx context.Context) error {
		return users.Create(ctx, &User{ID: "u1", Org: "acme", Email: "ann@example.com"})
	})
	fmt.Println(err, tb.Ops())
	// Output:
	// <nil> [{EX-2 example.Users.Register}]
}

// A query by a partition and the leading part of its sort key, and a key
// met elsewhere read back, both with typed fields: no key string is
// written by hand.
func ExampleEntity_Prefix() {
	t, done := tabletest.ForExample("ExampleEntity_Prefix")
	defer done()
	ctx := context.Background()
	events := table.NewEntity(tabletest.NewTable(t, table.NewSchema("example")), eventDef)
	for _, e := range []event{{"a1", "x", "1", ""}, {"a1", "xy", "2", ""}, {"a1", "x", "3", ""}} {
		_ = events.Create(ctx, &e)
	}
	q := events.Prefix(table.Primary, event{Account: "a1", Kind: "x"}) // SK begins_with "EV#x#": never "EV#xy#..."
	page, _ := events.List(ctx, q)
	for _, e := range page.Items {
		fmt.Println(e.Account, e.Kind, e.ID) // Account is stored only in the key, read back from it
	}
	e, err := events.FromKey(table.Key{PK: "ACCT#a9", SK: "EV#k#7"})
	fmt.Println(e.Account, e.Kind, e.ID, err)
	// Output:
	// a1 x 1
	// a1 x 3
	// a9 k 7 <nil>
}
