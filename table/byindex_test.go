package table_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

func TestGetByIndexNeverReturnsStaleEntries(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	f.create(t, member{ID: "m1", Email: "a@b.c", Status: "active"})
	lagging := table.NewEntity(table.New(tabletest.NewClient(t, (&tabletest.StaleQueries{}).Option()), f.t.Schema()), memberDef)
	q := table.Query{Index: table.GSI1, PK: "STATUS#active"}
	got, err := lagging.GetByIndex(c, q)
	if err != nil || got.ID != "m1" {
		t.Fatalf("fresh index: %+v %v", got, err)
	}
	// The member moves to another status: the lagging index still lists it
	// under "active", and a plain Query believes it.
	if _, err := f.members.Update(c, table.Key{PK: "MEMBER#m1", SK: "PROFILE"}, func(m *member) error { m.Status = "suspended"; return nil }); err != nil {
		t.Fatal(err)
	}
	if p, _ := lagging.List(c, q); len(p.Items) != 1 {
		t.Fatalf("the stale index was not simulated: %+v", p.Items)
	}
	if _, err := lagging.GetByIndex(c, q); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("GetByIndex on a stale entry (item moved): %v, want ErrNotFound", err)
	}
	// Deleted: the lagging index still lists it; GetByIndex does not.
	if err := f.members.Delete(c, table.Key{PK: "MEMBER#m1", SK: "PROFILE"}); err != nil {
		t.Fatal(err)
	}
	if _, err := lagging.GetByIndex(c, q); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("GetByIndex on a stale entry (item deleted): %v, want ErrNotFound", err)
	}
	if _, err := f.members.GetByIndex(c, table.Query{PK: "MEMBER#m1"}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("GetByIndex on the table: %v", err)
	}
}
