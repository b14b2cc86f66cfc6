package table_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// A store's writes of one entity are declared, not written as methods:
// each field holds the function the declaration gives, so a caller writes
// users.Create(ctx, &u) and users.Update(ctx, id, change) as it would call
// a method, each call one span named by the declaration, each sending its
// entity method's requests alone.
func ExampleCreate() {
	t, done := tabletest.ForExample("ExampleCreate")
	defer done()
	ctx := context.Background()
	tb := tabletest.NewTable(t, table.NewSchema("example"))
	users := table.NewEntity(tb, userDef)
	var store struct {
		Create func(context.Context, *User) error
		Update func(context.Context, string, func(*User) error) (User, error)
	}
	store.Create = table.Create(users, table.WriteDef[User]{ID: "EX-3", Name: "example.Users.Create", Doc: "Creates a user.",
		Before: func(u *User) {
			if u.Name == "" {
				u.Name = "(unnamed)" // the application's default
			}
		}})
	store.Update = table.Update(users, table.WriteDef[User]{ID: "EX-4", Name: "example.Users.Update", Doc: "Changes a user."},
		func(id string) User { return User{ID: id} })

	u := User{ID: "u1", Org: "acme", Email: "ann@example.com"}
	fmt.Println(store.Create(ctx, &u), u.Name)
	fmt.Println(errors.Is(store.Create(ctx, &u), table.ErrAlreadyExists))
	u, err := store.Update(ctx, "u1", func(u *User) error { u.Name = "Ann"; return nil })
	fmt.Println(u.Name, err)
	_, err = store.Update(ctx, "", func(*User) error { return nil }) // no ID: refused before any request
	var ve *table.ValidationError
	fmt.Println(errors.As(err, &ve), ve.Field)
	fmt.Println(tb.Writes()[1].Name, tb.Writes()[1].Kind)
	// Output:
	// <nil> (unnamed)
	// true
	// Ann <nil>
	// true id
	// example.Users.Update Update
}
