package ferryhook_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// The ingest transaction's counter actions do not ask for the item they
// fail on (the event's create does: a create over an expired item needs
// it); when one fails, one strongly consistent BatchGetItem reads the
// source and its owner, and the ingest tells a re-planned owner, a paused
// and a deleted source apart as before (FH-12, FH-4).
func TestIngestCountersReadOnFailure_FH12(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	u := mustUser(t, f.store, "explain@example.com")
	src := mustSource(t, f.store, u.UserID, "explain")
	rc := &tabletest.RequestCounter{}
	var mu sync.Mutex
	var rvs [][]types.ReturnValuesOnConditionCheckFailure
	capture := func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
			return st.Initialize.Add(middleware.InitializeMiddlewareFunc("rvoccf", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				if p, ok := in.Parameters.(*dynamodb.TransactWriteItemsInput); ok {
					var rv []types.ReturnValuesOnConditionCheckFailure
					for _, it := range p.TransactItems {
						switch {
						case it.Put != nil:
							rv = append(rv, it.Put.ReturnValuesOnConditionCheckFailure)
						case it.Update != nil:
							rv = append(rv, it.Update.ReturnValuesOnConditionCheckFailure)
						}
					}
					mu.Lock()
					rvs = append(rvs, rv)
					mu.Unlock()
				}
				return next.HandleInitialize(ctx, in)
			}), middleware.After)
		})
	}
	client := tabletest.NewClient(t, rc.Option(), capture)
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	s := ferryhook.New(table.New(client, f.main.Schema(), withCipher), table.New(client, f.events.Schema(), withCipher))
	ingest := func() (fh.Event, error) { return s.Ingest(ctx(t), src.SourceID, req) }
	if _, err := ingest(); err != nil { // reads the source and its owner once
		t.Fatal(err)
	}

	rc.Reset()
	if _, err := ingest(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	last := rvs[len(rvs)-1]
	mu.Unlock()
	if rc.Total() != 1 || len(last) != 3 || last[0] != types.ReturnValuesOnConditionCheckFailureAllOld || last[1] != "" || last[2] != "" {
		t.Fatalf("steady state: %v, ReturnValuesOnConditionCheckFailure %q; want 1 TransactWriteItems, ALL_OLD on the event's create only", rc.Ops(), last)
	}

	pro := fh.PlanPro // behind the store's back: its plan condition fails
	if _, err := f.store.Users.Update(ctx(t), u.UserID, ferryhook.UserUpdate{Plan: &pro}); err != nil {
		t.Fatal(err)
	}
	rc.Reset()
	ev, err := ingest()
	if err != nil {
		t.Fatal(err)
	}
	if want := fh.PlanPro.ExpiresAt(ev.ReceivedAt); ev.ExpiresAt != want || rc.Of("BatchGetItem") != 1 || rc.Of("TransactWriteItems") != 2 {
		t.Fatalf("after the upgrade: expiresAt %d (want %d), %v; want 1 BatchGetItem explaining the first of 2 transactions", ev.ExpiresAt, want, rc.Ops())
	}

	if _, err := f.store.Sources.Update(ctx(t), u.UserID, src.SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusPaused)}); err != nil {
		t.Fatal(err)
	}
	rc.Reset()
	if _, err := ingest(); !errors.Is(err, ferryhook.ErrSourcePaused) {
		t.Fatalf("paused: %v, want ErrSourcePaused", err)
	}
	if rc.Total() != 2 || rc.Of("BatchGetItem") != 1 {
		t.Fatalf("paused: %v, want 1 TransactWriteItems and 1 BatchGetItem", rc.Ops())
	}

	if err := f.store.Sources.Delete(ctx(t), u.UserID, src.SourceID); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest(); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("deleted: %v, want ErrNotFound", err)
	}
	if got, err := f.store.Users.ByID.Get(ctx(t), fh.User{UserID: u.UserID}); err != nil || got.UsageThisMonth != 3 {
		t.Fatalf("usage %d, %v; want 3 (the refused ingests counted nothing)", got.UsageThisMonth, err)
	}
}
