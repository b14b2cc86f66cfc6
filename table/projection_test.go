package table_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

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

// bytesIn counts the response bytes a client receives.
type bytesIn struct{ n atomic.Int64 }

func (b *bytesIn) Do(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && resp.ContentLength > 0 {
		b.n.Add(resp.ContentLength)
	}
	return resp, err
}

func newProjFixture(t *testing.T) (*table.Entity[pdoc], *tabletest.RequestCounter, *bytesIn) {
	t.Helper()
	base := tabletest.NewTable(t, table.NewSchema("proj"))
	rc := &tabletest.RequestCounter{Capacity: true}
	bi := &bytesIn{}
	tbl := table.New(tabletest.NewClient(t, rc.Option(), func(o *dynamodb.Options) { o.HTTPClient = bi }), base.Schema(),
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
		bi.n.Store(0)
		got, err := docs.Get(c, k, opts...)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := rc.Consumed()
		return got, r, bi.n.Load()
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
