package table_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// avTitle is an argument type that checks itself: an UpdateWith whose
// argument is an avTitle runs its Validate with no code of its own.
type avTitle struct{ Text, Lang string }

// Validate refuses an empty text (a *table.ValidationError naming Text)
// and a language other than en or fr (a plain error).
func (a avTitle) Validate() error {
	switch {
	case a.Text == "":
		return table.Invalid("Text", "empty")
	case a.Lang != "en" && a.Lang != "fr":
		return errors.New("unknown language " + a.Lang)
	}
	return nil
}

// TestUpdateWithValidatingArgument: an UpdateWith argument whose type has
// a Validate() error method is checked by it before any request and
// before the key's checks: its *ValidationError is the call's as it is
// (naming its own field), another error is wrapped in a *ValidationError
// naming the declared field, a nil pointer argument is one (reason nil);
// a valid argument sends what Update sends (a consistent GetItem and one
// UpdateItem) and the change sets it.
func TestUpdateWithValidatingArgument(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("updatewithvalidate")).Schema())
	e := table.NewEntity(tb, dfdocDef)
	key := func(r pwref) dfdoc { return dfdoc{Owner: r.Owner, ID: r.ID} }
	retitle := table.UpdateWith(e, table.WriteDef[dfdoc]{ID: "V-1", Name: "docs.Docs.Retitle", Doc: "Sets a document's title."}, key,
		"title", func(d *dfdoc, a avTitle) error { d.Title = a.Text + " (" + a.Lang + ")"; return nil })
	retitleRef := table.UpdateWith(e, table.WriteDef[dfdoc]{ID: "V-2", Name: "docs.Docs.RetitleRef", Doc: "Sets a document's title."}, key,
		"title", func(d *dfdoc, a *avTitle) error { d.Title = a.Text; return nil })
	c := ctx(t)

	if err := e.Create(c, &dfdoc{Owner: "ann", ID: "d1", Status: "draft"}); err != nil {
		t.Fatal(err)
	}
	rc.Reset()
	got, err := retitle(c, pwref{"ann", "d1"}, avTitle{Text: "Notes", Lang: "en"})
	if err != nil || got.Title != "Notes (en)" {
		t.Fatalf("Retitle = %+v, %v; want title Notes (en)", got, err)
	}
	if diff := cmp.Diff(map[string]int{"GetItem": 1, "UpdateItem": 1}, rc.Ops()); diff != "" {
		t.Errorf("Retitle sent (-want +got):\n%s", diff)
	}
	if got, err := retitleRef(c, pwref{"ann", "d1"}, &avTitle{Text: "Plans", Lang: "fr"}); err != nil || got.Title != "Plans" {
		t.Errorf("RetitleRef = %+v, %v; want title Plans", got, err)
	}

	for name, call := range map[string]struct {
		do            func() error
		field, reason string
	}{
		"an empty text": {func() error { _, err := retitle(c, pwref{"ann", "d1"}, avTitle{Lang: "en"}); return err }, "Text", "empty"},
		"an empty text and an empty ID (the argument first)": {
			func() error { _, err := retitle(c, pwref{"ann", ""}, avTitle{Lang: "en"}); return err }, "Text", "empty"},
		"a plain error (wrapped, naming the declared field)": {
			func() error { _, err := retitle(c, pwref{"ann", "d1"}, avTitle{Text: "x", Lang: "de"}); return err }, "title", "unknown language de"},
		"a nil pointer": {func() error { _, err := retitleRef(c, pwref{"ann", "d1"}, nil); return err }, "title", "nil"},
		"a pointer to a bad one": {
			func() error { _, err := retitleRef(c, pwref{"ann", "d1"}, &avTitle{Text: "x"}); return err }, "title", "unknown language "},
	} {
		n := rc.Total()
		var ve *table.ValidationError
		if err := call.do(); !errors.As(err, &ve) || ve.Field != call.field || ve.Reason != call.reason || rc.Total() != n {
			t.Errorf("Retitle with %s = %v after %d requests, want a *ValidationError %s: %s and none", name, err, rc.Total()-n, call.field, call.reason)
		}
	}
	if got, err := e.Get(c, table.Key{PK: "OWNER#ann", SK: "DOC#d1"}); err != nil || got.Title != "Plans" {
		t.Errorf("stored after refused calls %+v, %v; want the last valid title, Plans", got, err)
	}
}
