package table_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// uwStatus is a document's status, an enumeration declared once: an
// UpdateWith whose argument is a uwStatus checks it with no code of its
// own.
type uwStatus string

var uwStatuses = table.NewEnum[uwStatus]("status", "draft", "final")

// uwdoc is an owner's document whose status a declared Update sets.
type uwdoc struct {
	Owner     string   `dynamo:"owner"`
	ID        string   `dynamo:"id"`
	Status    uwStatus `dynamo:"status"`
	Pinned    bool     `dynamo:"pinned"`
	DeletedAt string   `dynamo:"deletedAt,omitempty"`
}

var uwdocDef = table.Def[uwdoc]{Type: "UWDoc", Keys: table.Template{PK: "OWNER#{owner}", SK: "DOC#{id}"}, Scope: "owner"}

// TestUpdateWith: an Update declared with an argument is one call of its
// declaration that sends what Update sends (a consistent GetItem and one
// UpdateItem); the argument's declared check (an enumeration of NewEnum)
// refuses a bad one with a *ValidationError naming the declared field
// before any request, ahead of the key's own checks; an argument of a type
// that declares no check (bool) is taken as it is; Live applies as to
// Update; Rewrite writes the item back with no change, as Update does.
func TestUpdateWith(t *testing.T) {
	t.Parallel()
	rec := &recordCalls{}
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("updatewith")).Schema(),
		func(o *table.Options) { o.Tracer = rec })
	e := table.NewEntity(tb, uwdocDef)
	key := func(r pwref) uwdoc { return uwdoc{Owner: r.Owner, ID: r.ID} }
	live := func(d *uwdoc) bool { return d.DeletedAt == "" }
	setStatus := table.UpdateWith(e, table.WriteDef[uwdoc]{ID: "W-5", Name: "docs.Docs.SetStatus", Doc: "Sets a document's status.",
		Live: live, LiveField: "deletedAt"}, key,
		"docStatus", func(d *uwdoc, s uwStatus) error { d.Status = s; return nil })
	pin := table.UpdateWith(e.In("ann"), table.WriteDef[uwdoc]{ID: "W-6", Name: "docs.Docs.Pin", Doc: "Pins or unpins a document."}, key,
		"pinned", func(d *uwdoc, on bool) error { d.Pinned = on; return nil })
	rewrite := table.Rewrite(e, table.WriteDef[uwdoc]{ID: "W-7", Name: "docs.Docs.Rewrite", Doc: "Writes a document back."}, key)
	c := ctx(t)

	if err := e.Create(c, &uwdoc{Owner: "ann", ID: "d1", Status: "draft"}); err != nil {
		t.Fatal(err)
	}
	before := rc.Ops()
	got, err := setStatus(c, pwref{"ann", "d1"}, "final")
	if err != nil || got.Status != "final" {
		t.Fatalf("SetStatus = %+v, %v; want status final", got, err)
	}
	if diff := cmp.Diff(map[string]int{"PutItem": 1, "GetItem": 1, "UpdateItem": 1}, rc.Ops()); diff != "" {
		t.Errorf("SetStatus after a PutItem (%v) sent (-want +got):\n%s", before, diff)
	}
	if got, err := pin(c, pwref{"ann", "d1"}, true); err != nil || !got.Pinned || got.Status != "final" {
		t.Errorf("Pin = %+v, %v; want pinned, status kept", got, err)
	}
	if _, err := pin(c, pwref{"bob", "d1"}, true); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Pin through ann's view of bob's document = %v, want ErrNotFound", err)
	}

	for name, bad := range map[string]struct {
		call  func() error
		field string
	}{
		"an unknown status":                  {func() error { _, err := setStatus(c, pwref{"ann", "d1"}, "lost"); return err }, "docStatus"},
		"an unknown status and an empty key": {func() error { _, err := setStatus(c, pwref{"", ""}, "lost"); return err }, "docStatus"},
		"an empty key":                       {func() error { _, err := setStatus(c, pwref{"ann", ""}, "draft"); return err }, "id"},
	} {
		n := rc.Total()
		var ve *table.ValidationError
		if err := bad.call(); !errors.As(err, &ve) || ve.Field != bad.field || rc.Total() != n {
			t.Errorf("SetStatus with %s = %v after %d requests, want a *ValidationError naming %s and none", name, err, rc.Total()-n, bad.field)
		}
	}

	var ve *table.ValidationError
	if _, err := setStatus(c, pwref{"ann", "d1"}, "lost"); !errors.As(err, &ve) || len(ve.Allowed) != len(uwStatuses.Values()) {
		t.Errorf("SetStatus with an unknown status = %v, want the declared values %v listed", err, uwStatuses.Values())
	}
	if got, err := rewrite(c, pwref{"ann", "d1"}); err != nil || got.Status != "final" || !got.Pinned {
		t.Errorf("Rewrite = %+v, %v; want the document as stored", got, err)
	}
	if err := e.Put(c, &uwdoc{Owner: "ann", ID: "d1", Status: "final", DeletedAt: "2026-01-01"}); err != nil {
		t.Fatal(err)
	}
	writes := rc.Of("UpdateItem")
	if _, err := setStatus(c, pwref{"ann", "d1"}, "draft"); !errors.Is(err, table.ErrNotFound) || rc.Of("UpdateItem") != writes {
		t.Errorf("SetStatus of a soft-deleted document = %v (%d writes), want ErrNotFound and no write", err, rc.Of("UpdateItem")-writes)
	}

	names := map[string]int{}
	for _, call := range rec.calls {
		names[call.Pattern+" "+call.Method]++
	}
	want := map[string]int{"W-5 docs.Docs.SetStatus": 6, "W-6 docs.Docs.Pin": 2, "W-7 docs.Docs.Rewrite": 1}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	wantWrites := []table.WriteInfo{
		{ID: "W-5", Name: "docs.Docs.SetStatus", Doc: "Sets a document's status.", Kind: "Update"},
		{ID: "W-6", Name: "docs.Docs.Pin", Doc: "Pins or unpins a document.", Kind: "Update"},
		{ID: "W-7", Name: "docs.Docs.Rewrite", Doc: "Writes a document back.", Kind: "Update"},
	}
	if diff := cmp.Diff(wantWrites, tb.Writes()); diff != "" {
		t.Errorf("Writes (-want +got):\n%s", diff)
	}
}

// TestLiveOnUpdateOnly: a PatchWith or a Delete declaring WriteDef.Live
// panics at declaration, naming the write, and registers nothing: neither
// reads the item it writes, so it could not refuse a soft-deleted one. The
// same declaration without Live sends what it sent before (one UpdateItem,
// one DeleteItem).
func TestLiveOnUpdateOnly(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("liveonupdate")).Schema())
	e := table.NewEntity(tb, uwdocDef)
	key := func(r pwref) uwdoc { return uwdoc{Owner: r.Owner, ID: r.ID} }
	live := func(d *uwdoc) bool { return d.DeletedAt == "" }
	pinned := func(pwref) table.Patch { return table.Patch{Set: map[string]any{"pinned": true}} }
	panics := func(name string, declare func()) {
		t.Helper()
		defer func() {
			if r, _ := recover().(string); !containsAll(r, name, "WriteDef.Live", "Update only") {
				t.Errorf("declaring %s with Live: panic %q, want one naming it and WriteDef.Live", name, r)
			}
		}()
		declare()
	}
	panics("docs.Docs.Pin", func() {
		table.PatchWith(e, table.WriteDef[uwdoc]{ID: "W-8", Name: "docs.Docs.Pin", Doc: "Pins a document.", Live: live, LiveField: "deletedAt"}, key, pinned)
	})
	panics("docs.Docs.Delete", func() {
		table.Delete(e, table.WriteDef[uwdoc]{ID: "W-9", Name: "docs.Docs.Delete", Doc: "Deletes a document.", Live: live, LiveField: "deletedAt"}, key)
	})
	if w := tb.Writes(); len(w) != 0 {
		t.Errorf("Writes after refused declarations = %+v, want none", w)
	}

	pin := table.PatchWith(e, table.WriteDef[uwdoc]{ID: "W-8", Name: "docs.Docs.Pin", Doc: "Pins a document."}, key, pinned)
	del := table.Delete(e, table.WriteDef[uwdoc]{ID: "W-9", Name: "docs.Docs.Delete", Doc: "Deletes a document."}, key)
	c := ctx(t)
	if err := e.Create(c, &uwdoc{Owner: "ann", ID: "d1", Status: "draft"}); err != nil {
		t.Fatal(err)
	}
	if got, err := pin(c, pwref{"ann", "d1"}); err != nil || !got.Pinned {
		t.Fatalf("Pin = %+v, %v", got, err)
	}
	if err := del(c, pwref{"ann", "d1"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"PutItem": 1, "UpdateItem": 1, "DeleteItem": 1}, rc.Ops()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// containsAll reports whether s contains every one of subs.
func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
