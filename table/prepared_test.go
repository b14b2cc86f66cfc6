package table_test

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
)

// sentUpdates records the first action of every TransactWriteItems a
// client sends.
type sentUpdates struct {
	mu  sync.Mutex
	ups []types.Update
}

func (s *sentUpdates) option() func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
			return st.Initialize.Add(middleware.InitializeMiddlewareFunc("sentUpdates", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				if p, ok := in.Parameters.(*dynamodb.TransactWriteItemsInput); ok && len(p.TransactItems) > 0 && p.TransactItems[0].Update != nil {
					s.mu.Lock()
					s.ups = append(s.ups, *p.TransactItems[0].Update)
					s.mu.Unlock()
				}
				return next.HandleInitialize(ctx, in)
			}), middleware.After)
		})
	}
}

func (s *sentUpdates) last(n int) []types.Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]types.Update(nil), s.ups[len(s.ups)-n:]...)
}

// A prepared patch sends, a minute later and with a new Set value, the
// request PatchOp builds at that moment (the same expressions, names and
// values: the Set value, the touched updatedAt and the TTL clock rebound);
// a value whose encoding removes the attribute falls back to PatchOp; a
// Set naming other fields is refused before any request; and the rebound
// clock refuses an item that expired after the patch was prepared.
func TestPreparedPatchIsPatchOp(t *testing.T) {
	t.Parallel()
	var clk clock
	clk.set(time.Unix(1_900_000_000, 0))
	f := newFixture(t, withClock(&clk))
	c := ctx(t)
	k := f.create(t, member{ID: "p", Email: "p@x.io", Status: "on", ExpiresAt: clk.Now().Add(time.Hour)})
	var sent sentUpdates
	ff, rc := faultyFixture(t, f, []func(*table.Options){withClock(&clk)}, sent.option())
	patch := func(note string) table.Patch {
		return table.Patch{Set: map[string]any{"note": note}, Add: map[string]int64{"logins": 1}, IfEqual: map[string]any{"status": "on"}}
	}
	pp, err := ff.members.PreparePatch(k, patch("first"))
	if err != nil {
		t.Fatal(err)
	}
	same := cmp.Exporter(func(reflect.Type) bool { return true })
	for i, note := range []string{"second", ""} { // "": stored as nothing, so the patch removes it
		clk.add(time.Minute)
		op, err := pp.Op(map[string]any{"note": note})
		if err != nil {
			t.Fatal(err)
		}
		if err := ff.t.Transact(c, op); err != nil {
			t.Fatal(err)
		}
		want, err := ff.members.PatchOp(k, patch(note))
		if err != nil {
			t.Fatal(err)
		}
		if err := ff.t.Transact(c, want); err != nil {
			t.Fatal(err)
		}
		ups := sent.last(2)
		if d := cmp.Diff(ups[1], ups[0], same); d != "" {
			t.Fatalf("send %d (note %q): prepared request differs from PatchOp's (-PatchOp +prepared):\n%s", i, note, d)
		}
		got, err := f.members.Get(c, k)
		if err != nil {
			t.Fatal(err)
		}
		if got.Note != note || got.Logins != int64(2*(i+1)) || !got.UpdatedAt.Equal(clk.Now()) {
			t.Fatalf("send %d: note %q, logins %d, updatedAt %v; want %q, %d, %v", i, got.Note, got.Logins, got.UpdatedAt, note, 2*(i+1), clk.Now())
		}
	}

	rc.Reset()
	if _, err := pp.Op(map[string]any{"team": "x"}); !errors.As(err, new(*table.ValidationError)) {
		t.Fatalf("Op with another field = %v, want a ValidationError", err)
	}
	if _, err := pp.Op(nil); !errors.As(err, new(*table.ValidationError)) {
		t.Fatalf("Op without the Set field = %v, want a ValidationError", err)
	}
	if rc.Total() != 0 {
		t.Fatalf("%d requests for refused Ops, want 0", rc.Total())
	}

	clk.add(2 * time.Hour) // past the member's TTL: the rebound clock sees it
	op, err := pp.Op(map[string]any{"note": "late"})
	if err != nil {
		t.Fatal(err)
	}
	var te *table.TxError
	if err := ff.t.Transact(c, op); !errors.As(err, &te) || te.Reasons[0].Code != "ConditionalCheckFailed" {
		t.Fatalf("prepared patch of an item expired since = %v, want its condition to fail", err)
	}
}
