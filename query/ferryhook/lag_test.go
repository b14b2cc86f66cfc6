package ferryhook_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestAuthenticateIgnoresLaggingIndex: FH-6 reads GSI2, which on DynamoDB
// may lag behind a delete. With a lagging index simulated in front of
// DynamoDB Local, a deleted key is still refused: the GSI hit is confirmed
// by a consistent read of the key item.
func TestAuthenticateIgnoresLaggingIndex(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	u := mustUser(t, f.store, "lag@example.com")
	nk, err := f.store.APIKeys.Create(ctx(t), u.UserID, ferryhook.CreateAPIKeyInput{Name: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	lagClient := tabletest.NewClient(t, (&tabletest.StaleQueries{}).Option())
	lagging := ferryhook.New(table.New(lagClient, f.main.Schema()), table.New(lagClient, f.events.Schema()))
	if _, err := lagging.APIKeys.Authenticate(ctx(t), nk.Key); err != nil {
		t.Fatalf("FH-6 before delete: %v", err)
	}
	if err := f.store.APIKeys.Delete(ctx(t), ferryhook.APIKeyRef{User: u.UserID, Key: nk.APIKey.KeyID}); err != nil {
		t.Fatal(err)
	}
	_, err = lagging.APIKeys.Authenticate(ctx(t), nk.Key)
	if !errors.Is(err, ferryhook.ErrInvalidAPIKey) {
		t.Errorf("FH-6 with a deleted key still in the lagging GSI2: %v, want ErrInvalidAPIKey", err)
	}
}

// TestSourceGetByIDIgnoresLaggingIndex_FH4: the ingest path looks a source
// up by ID through GSI3, which may lag behind a delete or a pause; the GSI
// hit is confirmed by a consistent read, so a deleted source is never
// returned as active (issue 9 §6).
func TestSourceGetByIDIgnoresLaggingIndex_FH4(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	u := mustUser(t, f.store, "lagsrc@example.com")
	src := mustSource(t, f.store, u.UserID, "stripe")
	lagClient := tabletest.NewClient(t, (&tabletest.StaleQueries{}).Option())
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	lagging := ferryhook.New(table.New(lagClient, f.main.Schema(), withCipher), table.New(lagClient, f.events.Schema(), withCipher))
	if got, err := lagging.Sources.GetByID(ctx(t), src.SourceID); err != nil || got.Status != "active" {
		t.Fatalf("FH-4 before delete: %+v %v", got, err)
	}
	if err := f.store.Sources.Delete(ctx(t), u.UserID, src.SourceID); err != nil {
		t.Fatal(err)
	}
	if got, err := lagging.Sources.GetByID(ctx(t), src.SourceID); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("FH-4 with a deleted source still active in the lagging GSI3: %+v %v, want ErrNotFound", got.Status, err)
	}
}
