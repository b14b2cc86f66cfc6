package table_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestLostResponseReplace (Entity.Replace's doc, "Under faults"): a
// replace whose response is lost once is retried by the SDK and succeeds
// (its write token); when every response is lost the call fails though
// the write was applied, and the caller's own retry of the same item gets
// ErrConflict on its own write (the stored item no longer matches the read
// image it carries). The caller tells by re-reading: the stored item equals
// what it meant to write.
func TestLostResponseReplace(t *testing.T) {
	t.Parallel()
	base := tabletest.NewTable(t, table.NewSchema("replacelost"))
	plain := table.NewEntity(base, fidelityDef)
	c := ctx(t)
	for _, id := range []string{"once", "always"} {
		if err := plain.Create(c, &fidelity{ID: id, Name: "before"}); err != nil {
			t.Fatal(err)
		}
	}

	once := &tabletest.LostResponses{Op: "UpdateItem", Times: 1}
	e1 := table.NewEntity(table.New(tabletest.NewClient(t, once.Option()), base.Schema()), fidelityDef)
	r, err := e1.Get(c, table.Key{PK: "FID#once", SK: "F"})
	if err != nil {
		t.Fatal(err)
	}
	r.Name = "after"
	if err := e1.Replace(c, &r); err != nil || once.Lost() != 1 || once.Calls() != 2 {
		t.Fatalf("Replace with one lost response = %v (lost %d of %d); want success after the SDK's retry", err, once.Lost(), once.Calls())
	}

	always := &tabletest.LostResponses{Op: "UpdateItem", Times: 100}
	e2 := table.NewEntity(table.New(tabletest.NewClient(t, always.Option()), base.Schema()), fidelityDef)
	k := table.Key{PK: "FID#always", SK: "F"}
	r, err = e2.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	r.Name = "after"
	if err := e2.Replace(c, &r); err == nil || errors.Is(err, table.ErrConflict) {
		t.Fatalf("Replace with every response lost = %v; want the transport's error", err)
	}
	stored, err := plain.Get(c, k)
	if err != nil || stored.Name != "after" {
		t.Fatalf("the lost write was not applied: %+v %v", stored, err)
	}
	// The caller retries the same item on a healthy client.
	if err := plain.Replace(c, &r); !errors.Is(err, table.ErrConflict) {
		t.Fatalf("the caller's retry = %v; want ErrConflict on its own write", err)
	}
	// How the caller tells: re-read; what is stored is what it wrote.
	stored, err = plain.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	r.Version = stored.Version // the version is the write's, not the caller's
	if d := cmp.Diff(r, stored); d != "" {
		t.Errorf("stored item differs from the intended one (-intended +stored):\n%s", d)
	}
}
