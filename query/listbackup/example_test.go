package listbackup_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// A user signs up, is found by email in another case and Unicode form
// (LB-2), and a second sign-up with the same address is refused. It runs
// against DynamoDB Local.
func Example() {
	t, done := tabletest.ForExample("ExampleListBackup")
	defer done()
	ctx := context.Background()
	s := listbackup.New(tabletest.NewTable(t, listbackup.Schema("listbackup")))

	ada := &lb.User{UserID: "user:ada", Email: "Ada@Example.com", Username: "ada", Name: "Ada Lovelace",
		Role: lb.UserRoleAdmin, Preferences: lb.UserPreferences{Timezone: "Europe/London"}}
	if err := s.Users.Create(ctx, ada); err != nil {
		panic(err)
	}
	u, err := s.Users.GetByEmail(ctx, "ada@example.com") // LB-2
	fmt.Println(u.Name, err)
	twin := *ada
	twin.UserID, twin.Username, twin.Email = "user:twin", "twin", "ADA@example.COM"
	err = s.Users.Create(ctx, &twin)
	fmt.Println(errors.Is(err, table.ErrUniqueViolation))
	// Output:
	// Ada Lovelace <nil>
	// true
}
