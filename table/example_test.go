package table_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// User is an example entity: PK = USER#{id}, SK = PROFILE, a unique email,
// and GSI1 = ORG#{org} / USER#{id} listing an organization's users.
type User struct {
	ID    string `dynamo:"id"`
	Org   string `dynamo:"org"`
	Email string `dynamo:"email"`
	Name  string `dynamo:"name"`
}

var userDef = table.Def[User]{
	Type:      "User",
	Keys:      table.Template{PK: "USER#{id}", SK: "PROFILE"},
	IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "ORG#{org}", SK: "USER#{id}"}},
	UniqueOn:  []string{"email"},
}

func ExampleEntity_Create() {
	t, done := tabletest.ForExample("ExampleEntity_Create")
	defer done()
	ctx := context.Background()
	users := table.NewEntity(tabletest.NewTable(t, table.NewSchema("example")), userDef)

	err := users.Create(ctx, &User{ID: "u1", Org: "acme", Email: "ada@example.com", Name: "Ada"})
	fmt.Println("create:", err)
	err = users.Create(ctx, &User{ID: "u1", Org: "acme", Email: "other@example.com"})
	fmt.Println("same key:", errors.Is(err, table.ErrAlreadyExists))
	err = users.Create(ctx, &User{ID: "u2", Org: "acme", Email: "ada@example.com"})
	fmt.Println("same email:", errors.Is(err, table.ErrUniqueViolation))
	u, err := users.GetByUnique(ctx, table.Unique{Name: "email", Value: "ada@example.com"})
	fmt.Println(u.Name, err)
	// Output:
	// create: <nil>
	// same key: true
	// same email: true
	// Ada <nil>
}

func ExampleEntity_Update() {
	t, done := tabletest.ForExample("ExampleEntity_Update")
	defer done()
	ctx := context.Background()
	users := table.NewEntity(tabletest.NewTable(t, table.NewSchema("example")), userDef)
	_ = users.Create(ctx, &User{ID: "u1", Org: "acme", Email: "ada@example.com"})

	// Moving the user to another org moves its GSI1 entry in the same write.
	_, err := users.Update(ctx, table.Key{PK: "USER#u1", SK: "PROFILE"}, func(u *User) error {
		u.Org = "globex"
		return nil
	})
	fmt.Println("update:", err)
	for _, org := range []string{"acme", "globex"} {
		p, _ := users.List(ctx, table.Query{Index: table.GSI1, PK: "ORG#" + org})
		fmt.Println(org, len(p.Items))
	}
	_, err = users.Update(ctx, table.Key{PK: "USER#nobody", SK: "PROFILE"}, func(*User) error { return nil })
	fmt.Println("missing:", errors.Is(err, table.ErrNotFound))
	// Output:
	// update: <nil>
	// acme 0
	// globex 1
	// missing: true
}

func ExampleEntity_ListAll() {
	t, done := tabletest.ForExample("ExampleEntity_ListAll")
	defer done()
	ctx := context.Background()
	users := table.NewEntity(tabletest.NewTable(t, table.NewSchema("example")), userDef)
	for _, id := range []string{"u1", "u2", "u3"} {
		_ = users.Create(ctx, &User{ID: id, Org: "acme", Email: id + "@example.com"})
	}
	// Pages of two, consumed as one iterator.
	for u, err := range users.ListAll(ctx, table.Query{Index: table.GSI1, PK: "ORG#acme"}, table.Limit(2)) {
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println(u.ID)
	}
	// Output:
	// u1
	// u2
	// u3
}
