package table_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// wdoc is an owner's document, soft-deleted by stamping DeletedAt.
type wdoc struct {
	Owner     string `dynamo:"owner"`
	ID        string `dynamo:"id"`
	Status    string `dynamo:"status"`
	DeletedAt string `dynamo:"deletedAt,omitempty"`
}

var wdocDef = table.Def[wdoc]{Type: "WDoc", Keys: table.Template{PK: "DOC#{id}", SK: "DOC"}, Scope: "owner"}

// wdocs is a store type whose writes are declared: func fields, no
// methods.
type wdocs struct {
	Create func(context.Context, *wdoc) error
	Put    func(context.Context, *wdoc) error
	Update func(context.Context, string, func(*wdoc) error) (wdoc, error)
	Delete func(context.Context, string) error
}

func declareWdocs(w table.Writer[wdoc], e *table.Entity[wdoc]) wdocs {
	key := func(id string) wdoc { return wdoc{ID: id} }
	return wdocs{
		Create: table.Create(w, table.WriteDef[wdoc]{ID: "W-1", Name: "docs.Docs.Create", Doc: "Creates a document.",
			Before: func(d *wdoc) {
				if d.Status == "" {
					d.Status = "draft"
				}
			}}),
		Put: table.Put(e, table.WriteDef[wdoc]{ID: "W-1", Name: "docs.Docs.Put", Doc: "Stores a document.", Also: []string{"W-9"}}),
		Update: table.Update(w, table.WriteDef[wdoc]{ID: "W-2", Name: "docs.Docs.Update", Doc: "Changes a live document.",
			Live: func(d *wdoc) bool { return d.DeletedAt == "" }, LiveField: "deletedAt"}, key),
		Delete: table.Delete(w, table.WriteDef[wdoc]{ID: "W-3", Name: "docs.Docs.Delete", Doc: "Deletes a document."}, key),
	}
}

// TestDeclaredWrites: each declared write is one call named by its
// declaration that sends its entity method's requests alone; Before sets
// defaults inside the call; a bad key is a *ValidationError with no
// request; Live refuses a soft-deleted item (ErrNotFound, no write) and a
// change that ends an item; the table lists the writes once each, however
// often a view declares them.
func TestDeclaredWrites(t *testing.T) {
	t.Parallel()
	rec := &recordCalls{}
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("declaredwrites")).Schema(),
		func(o *table.Options) { o.Tracer = rec })
	e := table.NewEntity(tb, wdocDef)
	docs := declareWdocs(e, e)
	c := ctx(t)

	d := wdoc{Owner: "ann", ID: "d1"}
	if err := docs.Create(c, &d); err != nil || d.Status != "draft" {
		t.Fatalf("Create = %v, status %q; want nil, draft (Before's default)", err, d.Status)
	}
	if err := docs.Create(c, &d); !errors.Is(err, table.ErrAlreadyExists) {
		t.Fatalf("second Create = %v, want ErrAlreadyExists", err)
	}
	if got := rc.Ops(); !cmp.Equal(got, map[string]int{"PutItem": 2}) {
		t.Errorf("two Creates sent %v, want 2 PutItem", got)
	}

	for _, bad := range []func() error{
		func() error { _, err := docs.Update(c, "", func(*wdoc) error { return nil }); return err },
		func() error { return docs.Delete(c, "") },
	} {
		before := rc.Total()
		var ve *table.ValidationError
		if err := bad(); !errors.As(err, &ve) || rc.Total() != before {
			t.Errorf("a write by an empty ID = %v after %d requests, want a *ValidationError and none", err, rc.Total()-before)
		}
	}

	got, err := docs.Update(c, "d1", func(d *wdoc) error { d.Status = "final"; return nil })
	if err != nil || got.Status != "final" {
		t.Fatalf("Update = %+v, %v", got, err)
	}
	var ve *table.ValidationError
	if _, err := docs.Update(c, "d1", func(d *wdoc) error { d.DeletedAt = "now"; return nil }); !errors.As(err, &ve) || ve.Field != "deletedAt" {
		t.Errorf("an Update that soft-deletes = %v, want a *ValidationError naming deletedAt", err)
	}
	if err := docs.Put(c, &wdoc{Owner: "ann", ID: "d1", Status: "final", DeletedAt: "2026-01-01"}); err != nil {
		t.Fatal(err)
	}
	writes := rc.Of("UpdateItem")
	if _, err := docs.Update(c, "d1", func(d *wdoc) error { d.Status = "x"; return nil }); !errors.Is(err, table.ErrNotFound) || rc.Of("UpdateItem") != writes {
		t.Errorf("Update of a soft-deleted item = %v (%d writes), want ErrNotFound and no write", err, rc.Of("UpdateItem")-writes)
	}

	// Through one owner's view: another owner's item is not found.
	bob := declareWdocs(e.In("bob"), e)
	if err := bob.Delete(c, "d1"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("bob's Delete of ann's document = %v, want ErrNotFound", err)
	}
	if err := docs.Delete(c, "d1"); err != nil {
		t.Fatal(err)
	}
	if err := docs.Delete(c, "d1"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("second Delete = %v, want ErrNotFound", err)
	}

	names := map[string]int{}
	for _, call := range rec.calls {
		names[call.Pattern+" "+call.Method]++
	}
	want := map[string]int{"W-1 docs.Docs.Create": 2, "W-1 docs.Docs.Put": 1, "W-2 docs.Docs.Update": 4, "W-3 docs.Docs.Delete": 4}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	wantWrites := []table.WriteInfo{
		{ID: "W-1", Name: "docs.Docs.Create", Doc: "Creates a document.", Kind: "Create"},
		{ID: "W-1", Name: "docs.Docs.Put", Doc: "Stores a document.", Kind: "Put", Also: []string{"W-9"}},
		{ID: "W-2", Name: "docs.Docs.Update", Doc: "Changes a live document.", Kind: "Update"},
		{ID: "W-3", Name: "docs.Docs.Delete", Doc: "Deletes a document.", Kind: "Delete"},
	}
	if diff := cmp.Diff(wantWrites, tb.Writes()); diff != "" {
		t.Errorf("Writes (-want +got), each once though declared twice:\n%s", diff)
	}
	if n := len(tb.Ops()); n != 4 {
		t.Errorf("%d ops, want the 4 writes", n)
	}
}
