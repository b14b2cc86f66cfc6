package table_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// pdoc is a document with a small state and a large body: the shape of
// items read only to check a field.
type pdoc struct {
	ID     string          `dynamo:"id"`
	Status string          `dynamo:"status"`
	Owner  string          `dynamo:"owner"`
	Body   string          `dynamo:"body"`
	Read   table.ReadState `dynamo:"-"`
}

var (
	pdocDef    = table.Def[pdoc]{Type: "PDoc", Keys: table.Template{PK: "DOC#{id}", SK: "DOC"}, IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "OWNER#{owner}", SK: "DOC#{id}"}}}
	pdocStatus = table.MustField[pdoc, string]("status")
	pdocOwner  = table.MustField[pdoc, string]("owner")
	pdocState  = table.Project(pdocStatus, pdocOwner)
)

func newProjFixture(t *testing.T) (*table.Entity[pdoc], *tabletest.RequestCounter, *tabletest.ResponseBytes) {
	t.Helper()
	base := tabletest.NewTable(t, table.NewSchema("proj"))
	rc := &tabletest.RequestCounter{Capacity: true}
	bi := &tabletest.ResponseBytes{}
	tbl := table.New(tabletest.NewClient(t, rc.Option(), bi.Option()), base.Schema(),
		func(o *table.Options) { o.CursorKey = []byte("projection test cursor key, 32b!") })
	return table.NewEntity(tbl, pdocDef), rc, bi
}

// TestProjectionGet: a projected Get fetches the named fields (and the
// engine's own attributes) only, and reports the bytes and capacity of a
// whole and a projected read of a 40 KB item.
func TestProjectionGet(t *testing.T) {
	t.Parallel()
	docs, rc, bi := newProjFixture(t)
	c := ctx(t)
	d := pdoc{ID: "d1", Status: "live", Owner: "u1", Body: strings.Repeat("x", 40<<10)}
	if err := docs.Create(c, &d); err != nil {
		t.Fatal(err)
	}
	k, _ := docs.KeyOf(&d)
	measure := func(opts ...table.ReadOption) (pdoc, float64, int64) {
		rc.Reset()
		bi.Reset()
		got, err := docs.Get(c, k, opts...)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := rc.Consumed()
		return got, r, bi.Bytes()
	}
	whole, wholeRCU, wholeBytes := measure(table.Consistent())
	part, partRCU, partBytes := measure(table.Consistent(), pdocState.Read())
	if whole.Body != d.Body || whole.Read.Partial() {
		t.Errorf("whole read: body %d bytes, partial %v", len(whole.Body), whole.Read.Partial())
	}
	if part.Status != "live" || part.Owner != "u1" || part.Body != "" || !part.Read.Partial() {
		t.Errorf("projected read = status %q owner %q body %d bytes partial %v, want live, u1, 0, true", part.Status, part.Owner, len(part.Body), part.Read.Partial())
	}
	t.Logf("GetItem of a 40 KB item, consistent: whole %d bytes %.1f RCU; projected (status, owner) %d bytes %.1f RCU", wholeBytes, wholeRCU, partBytes, partRCU)
	if partBytes*50 > wholeBytes {
		t.Errorf("projected read returned %d bytes, whole %d: want under 2%%", partBytes, wholeBytes)
	}
}

// TestProjectionList: a projected List returns partial items with the
// named fields, and its cursor continues.
func TestProjectionList(t *testing.T) {
	t.Parallel()
	docs, _, _ := newProjFixture(t)
	c := ctx(t)
	for _, id := range []string{"a", "b", "c"} {
		if err := docs.Create(c, &pdoc{ID: id, Status: "s-" + id, Owner: "u1", Body: "long body"}); err != nil {
			t.Fatal(err)
		}
	}
	q := table.Query{Index: table.GSI1, PK: "OWNER#u1"}
	p1, err := docs.List(c, q, pdocState.List(), table.Limit(2))
	if err != nil {
		t.Fatal(err)
	}
	p2, err := docs.List(c, q, pdocState.List(), table.After(p1.Cursor))
	if err != nil {
		t.Fatal(err)
	}
	items := append(p1.Items, p2.Items...)
	if len(items) != 3 {
		t.Fatalf("%d items over two pages, want 3", len(items))
	}
	for _, it := range items {
		if it.Status != "s-"+it.ID || it.Body != "" || !it.Read.Partial() {
			t.Errorf("item %s = status %q body %q partial %v", it.ID, it.Status, it.Body, it.Read.Partial())
		}
	}
}

// TestProjectionRefusesWriteBack: every whole-item write of a partial
// item fails with ErrPartialItem and sends no request; the stored item
// keeps its body.
func TestProjectionRefusesWriteBack(t *testing.T) {
	t.Parallel()
	docs, rc, _ := newProjFixture(t)
	c := ctx(t)
	d := pdoc{ID: "d1", Status: "live", Owner: "u1", Body: "the whole body"}
	if err := docs.Create(c, &d); err != nil {
		t.Fatal(err)
	}
	k, _ := docs.KeyOf(&d)
	part, err := docs.Get(c, k, pdocState.Read())
	if err != nil {
		t.Fatal(err)
	}
	part.Status = "archived"
	rc.Reset()
	for name, write := range map[string]func() error{
		"Put":     func() error { p := part; return docs.Put(c, &p) },
		"Replace": func() error { p := part; return docs.Replace(c, &p) },
		"Upsert":  func() error { p := part; return docs.Upsert(c, &p) },
		"Create":  func() error { p := part; return docs.Create(c, &p) },
		"PutOp":   func() error { p := part; _, err := docs.PutOp(&p); return err },
		"BatchPut": func() error {
			p := part
			return docs.BatchPut(c, []*pdoc{&p})
		},
	} {
		if err := write(); !errors.Is(err, table.ErrPartialItem) {
			t.Errorf("%s of a partial item: %v, want ErrPartialItem", name, err)
		}
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("refused writes sent %d requests (%v), want 0", n, rc.Ops())
	}
	// What the caller may do: write the change.
	if _, err := docs.Change(c, k, table.Set(pdocStatus, "archived")); err != nil {
		t.Fatal(err)
	}
	got, err := docs.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	if got.Body != "the whole body" || got.Status != "archived" {
		t.Errorf("stored = status %q body %q, want archived and the whole body", got.Status, got.Body)
	}
	// A whole read again writes back.
	got.Owner = "u2"
	if err := docs.Replace(c, &got); err != nil {
		t.Errorf("replace of a whole read: %v", err)
	}
}

// plain has no ReadState field: it cannot carry the partial mark.
type plain struct {
	ID     string `dynamo:"id"`
	Status string `dynamo:"status"`
}

// TestProjectionNeedsReadState: a projection on a type that cannot be
// marked partial is refused before any request.
func TestProjectionNeedsReadState(t *testing.T) {
	t.Parallel()
	docs, rc, _ := newProjFixture(t)
	plains := table.NewEntity(docs.Table(), table.Def[plain]{Type: "Plain", Keys: table.Template{PK: "PLAIN#{id}", SK: "P"}})
	st := table.Project(table.MustField[plain, string]("status"))
	rc.Reset()
	_, err := plains.Get(context.Background(), table.Key{PK: "PLAIN#x", SK: "P"}, st.Read())
	if !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("projected get of a type without ReadState: %v, want ErrInvalidInput", err)
	}
	if rc.Total() != 0 {
		t.Errorf("sent %d requests, want 0", rc.Total())
	}
}

// pnote is a second entity type in a document's partition: the item
// collection DOC#{id} holds the document and its notes.
type pnote struct {
	Doc    string          `dynamo:"doc"`
	ID     string          `dynamo:"id"`
	Status string          `dynamo:"status"`
	Text   string          `dynamo:"text"`
	Read   table.ReadState `dynamo:"-"`
}

var (
	pnoteDef    = table.Def[pnote]{Type: "PNote", Keys: table.Template{PK: "DOC#{doc}", SK: "NOTE#{id}"}}
	pnoteStatus = table.MustField[pnote, string]("status")
	pnoteState  = table.Project(pnoteStatus)
)

// TestProjectionCollection: a collection read whose handlers project
// (Projection.Into) fetches only their fields in one Query, returns
// partial items that a whole write refuses with ErrPartialItem (no
// request sent), and reports the bytes and capacity of a whole and a
// projected read of a document and its notes. A mix of projected and
// whole handlers, or a List projection on the query, is refused before
// any request.
func TestProjectionCollection(t *testing.T) {
	t.Parallel()
	docs, rc, bi := newProjFixture(t)
	notes := table.NewEntity(docs.Table(), pnoteDef)
	c := ctx(t)
	if err := docs.Create(c, &pdoc{ID: "d1", Status: "live", Owner: "u1", Body: strings.Repeat("b", 8<<10)}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"n1", "n2", "n3"} {
		if err := notes.Create(c, &pnote{Doc: "d1", ID: id, Status: "open", Text: strings.Repeat("t", 4<<10)}); err != nil {
			t.Fatal(err)
		}
	}
	q := table.Query{PK: "DOC#d1", Consistent: true}
	type read struct {
		doc   pdoc
		notes []pnote
		rcu   float64
		bytes int64
	}
	collect := func(project bool) read {
		t.Helper()
		var r read
		hd := table.Into(docs, func(d pdoc) { r.doc = d })
		hn := table.Into(notes, func(n pnote) { r.notes = append(r.notes, n) })
		if project {
			hd = pdocState.Into(docs, func(d pdoc) { r.doc = d })
			hn = pnoteState.Into(notes, func(n pnote) { r.notes = append(r.notes, n) })
		}
		rc.Reset()
		bi.Reset()
		if _, err := docs.Table().ReadCollection(c, q, hd, hn); err != nil {
			t.Fatal(err)
		}
		if n := rc.Total(); n != 1 {
			t.Errorf("collection read sent %d requests (%v), want 1 Query", n, rc.Ops())
		}
		r.rcu, _ = rc.Consumed()
		r.bytes = bi.Bytes()
		return r
	}
	whole, part := collect(false), collect(true)
	if len(whole.doc.Body) != 8<<10 || whole.doc.Read.Partial() || len(whole.notes) != 3 || whole.notes[0].Text == "" || whole.notes[0].Read.Partial() {
		t.Errorf("whole read: body %d bytes partial %v, %d notes", len(whole.doc.Body), whole.doc.Read.Partial(), len(whole.notes))
	}
	if part.doc.Status != "live" || part.doc.Owner != "u1" || part.doc.Body != "" || !part.doc.Read.Partial() {
		t.Errorf("projected doc = status %q owner %q body %d bytes partial %v, want live, u1, 0, true", part.doc.Status, part.doc.Owner, len(part.doc.Body), part.doc.Read.Partial())
	}
	if len(part.notes) != 3 {
		t.Fatalf("projected read: %d notes, want 3", len(part.notes))
	}
	for _, n := range part.notes {
		if n.Doc != "d1" || n.ID == "" || n.Status != "open" || n.Text != "" || !n.Read.Partial() {
			t.Errorf("projected note = %s/%s status %q text %d bytes partial %v", n.Doc, n.ID, n.Status, len(n.Text), n.Read.Partial())
		}
	}
	t.Logf("Query of a document (8 KB) and 3 notes (4 KB each), consistent: whole %d bytes %.1f RCU; projected (doc: status, owner; notes: status) %d bytes %.1f RCU",
		whole.bytes, whole.rcu, part.bytes, part.rcu)
	if part.bytes*20 > whole.bytes {
		t.Errorf("projected collection returned %d bytes, whole %d: want under 5%%", part.bytes, whole.bytes)
	}

	// A partial item from the collection is never written back whole.
	rc.Reset()
	d, n := part.doc, part.notes[0]
	if err := docs.Put(c, &d); !errors.Is(err, table.ErrPartialItem) {
		t.Errorf("Put of a partial document: %v, want ErrPartialItem", err)
	}
	if err := notes.Replace(c, &n); !errors.Is(err, table.ErrPartialItem) {
		t.Errorf("Replace of a partial note: %v, want ErrPartialItem", err)
	}
	if got := rc.Total(); got != 0 {
		t.Errorf("refused writes sent %d requests, want 0", got)
	}
	stored, err := docs.Get(c, table.Key{PK: "DOC#d1", SK: "DOC"})
	if err != nil || len(stored.Body) != 8<<10 {
		t.Errorf("stored document: body %d bytes, %v; want the whole body", len(stored.Body), err)
	}

	// Refused before any request: a mix, a List projection on the query.
	rc.Reset()
	for name, hs := range map[string][]table.Handler{
		"mixed": {pdocState.Into(docs, func(pdoc) {}), table.Into(notes, func(pnote) {})},
	} {
		if _, err := docs.Table().ReadCollection(c, q, hs...); !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: %v, want ErrInvalidInput", name, err)
		}
	}
	o, err := table.NewListOptions(pnoteState.List())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := docs.Table().ReadCollection(c, o.Apply(q), table.Into(notes, func(pnote) {})); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("List projection on a collection query: %v, want ErrInvalidInput", err)
	}
	if got := rc.Total(); got != 0 {
		t.Errorf("refused collection reads sent %d requests, want 0", got)
	}
}
