package fh_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// Keys are byte for byte the document's, and parse back.
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
		must(fh.UserKey(u)), must(fh.SourceKey(u, s)), must(fh.ConnectionKey(s, c)), must(fh.APIKeyKey(u, k)),
		must(fh.EventKey(s, 1700000000123, e)), must(fh.AttemptKey(e, 3)),
	}
	want := []table.Key{
		{PK: "USER#usr_V1StGXR8_Z5jdHi6", SK: "PROFILE"},
		{PK: "USER#usr_V1StGXR8_Z5jdHi6", SK: "SRC#src_aaaaaaaaaaaaaaaa"},
		{PK: "SRC#src_aaaaaaaaaaaaaaaa", SK: "CONN#conn_cccccccccccccccc"},
		{PK: "USER#usr_V1StGXR8_Z5jdHi6", SK: "KEY#key_kkkkkkkkkkkkkkkk"},
		{PK: "SRC#src_aaaaaaaaaaaaaaaa", SK: "EVT#1700000000123#evt_eeeeeeeeeeeeeeee"},
		{PK: "EVT#evt_eeeeeeeeeeeeeeee", SK: "ATT#3"},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b table.Key) bool { return a == b })); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	gsi := []table.Key{
		must(fh.UserEmailIndex.Key(map[string]string{"email": "a@example.com"})),
		must(fh.APIKeyHashIndex.Key(map[string]string{"keyHash": "abc123"})),
		must(fh.SourceIDIndex.Key(map[string]string{"sourceId": string(s)})),
		must(fh.EventIDIndex.Key(map[string]string{"eventId": string(e)})),
	}
	wantGSI := []table.Key{{PK: "EMAIL#a@example.com", SK: "USER"}, {PK: "KEYHASH#abc123", SK: "KEY"}, {PK: "SRCID#src_aaaaaaaaaaaaaaaa", SK: "SOURCE"}, {PK: "EVTID#evt_eeeeeeeeeeeeeeee", SK: "EVENT"}}
	if diff := cmp.Diff(wantGSI, gsi, cmp.Comparer(func(a, b table.Key) bool { return a == b })); diff != "" {
		t.Errorf("GSI keys (-want +got):\n%s", diff)
	}

	pu, ps, err := fh.ParseSourceKey(got[1])
	if err != nil || pu != u || ps != s {
		t.Errorf("ParseSourceKey = %v %v %v", pu, ps, err)
	}
	es, at, ee, err := fh.ParseEventKey(got[4])
	if err != nil || es != s || at != 1700000000123 || ee != e {
		t.Errorf("ParseEventKey = %v %v %v %v", es, at, ee, err)
	}
	ae, n, err := fh.ParseAttemptKey(got[5])
	if err != nil || ae != e || n != 3 {
		t.Errorf("ParseAttemptKey = %v %v %v", ae, n, err)
	}
}

func TestKeysRejectBadInput(t *testing.T) {
	t.Parallel()
	e := fh.EventID("evt_eeeeeeeeeeeeeeee")
	for _, n := range []int{0, 9} {
		if _, err := fh.AttemptKey(e, n); !errors.Is(err, table.ErrInvalidKey) {
			t.Errorf("AttemptKey(%d) = %v, want ErrInvalidKey", n, err)
		}
	}
	if _, err := fh.SourceKey("usr_#x", "src_a"); !errors.Is(err, table.ErrInvalidKey) {
		t.Errorf("SourceKey with '#' accepted")
	}
	for _, k := range []table.Key{{PK: "EVT#" + string(e), SK: "ATT#03"}, {PK: "EVT#" + string(e), SK: "ATT#9"}, {PK: "SRC#x", SK: "ATT#1"}} {
		if _, _, err := fh.ParseAttemptKey(k); err == nil {
			t.Errorf("ParseAttemptKey(%v) accepted", k)
		}
	}
	if _, _, _, err := fh.ParseEventKey(table.Key{PK: "SRC#s", SK: "EVT#123#evt_x"}); err == nil {
		t.Error("ParseEventKey accepted a receivedAt that is not 13 digits")
	}
}
