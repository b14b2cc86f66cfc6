package ferryhook_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
)

// The keys the entities build from their declarations are byte for byte
// the document's (the templates of entity/fh/keys.go).
func TestKeysDocumentFormat(t *testing.T) {
	t.Parallel()
	u, s, c, k, e := fh.UserID("usr_V1StGXR8_Z5jdHi6"), fh.SourceID("src_aaaaaaaaaaaaaaaa"),
		fh.ConnectionID("conn_cccccccccccccccc"), fh.APIKeyID("key_kkkkkkkkkkkkkkkk"), fh.EventID("evt_eeeeeeeeeeeeeeee")
	must := func(k table.Key, err error) table.Key {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	got := []table.Key{
		must(ferryhook.UserKey(u)), must(ferryhook.SourceKey(u, s)), must(ferryhook.ConnectionKey(s, c)),
		must(ferryhook.APIKeyKey(u, k)), must(ferryhook.EventKey(s, 1700000000123, e)),
	}
	want := []table.Key{
		{PK: "USER#usr_V1StGXR8_Z5jdHi6", SK: "PROFILE"},
		{PK: "USER#usr_V1StGXR8_Z5jdHi6", SK: "SRC#src_aaaaaaaaaaaaaaaa"},
		{PK: "SRC#src_aaaaaaaaaaaaaaaa", SK: "CONN#conn_cccccccccccccccc"},
		{PK: "USER#usr_V1StGXR8_Z5jdHi6", SK: "KEY#key_kkkkkkkkkkkkkkkk"},
		{PK: "SRC#src_aaaaaaaaaaaaaaaa", SK: "EVT#1700000000123#evt_eeeeeeeeeeeeeeee"},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b table.Key) bool { return a == b })); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	if _, err := ferryhook.SourceKey("usr_#x", "src_a"); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("SourceKey with '#' = %v, want a validation error", err)
	}
}
