package tinode_test

import (
	"testing"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/internal/wiretest"
)

// TestOtelTinodeCalls: store methods report their catalog ID, their
// requests sit under them, and a method calling another (DeleteDevice
// through Update) nests; a declared write (UpsertDevice) holds its
// requests itself.
func TestOtelTinodeCalls(t *testing.T) {
	traced, exp := wiretest.Traced(t)
	s := newStore(t, traced)
	mustUser(t, s, "usrAda")
	mustTopic(t, s, "grpOtel", "usrAda")
	exp.Reset()

	if _, err := s.Users.ByID.Get(ctx(t), tn.User{Id: "usrAda"}); err != nil {
		t.Fatal(err)
	}
	spans := exp.GetSpans()
	wiretest.Request(t, spans, wiretest.Call(t, spans, "tinode.Users.ByID.Get", "TN-1"), "GetItem")
	exp.Reset()

	// TN-12: the message and the topic's SeqId in one transaction.
	if err := s.Messages.Save(ctx(t), &tn.Message{Topic: "grpOtel", From: "usrAda", Content: tn.JSON("hi")}); err != nil {
		t.Fatal(err)
	}
	spans = exp.GetSpans()
	wiretest.Call(t, spans, "tinode.Messages.Save", "TN-12")
	exp.Reset()

	// TN-16, a declared write: its requests under its call.
	d := tn.Device{DeviceId: "dev1", Platform: tn.PlatformAndroid, LastSeen: time.Now().UTC()}
	if _, err := s.Users.UpsertDevice(ctx(t), "usrAda", d); err != nil {
		t.Fatal(err)
	}
	spans = exp.GetSpans()
	up := wiretest.Call(t, spans, "tinode.Users.UpsertDevice", "TN-16")
	wiretest.Request(t, spans, up, "GetItem")
	wiretest.Request(t, spans, up, "UpdateItem")
	exp.Reset()

	// TN-16 through Update (TN-3's declared write): nested, the requests
	// under Update.
	if err := s.Users.DeleteDevice(ctx(t), "usrAda", "dev1"); err != nil {
		t.Fatal(err)
	}
	spans = exp.GetSpans()
	del := wiretest.Call(t, spans, "tinode.Users.DeleteDevice", "TN-16")
	upd := wiretest.Span(t, spans, "tinode.Users.Update")
	wiretest.Child(t, del, upd)
	wiretest.Request(t, spans, upd, "GetItem")
}
