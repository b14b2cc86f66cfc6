package table_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// avPtrTitle checks itself only through a pointer: as an UpdateWith
// argument of type avPtrTitle (a value) its Validate would never run.
type avPtrTitle struct{ Text string }

// Validate refuses an empty text.
func (a *avPtrTitle) Validate() error {
	if a.Text == "" {
		return table.Invalid("Text", "empty")
	}
	return nil
}

// TestUpdateWithPointerValidate: an UpdateWith argument type whose
// Validate has a pointer receiver, taken by value, would pass unchecked,
// so declaring it panics, naming the argument and the way out, before
// anything is registered and with no request. Taken as a pointer, the
// same type is accepted and checked.
func TestUpdateWithPointerValidate(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("updatewithptrvalidate")).Schema())
	e := table.NewEntity(tb, dfdocDef)
	key := func(id string) dfdoc { return dfdoc{Owner: "ann", ID: id} }
	func() {
		defer func() {
			if r, _ := recover().(string); !containsAll(r, "title", "avPtrTitle", "pointer receiver", "*table_test.avPtrTitle") {
				t.Errorf("declaring a by-value argument whose Validate has a pointer receiver: panic %q, want one naming the argument, its type and the pointer form", r)
			}
		}()
		table.UpdateWith(e, table.WriteDef[dfdoc]{ID: "F-8", Name: "docs.Docs.Retitle", Doc: "Retitles a document."}, key, "title",
			func(d *dfdoc, a avPtrTitle) error { d.Status = a.Text; return nil })
	}()
	if w := tb.Writes(); len(w) != 0 {
		t.Errorf("Writes after a refused declaration = %+v, want none", w)
	}

	retitle := table.UpdateWith(e, table.WriteDef[dfdoc]{ID: "F-8", Name: "docs.Docs.Retitle", Doc: "Retitles a document."}, key, "title",
		func(d *dfdoc, a *avPtrTitle) error { d.Status = a.Text; return nil })
	var ve *table.ValidationError
	if _, err := retitle(t.Context(), "d1", &avPtrTitle{}); !errors.As(err, &ve) || ve.Field != "Text" {
		t.Errorf("Retitle with an empty title = %v, want a *ValidationError naming Text", err)
	}
	if w := tb.Writes(); len(w) != 1 || w[0].Name != "docs.Docs.Retitle" {
		t.Errorf("Writes after the pointer form = %+v, want docs.Docs.Retitle alone", w)
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("sent %d requests, want none (a refused declaration, a refused argument)", n)
	}
}
