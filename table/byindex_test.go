package table_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// staleQueries is middleware in front of DynamoDB Local that answers every
// Query with the first answer it saw: a GSI that lags behind the table, as
// DynamoDB's may (DynamoDB Local never lags).
func staleQueries() func(*middleware.Stack) error {
	var mu sync.Mutex
	var first *dynamodb.QueryOutput
	return func(st *middleware.Stack) error {
		return st.Initialize.Add(middleware.InitializeMiddlewareFunc("staleQueries",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				if _, ok := in.Parameters.(*dynamodb.QueryInput); !ok {
					return next.HandleInitialize(ctx, in)
				}
				mu.Lock()
				defer mu.Unlock()
				if first != nil {
					return middleware.InitializeOutput{Result: first}, middleware.Metadata{}, nil
				}
				out, md, err := next.HandleInitialize(ctx, in)
				if err == nil {
					first = out.Result.(*dynamodb.QueryOutput)
				}
				return out, md, err
			}), middleware.After)
	}
}

func TestGetByIndexNeverReturnsStaleEntries(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	m := member{ID: "m1", Email: "a@b.c", Status: "active"}
	if err := f.members.Create(c, &m); err != nil {
		t.Fatal(err)
	}
	lagging := table.NewEntity(table.New(tabletest.NewClient(t, func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, staleQueries())
	}), f.t.Schema()), memberDef)
	q := table.Query{Index: table.GSI1, PK: "STATUS#active"}
	got, err := lagging.GetByIndex(c, q)
	if err != nil || got.ID != "m1" {
		t.Fatalf("fresh index: %+v %v", got, err)
	}
	// The member moves to another status: the lagging index still lists it
	// under "active", and a plain Query believes it.
	if _, err := f.members.Update(c, table.Key{PK: "MEMBER#m1", SK: "PROFILE"}, func(m *member) error { m.Status = "suspended"; return nil }); err != nil {
		t.Fatal(err)
	}
	if p, _ := lagging.Query(c, q); len(p.Items) != 1 {
		t.Fatalf("the stale index was not simulated: %+v", p.Items)
	}
	if _, err := lagging.GetByIndex(c, q); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("GetByIndex on a stale entry (item moved): %v, want ErrNotFound", err)
	}
	// Deleted: the lagging index still lists it; GetByIndex does not.
	if err := f.members.Delete(c, table.Key{PK: "MEMBER#m1", SK: "PROFILE"}); err != nil {
		t.Fatal(err)
	}
	if _, err := lagging.GetByIndex(c, q); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("GetByIndex on a stale entry (item deleted): %v, want ErrNotFound", err)
	}
	if _, err := f.members.GetByIndex(c, table.Query{PK: "MEMBER#m1"}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("GetByIndex on the table: %v", err)
	}
}
