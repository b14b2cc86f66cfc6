package ferryhook_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Bad input to an update is refused with a typed error before any request
// (issue 9 §7): the fields an update sets are validated before the read.
func TestUpdateRefusesBadInputBeforeAnyRequest_FH11(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	u := mustUser(t, f.store, "bad@example.com")
	rc := &tabletest.RequestCounter{}
	client := tabletest.NewClient(t, rc.Option())
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	s := ferryhook.New(table.New(client, f.main.Schema(), withCipher), table.New(client, f.events.Schema(), withCipher))
	empty, badHash, badPlan := "", "plain-password", fh.Plan("platinum")
	for name, up := range map[string]ferryhook.UserUpdate{
		"empty name":         {Name: &empty},
		"plaintext password": {PasswordHash: &badHash},
		"unknown plan":       {Plan: &badPlan},
		"bad email":          {Email: &badHash},
	} {
		_, err := s.Users.Update(ctx(t), u.UserID, up)
		var ve *table.ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: %v, want a *table.ValidationError", name, err)
		}
	}
	srcName, badAlg, badURL, badJSON := "", fh.SigningAlgorithm("rot13"), "ftp://x", fh.JSONText("{")
	for name, up := range map[string]ferryhook.SourceUpdate{"source empty name": {Name: &srcName}, "source unknown algorithm": {SigningAlgorithm: &badAlg}} {
		if _, err := s.Sources.Update(ctx(t), u.UserID, "src_aaaaaaaaaaaaaaaa", up); !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: %v, want ErrInvalidInput", name, err)
		}
	}
	for name, up := range map[string]ferryhook.ConnectionUpdate{"connection empty name": {Name: &srcName}, "connection bad URL": {DestinationURL: &badURL}, "connection bad JSON": {Filters: &badJSON}} {
		if _, err := s.Connections.Update(ctx(t), u.UserID, "src_aaaaaaaaaaaaaaaa", "conn_cccccccccccccccc", up); !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: %v, want ErrInvalidInput", name, err)
		}
	}
	if n := rc.Total(); n != 0 {
		t.Fatalf("%d requests sent for refused updates, want 0", n)
	}
}
