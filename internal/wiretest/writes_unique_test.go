package wiretest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/singletable/singletable/table"
)

type wtUser struct {
	ID    string `dynamo:"id"`
	Email string `dynamo:"email"`
}

type wtUsers struct {
	Create     func(context.Context, *wtUser) error          // a write, in place
	GetByEmail func(context.Context, string) (wtUser, error) // a unique read, in place
	GetByName  func(context.Context, string) (wtUser, error) // a unique read declared under another name
}

type wtUserStore struct{ Users *wtUsers }

// TestCheckWritesBitesUniqueReads: CheckWrites holds a declared unique
// read (table.ByUnique, listed by Table.Uniques, not Table.Writes) to its
// field as it holds a write: one in place counts, one declared under a
// name that is not its field's is reported at the field and at the
// declaration, named a unique read.
func TestCheckWritesBitesUniqueReads(t *testing.T) {
	tb := table.New(nil, table.NewSchema("uniques"))
	users := table.NewEntity(tb, table.Def[wtUser]{Type: "User", Keys: table.Template{PK: "USER#{id}", SK: "USER"}, UniqueOn: []string{"email"}})
	store := &wtUserStore{Users: &wtUsers{
		Create:     table.Create(users, table.WriteDef[wtUser]{ID: "XX-1", Name: "opstore.wtUsers.Create", Doc: "Creates a user."}),
		GetByEmail: table.ByUnique(users, table.UniqueDef{ID: "XX-2", Name: "opstore.wtUsers.GetByEmail", Doc: "A user by email.", Unique: "email"}),
		GetByName:  table.ByUnique(users, table.UniqueDef{ID: "XX-3", Name: "opstore.wtUsers.GetByNaem", Doc: "A user by name.", Unique: "email"}),
	}}
	if w, u := len(tb.Writes()), len(tb.Uniques()); w != 1 || u != 2 {
		t.Fatalf("table lists %d writes and %d unique reads, want 1 and 2", w, u)
	}
	problems, declared := CheckWrites(Package{Name: "opstore", Prefix: "XX"}, store, tb)
	if declared != 2 {
		t.Errorf("%d declared fields in place, want 2 (Create, GetByEmail)", declared)
	}
	want := []string{
		"opstore.wtUsers.GetByName: no write is declared with its name",
		"opstore.wtUsers.GetByNaem (XX-3) is a unique read declared on the store's tables but no func field",
	}
	for _, w := range want {
		if !slices.ContainsFunc(problems, func(m string) bool { return strings.Contains(m, w) }) {
			t.Errorf("no problem %q in %q", w, problems)
		}
	}
	if len(problems) != len(want) {
		t.Errorf("%d problems, want %d: %q", len(problems), len(want), problems)
	}
}
