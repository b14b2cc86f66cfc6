package table_test

// The contract of TxOp.OnFail (what a canceled transaction means), each
// line against DynamoDB Local.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

var (
	errNoMember = errors.New("no such member")
	errNoNote   = errors.New("no such note")
)

// The action's error and the *TxError are both in the chain.
func TestTxOnFailWrapsBoth(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	check := f.t.ConditionOp(table.Key{PK: "MEMBER#ghost", SK: "PROFILE"}).OnFail(fmt.Errorf("member ghost: %w", table.ErrNotFound))
	ops, err := f.notes.CreateOp(&note{MemberID: "ghost", Seq: 1, Text: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	err = f.t.Transact(c, append([]table.TxOp{check}, ops...)...)
	var te *table.TxError
	if !errors.Is(err, table.ErrNotFound) || !errors.As(err, &te) || !errors.Is(err, table.ErrTransactionCanceled) {
		t.Fatalf("Transact = %v; want ErrNotFound and a *TxError", err)
	}
	if len(te.Failed()) != 1 || te.Failed()[0].Index != 0 {
		t.Fatalf("failed actions %+v; want action 0", te.Failed())
	}
	if !strings.HasPrefix(err.Error(), "member ghost: singletable: item not found: ") {
		t.Errorf("message %q; want the action's error first", err)
	}
	// Nothing was written.
	if _, err := f.notes.Get(c, table.Key{PK: "MEMBER#ghost", SK: "NOTE#0001"}); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("note after the canceled transaction: %v", err)
	}
}

// Several failed conditions: the first in request order decides, carrying
// an error or not; a nil OnFail removes the action's error.
func TestTxOnFailFirstFailingActionDecides(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	live := f.create(t, member{ID: "a", Email: "a@x.io", Status: "on"})
	okCheck := f.t.ConditionOp(live).OnFail(errors.New("never: the member exists"))
	noMember := f.t.ConditionOp(table.Key{PK: "MEMBER#ghost", SK: "PROFILE"})
	noNote := f.t.ConditionOp(table.Key{PK: "MEMBER#a", SK: "NOTE#0009"})

	err := f.t.Transact(c, okCheck, noMember.OnFail(errNoMember), noNote.OnFail(errNoNote))
	var te *table.TxError
	if !errors.Is(err, errNoMember) || errors.Is(err, errNoNote) || !errors.As(err, &te) || len(te.Failed()) != 2 {
		t.Fatalf("two failing actions = %v; want action 1's error alone, with the TxError naming both", err)
	}
	err = f.t.Transact(c, okCheck, noNote.OnFail(errNoNote), noMember.OnFail(errNoMember))
	if !errors.Is(err, errNoNote) || errors.Is(err, errNoMember) {
		t.Fatalf("order swapped = %v; want action 1's error (the note's)", err)
	}
	// The first failing action carries no error: the TxError alone, even
	// though a later failing action carries one.
	err = f.t.Transact(c, okCheck, noMember, noNote.OnFail(errNoNote))
	if errors.Is(err, errNoNote) || !errors.As(err, &te) || len(te.Failed()) != 2 {
		t.Fatalf("first failing action without an error = %v; want the TxError alone", err)
	}
	err = f.t.Transact(c, noMember.OnFail(errNoMember).OnFail(nil))
	if errors.Is(err, errNoMember) || !errors.As(err, &te) {
		t.Fatalf("OnFail(nil) = %v; want the TxError alone", err)
	}
}

// A unique guard's failure is ErrUniqueViolation naming the value, unless
// the item before it failed first; a guard's own OnFail replaces it.
func TestTxOnFailGuard(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	f.create(t, member{ID: "a", Email: "a@x.io", Status: "on"})

	ops, err := f.members.CreateOp(&member{ID: "b", Email: "A@x.io", Status: "on"})
	if err != nil {
		t.Fatal(err)
	}
	err = f.t.Transact(c, ops...)
	var te *table.TxError
	if !errors.Is(err, table.ErrUniqueViolation) || !errors.As(err, &te) {
		t.Fatalf("guard taken = %v; want ErrUniqueViolation and the TxError", err)
	}
	if want := `singletable: unique value already taken: email "a@x.io": `; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q; want it to start %q", err, want)
	}
	// The guard's own error replaces the default.
	errTaken := errors.New("email taken")
	guarded := append([]table.TxOp{ops[0]}, ops[1].OnFail(errTaken))
	if err := f.t.Transact(c, guarded...); !errors.Is(err, errTaken) || errors.Is(err, table.ErrUniqueViolation) {
		t.Fatalf("guard with OnFail = %v; want its error only", err)
	}
	// The item itself exists (action 0 fails first): the create's own
	// action decides, and it has no default.
	again, err := f.members.CreateOp(&member{ID: "a", Email: "a@x.io", Status: "on"})
	if err != nil {
		t.Fatal(err)
	}
	// The guard is the owner's own (its condition holds); take another
	// member's email to make it fail too.
	f.create(t, member{ID: "c", Email: "c@x.io", Status: "on"})
	again2, err := f.members.CreateOp(&member{ID: "a", Email: "c@x.io", Status: "on"})
	if err != nil {
		t.Fatal(err)
	}
	for _, ops := range [][]table.TxOp{again, again2} {
		err := f.t.Transact(c, ops...)
		if errors.Is(err, table.ErrUniqueViolation) || !errors.As(err, &te) || te.Failed()[0].Index != 0 {
			t.Fatalf("existing item = %v; want the TxError alone, action 0 failed first", err)
		}
		ops[0] = ops[0].OnFail(table.ErrAlreadyExists)
		if err := f.t.Transact(c, ops...); !errors.Is(err, table.ErrAlreadyExists) || errors.Is(err, table.ErrUniqueViolation) {
			t.Fatalf("existing item with OnFail(ErrAlreadyExists) = %v", err)
		}
	}
}

// A transaction that committed but whose response was lost is resent by
// the SDK with its idempotency token and succeeds: no action's error.
func TestTxOnFailLostResponseCommitted(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := f.create(t, member{ID: "a", Email: "a@x.io", Status: "on"})
	lost := &tabletest.LostResponses{Op: "TransactWriteItems", Times: 1}
	ff, _ := faultyFixture(t, f, nil, lost.Option())
	ops, err := ff.notes.CreateOp(&note{MemberID: "a", Seq: 1, Text: "once"})
	if err != nil {
		t.Fatal(err)
	}
	ops[0] = ops[0].OnFail(table.ErrAlreadyExists)
	check := ff.t.ConditionOp(k).OnFail(errNoMember)
	if err := ff.t.Transact(c, append(ops, check)...); err != nil || lost.Lost() != 1 || lost.Calls() != 2 {
		t.Fatalf("Transact with a lost response = %v (lost %d of %d); want success after the SDK's retry", err, lost.Lost(), lost.Calls())
	}
	if got, err := f.notes.Get(c, table.Key{PK: "MEMBER#a", SK: "NOTE#0001"}); err != nil || got.Text != "once" {
		t.Fatalf("note = %+v, %v", got, err)
	}
}

// A cancellation with no failed condition (conflicts past the retries)
// keeps its TxError: no action's error.
func TestTxOnFailOtherReasonKeepsError(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := f.create(t, member{ID: "a", Email: "a@x.io", Status: "on"})
	fault := &tabletest.TxConflicts{}
	fault.Left.Store(1000)
	ff, _ := faultyFixture(t, f, []func(*table.Options){func(o *table.Options) { o.ConflictRetries = 1 }}, fault.Option())
	err := ff.t.Transact(c, ff.t.ConditionOp(k).OnFail(errNoMember), ff.t.ConditionOp(table.Key{PK: "MEMBER#b", SK: "PROFILE"}).OnFail(errNoMember))
	var te *table.TxError
	if errors.Is(err, errNoMember) || !errors.As(err, &te) || te.Failed()[0].Code != "TransactionConflict" {
		t.Fatalf("conflicts = %v; want the TxError alone", err)
	}
	// A request refused before sending keeps its error too.
	err = f.t.Transact(c, f.t.ConditionOp(k).OnFail(errNoMember), f.t.ConditionOp(k).OnFail(errNoMember))
	if !errors.Is(err, table.ErrDuplicateItem) || errors.Is(err, errNoMember) {
		t.Fatalf("duplicate actions = %v; want ErrDuplicateItem alone", err)
	}
}

// OnFail is client-side only: the request is the same without it.
func TestTxOnFailSameRequest(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := f.create(t, member{ID: "a", Email: "a@x.io", Status: "on"})
	rec := &txBodies{}
	ff, _ := faultyFixture(t, f, nil, func(o *dynamodb.Options) { o.HTTPClient = rec })
	patch, err := ff.members.PatchOp(k, table.Patch{Set: map[string]any{"note": "n"}})
	if err != nil {
		t.Fatal(err)
	}
	check := ff.t.ConditionOp(table.Key{PK: "MEMBER#ghost", SK: "PROFILE"})
	for _, ops := range [][]table.TxOp{{patch, check}, {patch.OnFail(errNoMember), check.OnFail(errNoMember)}} {
		_ = ff.t.Transact(c, ops...)
	}
	if len(rec.bodies) != 2 || rec.bodies[0] != rec.bodies[1] {
		t.Fatalf("requests differ with OnFail:\n%s\n%s", rec.bodies[0], rec.bodies[len(rec.bodies)-1])
	}
}

// txBodies records the body of each TransactWriteItems, without its
// idempotency token (a new one per call).
type txBodies struct {
	mu     sync.Mutex
	bodies []string
}

var txToken = regexp.MustCompile(`"ClientRequestToken":"[^"]*",?`)

func (r *txBodies) Do(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".TransactWriteItems") {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		var v any // re-encoded: map keys sorted
		if err := json.Unmarshal(body, &v); err != nil {
			return nil, err
		}
		canon, _ := json.Marshal(v)
		r.mu.Lock()
		r.bodies = append(r.bodies, txToken.ReplaceAllString(string(canon), ""))
		r.mu.Unlock()
	}
	return http.DefaultTransport.RoundTrip(req)
}

// OnFail puts a condition and its meaning in one place: here a line may
// only be added to an order that exists.
func ExampleTxOp_OnFail() {
	t, done := tabletest.ForExample("ExampleTxOp_OnFail")
	defer done()
	ctx := context.Background()
	tbl := tabletest.NewTable(t, table.NewSchema("shop"))
	orders, lines := table.NewEntity(tbl, orderTmpl), table.NewEntity(tbl, lineTmpl)
	_ = orders.Create(ctx, &Order{ID: "o1", Status: "open"})

	addLine := func(order string, n int) error {
		l, err := lines.CreateOp(&Line{Order: order, N: n, SKU: "sku-1"})
		if err != nil {
			return err
		}
		l[0] = l[0].OnFail(fmt.Errorf("line %d: %w", n, table.ErrAlreadyExists))
		exists := tbl.ConditionOp(table.Key{PK: "ORDER#" + order, SK: "ORDER"}).
			OnFail(fmt.Errorf("order %s: %w", order, table.ErrNotFound))
		return tbl.Transact(ctx, exists, l[0])
	}
	fmt.Println(addLine("o1", 1))
	err := addLine("o9", 1)
	var te *table.TxError
	fmt.Println(errors.Is(err, table.ErrNotFound), errors.As(err, &te))
	err = addLine("o1", 1)
	fmt.Println(errors.Is(err, table.ErrAlreadyExists), errors.As(err, &te))
	// Output:
	// <nil>
	// true true
	// true true
}
