package table_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// pwref names an owner's document by its two key parts: a declared
// write's key type K may be a small struct.
type pwref struct{ Owner, ID string }

// pwdoc is a document keyed by its owner and its ID.
type pwdoc struct {
	Owner  string `dynamo:"owner"`
	ID     string `dynamo:"id"`
	Status string `dynamo:"status"`
}

var pwdocDef = table.Def[pwdoc]{Type: "PWDoc", Keys: table.Template{PK: "OWNER#{owner}", SK: "DOC#{id}"}, Scope: "owner"}

// TestPatchWith: a declared Patch is one call named by its declaration
// that sends one UpdateItem with the change built from the call's key
// (and no read); a missing item is ErrNotFound; WriteDef.Check refuses a
// key with a *ValidationError naming its field before any request, on
// Patch, Update and Delete alike; a two-part key is a struct K; the table
// lists the write as kind Patch.
func TestPatchWith(t *testing.T) {
	t.Parallel()
	rec := &recordCalls{}
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("patchwith")).Schema(),
		func(o *table.Options) { o.Tracer = rec })
	e := table.NewEntity(tb, pwdocDef)
	key := func(r pwref) pwdoc { return pwdoc{Owner: r.Owner, ID: r.ID} }
	check := func(d *pwdoc) error {
		if len(d.ID) > 8 {
			return table.Invalid("docId", "at most 8 characters")
		}
		return nil
	}
	archive := table.PatchWith(e, table.WriteDef[pwdoc]{ID: "W-4", Name: "docs.Docs.Archive", Doc: "Archives a document.", Check: check}, key,
		func(r pwref) table.Patch { return table.Patch{Set: map[string]any{"status": "archived by " + r.Owner}} })
	update := table.Update(e, table.WriteDef[pwdoc]{ID: "W-2", Name: "docs.Docs.Update", Doc: "Changes a document.", Check: check}, key)
	del := table.Delete(e, table.WriteDef[pwdoc]{ID: "W-3", Name: "docs.Docs.Delete", Doc: "Deletes a document.", Check: check}, key)
	c := ctx(t)

	if err := e.Create(c, &pwdoc{Owner: "ann", ID: "d1", Status: "draft"}); err != nil {
		t.Fatal(err)
	}
	before := rc.Total()
	got, err := archive(c, pwref{"ann", "d1"})
	if err != nil || got.Status != "archived by ann" {
		t.Fatalf("Archive = %+v, %v; want status %q", got, err, "archived by ann")
	}
	if diff := cmp.Diff(map[string]int{"PutItem": 1, "UpdateItem": 1}, rc.Ops()); diff != "" || rc.Total()-before != 1 {
		t.Errorf("Archive sent %d requests, want one UpdateItem (-want +got):\n%s", rc.Total()-before, diff)
	}
	if _, err := archive(c, pwref{"ann", "d2"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Archive of a missing document = %v, want ErrNotFound", err)
	}

	for name, bad := range map[string]func() error{
		"Archive": func() error { _, err := archive(c, pwref{"ann", "too-long-id"}); return err },
		"Update": func() error {
			_, err := update(c, pwref{"ann", "too-long-id"}, func(*pwdoc) error { return nil })
			return err
		},
		"Delete": func() error { return del(c, pwref{"ann", "too-long-id"}) },
	} {
		before := rc.Total()
		var ve *table.ValidationError
		if err := bad(); !errors.As(err, &ve) || ve.Field != "docId" || rc.Total() != before {
			t.Errorf("%s by a key Check refuses = %v after %d requests, want a *ValidationError naming docId and none", name, err, rc.Total()-before)
		}
	}
	if err := del(c, pwref{"ann", "d1"}); err != nil {
		t.Fatal(err)
	}

	names := map[string]int{}
	for _, call := range rec.calls {
		names[call.Pattern+" "+call.Method]++
	}
	want := map[string]int{"W-4 docs.Docs.Archive": 3, "W-2 docs.Docs.Update": 1, "W-3 docs.Docs.Delete": 2}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if w := tb.Writes(); len(w) != 3 || !cmp.Equal(w[0], table.WriteInfo{ID: "W-4", Name: "docs.Docs.Archive", Doc: "Archives a document.", Kind: "Patch"}) {
		t.Errorf("Writes = %+v, want docs.Docs.Archive of kind Patch first", w)
	}
}
