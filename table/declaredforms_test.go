package table_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// dfdoc is an owner's document written by the declared forms Upsert,
// BatchPut and Apply.
type dfdoc struct {
	Owner     string `dynamo:"owner"`
	ID        string `dynamo:"id"`
	Status    string `dynamo:"status"`
	Title     string `dynamo:"title,omitempty"`
	DeletedAt string `dynamo:"deletedAt,omitempty"`
}

var dfdocDef = table.Def[dfdoc]{Type: "DFDoc", Keys: table.Template{PK: "OWNER#{owner}", SK: "DOC#{id}"}, Scope: "owner"}

// dfDraft is the declarations' Before: a document's first status.
func dfDraft(d *dfdoc) {
	if d.Status == "" {
		d.Status = "draft"
	}
}

// dfCalls counts rec's calls by "ID Name".
func dfCalls(rec *recordCalls) map[string]int {
	names := map[string]int{}
	for _, call := range rec.calls {
		names[call.Pattern+" "+call.Method]++
	}
	return names
}

// TestDeclaredUpsert: a declared Upsert is one call of its declaration
// that sends what Entity.Upsert sends (a consistent GetItem, then a
// PutItem for a missing item or an UpdateItem for a stored one, which
// keeps an attribute the Go type does not write), after Before; a bad key
// is a *ValidationError with no request; Table.Writes lists it as an
// Upsert.
func TestDeclaredUpsert(t *testing.T) {
	t.Parallel()
	rec := &recordCalls{}
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("declaredupsert")).Schema(),
		func(o *table.Options) { o.Tracer = rec })
	e := table.NewEntity(tb, dfdocDef)
	save := table.Upsert(e, table.WriteDef[dfdoc]{ID: "F-1", Name: "docs.Docs.Save", Doc: "Saves a document.", Before: dfDraft})
	c := ctx(t)

	d := &dfdoc{Owner: "ann", ID: "d1", Title: "first"}
	if err := save(c, d); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"GetItem": 1, "PutItem": 1}, rc.Ops()); diff != "" {
		t.Errorf("Save of a missing document sent (-want +got):\n%s", diff)
	}
	if d.Status != "draft" {
		t.Errorf("Save left status %q, want Before's draft", d.Status)
	}
	if got, err := e.Get(c, table.Key{PK: "OWNER#ann", SK: "DOC#d1"}); err != nil || got.Status != "draft" || got.Title != "first" {
		t.Errorf("stored %+v, %v; want status draft, title first", got, err)
	}

	if _, err := tb.Client().UpdateItem(c, &dynamodb.UpdateItemInput{TableName: aws.String(tb.Schema().Name),
		Key:              map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "OWNER#ann"}, "SK": &types.AttributeValueMemberS{Value: "DOC#d1"}},
		UpdateExpression: aws.String("SET note = :n"), ExpressionAttributeValues: map[string]types.AttributeValue{":n": &types.AttributeValueMemberS{Value: "kept"}},
	}); err != nil { // another writer's attribute
		t.Fatal(err)
	}
	rc.Reset()
	if err := save(c, &dfdoc{Owner: "ann", ID: "d1", Status: "final", Title: "second"}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"GetItem": 1, "UpdateItem": 1}, rc.Ops()); diff != "" {
		t.Errorf("Save of a stored document sent (-want +got):\n%s", diff)
	}
	raw := tabletest.RawItem(t, tb, table.Key{PK: "OWNER#ann", SK: "DOC#d1"})
	if got, err := e.Decode(raw); err != nil || got.Status != "final" || got.Title != "second" || raw["note"] == nil {
		t.Errorf("stored %+v (note %v), %v; want status final, title second, note kept", got, raw["note"], err)
	}

	for name, bad := range map[string]*dfdoc{"an empty ID": {Owner: "ann"}, "an empty owner": {ID: "d2"}} {
		n := rc.Total()
		var ve *table.ValidationError
		if err := save(c, bad); !errors.As(err, &ve) || rc.Total() != n {
			t.Errorf("Save with %s = %v after %d requests, want a *ValidationError and none", name, err, rc.Total()-n)
		}
	}

	if diff := cmp.Diff(map[string]int{"F-1 docs.Docs.Save": 4}, dfCalls(rec)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]table.WriteInfo{{ID: "F-1", Name: "docs.Docs.Save", Doc: "Saves a document.", Kind: "Upsert"}}, tb.Writes()); diff != "" {
		t.Errorf("Writes (-want +got):\n%s", diff)
	}
	if ops := tb.Ops(); !slices.Contains(ops, table.OpInfo{ID: "F-1", Name: "docs.Docs.Save"}) {
		t.Errorf("Ops = %+v, want docs.Docs.Save of F-1 in it", ops)
	}
}

// TestDeclaredBatchPut: a declared BatchPut is one call of its
// declaration that writes its items with BatchWriteItem, 25 a request,
// after Before on each; a bad item (an empty key, a nil item) is a
// *ValidationError with no request, two items of one key
// ErrDuplicateItem with none; items the store keeps returning
// unprocessed end in a *BatchError listing them; Writes lists it as a
// BatchPut.
func TestDeclaredBatchPut(t *testing.T) {
	t.Parallel()
	rec := &recordCalls{}
	rc := &tabletest.RequestCounter{}
	tt := tabletest.NewTable(t, table.NewSchema("declaredbatchput"))
	tb := table.New(tabletest.NewClient(t, rc.Option()), tt.Schema(), func(o *table.Options) { o.Tracer = rec })
	putAll := table.BatchPut(table.NewEntity(tb, dfdocDef), table.WriteDef[dfdoc]{ID: "F-2", Name: "docs.Docs.PutAll",
		Doc: "Stores documents.", Before: dfDraft})
	c := ctx(t)

	docs := make([]*dfdoc, 30)
	for i := range docs {
		docs[i] = &dfdoc{Owner: "ann", ID: fmt.Sprintf("d%02d", i)}
	}
	docs[7].Status = "final"
	if err := putAll(c, docs...); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"BatchWriteItem": 2}, rc.Ops()); diff != "" {
		t.Errorf("PutAll of 30 documents sent (-want +got):\n%s", diff)
	}
	page, err := table.NewEntity(tb, dfdocDef).List(c, table.Query{PK: "OWNER#ann"})
	if err != nil || len(page.Items) != 30 {
		t.Fatalf("List after PutAll = %d items, %v; want 30", len(page.Items), err)
	}
	for _, d := range page.Items {
		if want := map[bool]string{true: "final", false: "draft"}[d.ID == "d07"]; d.Status != want {
			t.Errorf("stored %s with status %q, want %q (Before on each item, a set status kept)", d.ID, d.Status, want)
		}
	}

	for name, bad := range map[string][]*dfdoc{
		"an empty ID":     {{Owner: "ann", ID: "x1"}, {Owner: "ann"}},
		"a nil item":      {{Owner: "ann", ID: "x1"}, nil},
		"an empty owner":  {{ID: "x2"}},
		"a bad one of 26": append(docs[:25:25], &dfdoc{Owner: "ann", ID: ""}),
	} {
		n := rc.Total()
		var ve *table.ValidationError
		if err := putAll(c, bad...); !errors.As(err, &ve) || rc.Total() != n {
			t.Errorf("PutAll with %s = %v after %d requests, want a *ValidationError and none", name, err, rc.Total()-n)
		}
	}

	n := rc.Total()
	if err := putAll(c, &dfdoc{Owner: "ann", ID: "x1"}, &dfdoc{Owner: "ann", ID: "x1"}); !errors.Is(err, table.ErrDuplicateItem) || rc.Total() != n {
		t.Errorf("PutAll with a key twice = %v after %d requests, want ErrDuplicateItem and none", err, rc.Total()-n)
	}

	stuck := table.New(tabletest.NewClient(t, (&tabletest.Unprocessed{Fraction: 1, RoundUp: true}).Option()), tt.Schema(),
		func(o *table.Options) { o.MaxBatchAttempts, o.BatchBackoff = 2, time.Millisecond })
	putStuck := table.BatchPut(table.NewEntity(stuck, dfdocDef), table.WriteDef[dfdoc]{ID: "F-2", Name: "docs.Docs.PutAll", Doc: "Stores documents."})
	var be *table.BatchError
	if err := putStuck(c, &dfdoc{Owner: "bob", ID: "s1"}, &dfdoc{Owner: "bob", ID: "s2"}); !errors.As(err, &be) ||
		!errors.Is(err, table.ErrUnprocessed) || len(be.Keys) != 2 || len(be.Written) != 0 {
		t.Errorf("PutAll never processed = %v, want a *BatchError listing both keys not written", err)
	}

	if diff := cmp.Diff(map[string]int{"F-2 docs.Docs.PutAll": 6}, dfCalls(rec)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]table.WriteInfo{{ID: "F-2", Name: "docs.Docs.PutAll", Doc: "Stores documents.", Kind: "BatchPut"}}, tb.Writes()); diff != "" {
		t.Errorf("Writes (-want +got):\n%s", diff)
	}
}

// TestDeclaredApply: an Update whose change is fixed at declaration
// (Apply) takes the key alone and sends what Update sends (a consistent
// GetItem and one UpdateItem), returning the item as written; a missing
// item is ErrNotFound after the read and no write, as is another tenant's
// through a view and a soft-deleted one under Live; the change's error is
// the call's, with no write; a bad key (Check's rule, the key's own) is a
// *ValidationError with no request; Writes lists it as an Update.
func TestDeclaredApply(t *testing.T) {
	t.Parallel()
	rec := &recordCalls{}
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("declaredapply")).Schema(),
		func(o *table.Options) { o.Tracer = rec })
	e := table.NewEntity(tb, dfdocDef)
	key := func(r pwref) dfdoc { return dfdoc{Owner: r.Owner, ID: r.ID} }
	archive := table.Apply(e, table.WriteDef[dfdoc]{ID: "F-3", Name: "docs.Docs.Archive", Doc: "Archives a document.",
		Live: func(d *dfdoc) bool { return d.DeletedAt == "" }, LiveField: "deletedAt",
		Check: func(d *dfdoc) error {
			if d.ID == "reserved" {
				return table.Invalid("id", "reserved")
			}
			return nil
		}}, key, func(d *dfdoc) error { d.Status = "archived"; return nil })
	publish := table.Apply(e.In("ann"), table.WriteDef[dfdoc]{ID: "F-4", Name: "docs.Docs.Publish", Doc: "Publishes a draft."}, key,
		func(d *dfdoc) error {
			if d.Status != "draft" {
				return fmt.Errorf("publish %s: %w", d.ID, table.ErrConflict)
			}
			d.Status = "published"
			return nil
		})
	c := ctx(t)

	for _, d := range []*dfdoc{{Owner: "ann", ID: "d1", Status: "draft"}, {Owner: "bob", ID: "d2", Status: "draft"},
		{Owner: "ann", ID: "d3", Status: "draft", DeletedAt: "2026-01-01"}} {
		if err := e.Create(c, d); err != nil {
			t.Fatal(err)
		}
	}
	rc.Reset()
	got, err := publish(c, pwref{"ann", "d1"})
	if err != nil || got.Status != "published" {
		t.Fatalf("Publish = %+v, %v; want status published", got, err)
	}
	if diff := cmp.Diff(map[string]int{"GetItem": 1, "UpdateItem": 1}, rc.Ops()); diff != "" {
		t.Errorf("Publish sent (-want +got):\n%s", diff)
	}
	if got, err := archive(c, pwref{"ann", "d1"}); err != nil || got.Status != "archived" {
		t.Errorf("Archive = %+v, %v; want status archived", got, err)
	}

	for name, call := range map[string]func() error{
		"Archive of a missing document":           func() error { _, err := archive(c, pwref{"ann", "gone"}); return err },
		"Archive of a soft-deleted document":      func() error { _, err := archive(c, pwref{"ann", "d3"}); return err },
		"Publish through ann's view of bob's one": func() error { _, err := publish(c, pwref{"bob", "d2"}); return err },
	} {
		reads, writes := rc.Of("GetItem"), rc.Of("UpdateItem")
		if err := call(); !errors.Is(err, table.ErrNotFound) || rc.Of("GetItem") != reads+1 || rc.Of("UpdateItem") != writes {
			t.Errorf("%s = %v after %d reads, %d writes; want ErrNotFound after one read, no write", name, err,
				rc.Of("GetItem")-reads, rc.Of("UpdateItem")-writes)
		}
	}
	writes := rc.Of("UpdateItem")
	if _, err := publish(c, pwref{"ann", "d1"}); !errors.Is(err, table.ErrConflict) || rc.Of("UpdateItem") != writes {
		t.Errorf("Publish of an archived document = %v, want the change's ErrConflict and no write", err)
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
		if _, err := archive(c, bad.id); !errors.As(err, &ve) || ve.Field != bad.field || rc.Total() != n {
			t.Errorf("Archive with %s = %v after %d requests, want a *ValidationError naming %s and none", name, err, rc.Total()-n, bad.field)
		}
	}

	if diff := cmp.Diff(map[string]int{"F-3 docs.Docs.Archive": 6, "F-4 docs.Docs.Publish": 3}, dfCalls(rec)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	wantWrites := []table.WriteInfo{
		{ID: "F-3", Name: "docs.Docs.Archive", Doc: "Archives a document.", Kind: "Update"},
		{ID: "F-4", Name: "docs.Docs.Publish", Doc: "Publishes a draft.", Kind: "Update"},
	}
	if diff := cmp.Diff(wantWrites, tb.Writes()); diff != "" {
		t.Errorf("Writes (-want +got):\n%s", diff)
	}
}
