package table_test

import (
	"context"
	"errors"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// getItemLog records the GetItem inputs a client sends.
type getItemLog struct {
	mu  sync.Mutex
	ins []dynamodb.GetItemInput
}

func (l *getItemLog) option() func(*dynamodb.Options) {
	mw := middleware.InitializeMiddlewareFunc("peek_test.getItemLog",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			if g, ok := in.Parameters.(*dynamodb.GetItemInput); ok {
				l.mu.Lock()
				l.ins = append(l.ins, *g)
				l.mu.Unlock()
			}
			return next.HandleInitialize(ctx, in)
		})
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error { return st.Initialize.Add(mw, middleware.Before) })
	}
}

// last returns the last GetItem input sent, and forgets them all.
func (l *getItemLog) last(t *testing.T) dynamodb.GetItemInput {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ins) == 0 {
		t.Fatal("no GetItem sent")
	}
	in := l.ins[len(l.ins)-1]
	l.ins = nil
	return in
}

// projected returns the attribute names in's ProjectionExpression names, sorted.
func projected(in dynamodb.GetItemInput) []string {
	var out []string
	for _, n := range strings.Split(aws.ToString(in.ProjectionExpression), ", ") {
		out = append(out, in.ExpressionAttributeNames[n])
	}
	sort.Strings(out)
	return out
}

// pplain is pdoc without a ReadState: a projected Get refuses it, Peek
// reads it.
type pplain struct {
	ID     string  `dynamo:"id"`
	Status string  `dynamo:"status"`
	Owner  *string `dynamo:"owner"`
	Score  int64   `dynamo:"score"`
	Body   string  `dynamo:"body"`
}

var (
	pplainDef    = table.Def[pplain]{Type: "PPlain", Keys: table.Template{PK: "DOC#{id}", SK: "PLAIN"}}
	pplainStatus = table.MustField[pplain, string]("status")
	pplainOwner  = table.MustField[pplain, string]("owner")
	pplainScore  = table.MustField[pplain, int64]("score")
	pplainBody   = table.MustField[pplain, string]("body")
	pplainState  = table.Project(pplainStatus, pplainOwner, pplainScore)
)

func newPeekFixture(t *testing.T) (*table.Entity[pplain], *tabletest.RequestCounter, *tabletest.ResponseBytes, *getItemLog) {
	t.Helper()
	base := tabletest.NewTable(t, table.NewSchema("peek"))
	rc := &tabletest.RequestCounter{Capacity: true}
	bi := &tabletest.ResponseBytes{}
	gl := &getItemLog{}
	tbl := table.New(tabletest.NewClient(t, rc.Option(), bi.Option(), gl.option()), base.Schema(),
		func(o *table.Options) { o.CursorKey = []byte("peek test cursor key, 32 bytes!!") })
	return table.NewEntity(tbl, pplainDef), rc, bi, gl
}

// TestPeek: Peek returns the projected fields' values of a type without
// a ReadState in one strongly consistent GetItem that fetches only them
// and the engine's attributes: the request Table.GetOwner sends with the
// projection's attributes, and as many response bytes.
func TestPeek(t *testing.T) {
	t.Parallel()
	docs, rc, bi, gl := newPeekFixture(t)
	c := ctx(t)
	owner := "u1"
	d := pplain{ID: "d1", Status: "live", Owner: &owner, Body: strings.Repeat("x", 40<<10)}
	if err := docs.Create(c, &d); err != nil {
		t.Fatal(err)
	}
	k, _ := docs.KeyOf(&d)

	rc.Reset()
	bi.Reset()
	f, err := docs.Peek(c, k, pplainState)
	if err != nil {
		t.Fatal(err)
	}
	peekBytes, peekReq := bi.Bytes(), gl.last(t)
	if n := rc.Of("GetItem"); n != 1 || rc.Total() != 1 {
		t.Errorf("Peek sent %v, want one GetItem", rc.Ops())
	}
	if got := table.FieldValue(f, pplainStatus); got != "live" {
		t.Errorf("status = %q, want live", got)
	}
	if got := table.FieldValue(f, pplainOwner); got != "u1" {
		t.Errorf("owner = %q, want u1 (a *string field read as string)", got)
	}
	if got := table.FieldValue(f, pplainScore); got != 0 || !f.Has(pplainScore) || !f.Has(pplainStatus) {
		t.Errorf("score = %d, Has(score) %v, Has(status) %v; want 0 (stored), true, true", got, f.Has(pplainScore), f.Has(pplainStatus))
	}
	raw := tabletest.RawItem(t, docs.Table(), k)
	if v, _ := raw["_v"].(*types.AttributeValueMemberN); v == nil || strconv.FormatInt(f.Version(), 10) != v.Value {
		t.Errorf("Version() = %d, stored _v %v", f.Version(), raw["_v"])
	}

	// The request: strongly consistent, projected on the fields and the
	// engine's attributes, as GetOwner's with the projection's attributes.
	if !aws.ToBool(peekReq.ConsistentRead) {
		t.Error("Peek's GetItem is not strongly consistent")
	}
	want := []string{"PK", "SK", "_type", "_v", "owner", "score", "status", "ttl"}
	if got := projected(peekReq); !reflect.DeepEqual(got, want) {
		t.Errorf("Peek fetched %v, want %v", got, want)
	}
	bi.Reset()
	if _, err := docs.Table().GetOwner(c, k, true, pplainState.Attrs()...); err != nil {
		t.Fatal(err)
	}
	ownerBytes, ownerReq := bi.Bytes(), gl.last(t)
	if aws.ToString(peekReq.ProjectionExpression) != aws.ToString(ownerReq.ProjectionExpression) ||
		!reflect.DeepEqual(peekReq.ExpressionAttributeNames, ownerReq.ExpressionAttributeNames) ||
		!reflect.DeepEqual(peekReq.Key, ownerReq.Key) || aws.ToBool(ownerReq.ConsistentRead) != aws.ToBool(peekReq.ConsistentRead) {
		t.Errorf("Peek's GetItem %q %v differs from GetOwner's %q %v", aws.ToString(peekReq.ProjectionExpression), peekReq.ExpressionAttributeNames,
			aws.ToString(ownerReq.ProjectionExpression), ownerReq.ExpressionAttributeNames)
	}
	bi.Reset()
	if _, err := docs.Get(c, k, table.Consistent()); err != nil {
		t.Fatal(err)
	}
	wholeBytes := bi.Bytes()
	t.Logf("GetItem of a 40 KB item, consistent: whole %d bytes; Peek (status, owner, score) %d bytes; GetOwner of the same attributes %d bytes", wholeBytes, peekBytes, ownerBytes)
	if peekBytes != ownerBytes || peekBytes*50 > wholeBytes {
		t.Errorf("Peek returned %d bytes, GetOwner %d, whole %d: want equal, and under 2%% of the whole", peekBytes, ownerBytes, wholeBytes)
	}

	// An item another writer stored without owner and score: the view
	// reads their zero values, and Has tells them absent.
	k2 := table.Key{PK: "DOC#d2", SK: "PLAIN"}
	putRawItem(t, docs.Table(), table.Item{"PK": &types.AttributeValueMemberS{Value: k2.PK}, "SK": &types.AttributeValueMemberS{Value: k2.SK},
		"id": &types.AttributeValueMemberS{Value: "d2"}, "status": &types.AttributeValueMemberS{Value: "draft"}})
	f2, err := docs.Peek(c, k2, pplainState)
	if err != nil {
		t.Fatal(err)
	}
	if table.FieldValue(f2, pplainStatus) != "draft" || table.FieldValue(f2, pplainOwner) != "" || table.FieldValue(f2, pplainScore) != 0 ||
		f2.Has(pplainOwner) || f2.Has(pplainScore) || f2.Version() != 0 {
		t.Errorf("item without owner and score: status %q owner %q score %d, Has %v %v, version %d; want draft, zero values, absent, 0",
			table.FieldValue(f2, pplainStatus), table.FieldValue(f2, pplainOwner), table.FieldValue(f2, pplainScore), f2.Has(pplainOwner), f2.Has(pplainScore), f2.Version())
	}

	// A field outside the projection panics at its first read.
	for name, read := range map[string]func(){
		"FieldValue": func() { table.FieldValue(f, pplainBody) },
		"Has":        func() { f.Has(pplainBody) },
		"zero view":  func() { table.FieldValue(table.Fields[pplain]{}, pplainStatus) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || (name != "zero view" && !strings.Contains(r.(string), `"body"`)) {
					t.Errorf("%s of a field outside the projection: panic %v, want one naming body", name, r)
				}
			}()
			read()
		}()
	}
}

// TestPeekWorksWithReadState: Peek reads a type with a ReadState too (the
// projected Get's type), and the item it read stays whole in the table.
func TestPeekWorksWithReadState(t *testing.T) {
	t.Parallel()
	docs, _, _ := newProjFixture(t)
	c := ctx(t)
	d := pdoc{ID: "d1", Status: "live", Owner: "u1", Body: "the body"}
	if err := docs.Create(c, &d); err != nil {
		t.Fatal(err)
	}
	k, _ := docs.KeyOf(&d)
	f, err := docs.Peek(c, k, pdocState)
	if err != nil || table.FieldValue(f, pdocStatus) != "live" || table.FieldValue(f, pdocOwner) != "u1" {
		t.Fatalf("Peek = %q %q, %v; want live u1", table.FieldValue(f, pdocStatus), table.FieldValue(f, pdocOwner), err)
	}
	if got, err := docs.Get(c, k); err != nil || got.Body != "the body" {
		t.Errorf("stored body %q, %v", got.Body, err)
	}
}

// TestPeekNotFound: a missing item, one past its TTL and one of another
// entity type under the key are ErrNotFound, each after its one GetItem.
func TestPeekNotFound(t *testing.T) {
	t.Parallel()
	docs, rc, _, _ := newPeekFixture(t)
	c := ctx(t)
	tb := docs.Table()
	past := strconv.FormatInt(time.Now().Add(-time.Hour).Unix(), 10)
	putRawItem(t, tb, table.Item{"PK": &types.AttributeValueMemberS{Value: "DOC#old"}, "SK": &types.AttributeValueMemberS{Value: "PLAIN"},
		"_type": &types.AttributeValueMemberS{Value: "PPlain"}, "status": &types.AttributeValueMemberS{Value: "live"},
		"ttl": &types.AttributeValueMemberN{Value: past}})
	putRawItem(t, tb, table.Item{"PK": &types.AttributeValueMemberS{Value: "DOC#other"}, "SK": &types.AttributeValueMemberS{Value: "PLAIN"},
		"_type": &types.AttributeValueMemberS{Value: "PDoc"}, "status": &types.AttributeValueMemberS{Value: "live"}})
	for name, k := range map[string]table.Key{
		"missing":      {PK: "DOC#none", SK: "PLAIN"},
		"expired":      {PK: "DOC#old", SK: "PLAIN"},
		"another type": {PK: "DOC#other", SK: "PLAIN"},
	} {
		rc.Reset()
		f, err := docs.Peek(c, k, pplainState)
		if !errors.Is(err, table.ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", name, err)
		}
		if f.Version() != 0 {
			t.Errorf("%s: a view with version %d", name, f.Version())
		}
		if rc.Total() != 1 {
			t.Errorf("%s: sent %v, want one GetItem", name, rc.Ops())
		}
	}
}

// TestPeekRefusesBeforeRequest: the zero projection (no field) and an
// invalid key are ErrInvalidInput, and no request is sent. (A projection
// of another type does not compile: Peek takes a Projection[T].)
func TestPeekRefusesBeforeRequest(t *testing.T) {
	t.Parallel()
	docs, rc, _, _ := newPeekFixture(t)
	c := ctx(t)
	rc.Reset()
	for name, call := range map[string]func() error{
		"zero projection": func() error {
			_, err := docs.Peek(c, table.Key{PK: "DOC#d1", SK: "PLAIN"}, table.Projection[pplain]{})
			return err
		},
		"empty key": func() error { _, err := docs.Peek(c, table.Key{PK: "DOC#d1"}, pplainState); return err },
	} {
		if err := call(); !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: %v, want ErrInvalidInput", name, err)
		}
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("refused peeks sent %d requests (%v), want 0", n, rc.Ops())
	}
}
