package table_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestDeclaredSoftDelete: a declared SoftDelete takes the key alone and
// sends what Update sends (a consistent GetItem and one UpdateItem),
// storing the change fixed at declaration (a status, deletedAt from the
// clock it captures) although the changed item is no longer live; a
// deleted item (d.Live refuses it) is ErrNotFound ("deleted: not
// found") after the read with no write, as is a missing one and another
// tenant's through a view; a bad key (Check's rule, the key's own) is a
// *ValidationError with no request; Writes lists it as a SoftDelete and
// Ops as one op of its ID.
func TestDeclaredSoftDelete(t *testing.T) {
	t.Parallel()
	rec := &recordCalls{}
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("declaredsoftdelete")).Schema(),
		func(o *table.Options) { o.Tracer = rec })
	e := table.NewEntity(tb, dfdocDef)
	key := func(r pwref) dfdoc { return dfdoc{Owner: r.Owner, ID: r.ID} }
	ticks := 0
	now := func() string { ticks++; return fmt.Sprintf("2026-11-29T14:%02d:00Z", ticks) } // the store's clock
	live := func(d *dfdoc) bool { return d.DeletedAt == "" }
	remove := func(d *dfdoc) error { d.Status, d.DeletedAt = "deleted", now(); return nil }
	del := table.SoftDelete(e, table.WriteDef[dfdoc]{ID: "F-5", Name: "docs.Docs.Delete", Doc: "Soft-deletes a document.",
		Live: live, LiveField: "deletedAt",
		Check: func(d *dfdoc) error {
			if d.ID == "reserved" {
				return table.Invalid("id", "reserved")
			}
			return nil
		}}, key, remove)
	delAnn := table.SoftDelete(e.In("ann"), table.WriteDef[dfdoc]{ID: "F-6", Name: "docs.AnnDocs.Delete", Doc: "Soft-deletes one of ann's documents.",
		Live: live, LiveField: "deletedAt"}, key, remove)
	c := ctx(t)

	for _, d := range []*dfdoc{{Owner: "ann", ID: "d1", Status: "draft"}, {Owner: "ann", ID: "d2", Status: "final"},
		{Owner: "bob", ID: "d3", Status: "draft"}} {
		if err := e.Create(c, d); err != nil {
			t.Fatal(err)
		}
	}
	rc.Reset()
	if err := del(c, pwref{"ann", "d1"}); err != nil {
		t.Fatalf("Delete of a live document = %v", err)
	}
	if diff := cmp.Diff(map[string]int{"GetItem": 1, "UpdateItem": 1}, rc.Ops()); diff != "" {
		t.Errorf("Delete sent (-want +got):\n%s", diff)
	}
	got, err := e.Decode(tabletest.RawItem(t, tb, table.Key{PK: "OWNER#ann", SK: "DOC#d1"}))
	if want := (dfdoc{Owner: "ann", ID: "d1", Status: "deleted", DeletedAt: "2026-11-29T14:01:00Z"}); err != nil || got != want {
		t.Errorf("stored after Delete %+v, %v; want %+v (the change's status and the clock's deletedAt)", got, err, want)
	}
	if err := delAnn(c, pwref{"ann", "d2"}); err != nil {
		t.Errorf("Delete through ann's view of her document = %v", err)
	}
	if got, err := e.Get(c, table.Key{PK: "OWNER#ann", SK: "DOC#d2"}); err != nil || got.DeletedAt != "2026-11-29T14:02:00Z" {
		t.Errorf("stored after ann's Delete %+v, %v; want deletedAt of the second tick", got, err)
	}

	for name, call := range map[string]func() error{
		"Delete of a deleted document":           func() error { return del(c, pwref{"ann", "d1"}) },
		"Delete of a missing document":           func() error { return del(c, pwref{"ann", "gone"}) },
		"Delete through ann's view of bob's one": func() error { return delAnn(c, pwref{"bob", "d3"}) },
	} {
		reads, writes := rc.Of("GetItem"), rc.Of("UpdateItem")
		if err := call(); !errors.Is(err, table.ErrNotFound) || rc.Of("GetItem") != reads+1 || rc.Of("UpdateItem") != writes {
			t.Errorf("%s = %v after %d reads, %d writes; want ErrNotFound after one read, no write", name, err,
				rc.Of("GetItem")-reads, rc.Of("UpdateItem")-writes)
		}
	}
	if err := del(c, pwref{"ann", "d1"}); err == nil || !containsAll(err.Error(), "deleted: ", "not found") {
		t.Errorf("Delete of a deleted document = %v, want one saying deleted and not found", err)
	}
	if ticks != 2 {
		t.Errorf("the change ran %d times, want 2 (never on a deleted, missing or foreign item)", ticks)
	}
	if got, err := e.Get(c, table.Key{PK: "OWNER#bob", SK: "DOC#d3"}); err != nil || got.DeletedAt != "" || got.Status != "draft" {
		t.Errorf("bob's document after ann's Delete of it = %+v, %v; want it untouched", got, err)
	}

	for name, bad := range map[string]struct {
		id    pwref
		field string
	}{
		"an empty ID":     {pwref{"ann", ""}, "id"},
		"an empty owner":  {pwref{"", "d1"}, "owner"},
		"Check's refusal": {pwref{"ann", "reserved"}, "id"},
	} {
		n := rc.Total()
		var ve *table.ValidationError
		if err := del(c, bad.id); !errors.As(err, &ve) || ve.Field != bad.field || rc.Total() != n {
			t.Errorf("Delete with %s = %v after %d requests, want a *ValidationError naming %s and none", name, err, rc.Total()-n, bad.field)
		}
	}

	if diff := cmp.Diff(map[string]int{"F-5 docs.Docs.Delete": 7, "F-6 docs.AnnDocs.Delete": 2}, dfCalls(rec)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	wantWrites := []table.WriteInfo{
		{ID: "F-5", Name: "docs.Docs.Delete", Doc: "Soft-deletes a document.", Kind: "SoftDelete"},
		{ID: "F-6", Name: "docs.AnnDocs.Delete", Doc: "Soft-deletes one of ann's documents.", Kind: "SoftDelete"},
	}
	if diff := cmp.Diff(wantWrites, tb.Writes()); diff != "" {
		t.Errorf("Writes (-want +got):\n%s", diff)
	}
	for _, op := range []table.OpInfo{{ID: "F-5", Name: "docs.Docs.Delete"}, {ID: "F-6", Name: "docs.AnnDocs.Delete"}} {
		if ops := tb.Ops(); !slices.Contains(ops, op) {
			t.Errorf("Ops = %+v, want %+v in it", ops, op)
		}
	}
}

// TestSoftDeleteRequiresLive: a SoftDelete declared without
// WriteDef.Live panics at declaration, naming the write, and registers
// nothing (no write, no op): without Live it could not tell a deleted
// item, which must be not found, from a live one.
func TestSoftDeleteRequiresLive(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("softdeletelive")).Schema())
	e := table.NewEntity(tb, dfdocDef)
	func() {
		defer func() {
			if r, _ := recover().(string); !containsAll(r, "SoftDelete", "docs.Docs.Delete", "WriteDef.Live") {
				t.Errorf("declaring a SoftDelete without Live: panic %q, want one naming the write and WriteDef.Live", r)
			}
		}()
		table.SoftDelete(e, table.WriteDef[dfdoc]{ID: "F-7", Name: "docs.Docs.Delete", Doc: "Soft-deletes a document."},
			func(id string) dfdoc { return dfdoc{Owner: "ann", ID: id} }, func(d *dfdoc) error { d.DeletedAt = "now"; return nil })
	}()
	if w := tb.Writes(); len(w) != 0 {
		t.Errorf("Writes after a refused declaration = %+v, want none", w)
	}
	if ops := tb.Ops(); slices.ContainsFunc(ops, func(o table.OpInfo) bool { return o.Name == "docs.Docs.Delete" }) {
		t.Errorf("Ops after a refused declaration = %+v, want no docs.Docs.Delete", ops)
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("a refused declaration sent %d requests, want none", n)
	}
}
