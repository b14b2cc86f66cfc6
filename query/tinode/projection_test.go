package tinode_test

import (
	"strings"
	"testing"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestTopicReadsProjected_TN12_TN27: Messages.Save and DeleteList read of
// their topic only the fields they check (state, SeqId, layout, DelId,
// ClearId), and decide on them as on the whole topic. It logs the bytes
// and read units of the whole and the projected GetItem of a topic with
// a public document and tags (docs/observability.md).
func TestTopicReadsProjected_TN12_TN27(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{Capacity: true}
	rb := &tabletest.ResponseBytes{}
	base := tabletest.NewTable(t, table.NewSchema("tinode"))
	tbl := table.New(tabletest.NewClient(t, rc.Option(), rb.Option()), base.Schema(),
		func(o *table.Options) { o.CursorKey = []byte("tinode projection test cursor k!") })
	s := tinode.New(tbl)
	c := ctx(t)
	mustUser(t, s, "usr1")
	top := tn.Topic{Id: "grpProj", Access: tn.DefaultAccess{Auth: tn.ModeCPublic}, Owner: "usr1",
		Public: tn.JSON(map[string]string{"fn": "Project room", "note": strings.Repeat("about the project ", 40)}),
		Tags:   []string{"project", "room", "team"}}
	if err := s.Topics.Create(c, &top, &tn.Subscription{Topic: top.Id, User: "usr1", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull}); err != nil {
		t.Fatal(err)
	}
	k, err := tinode.TopicKey(s, top.Id)
	if err != nil {
		t.Fatal(err)
	}
	measure := func(what string, attrs ...string) int64 {
		t.Helper()
		rc.Reset()
		rb.Reset()
		if _, err := tbl.GetOwner(c, k, true, attrs...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		r, _ := rc.Consumed()
		t.Logf("%-40s %5d response bytes, %.1f RCU", what, rb.Bytes(), r)
		return rb.Bytes()
	}
	whole := measure("topic GetItem (consistent), whole")
	save := measure("same, projected as Messages.Save", tinode.TopicSaveAttrs...)
	del := measure("same, projected as Messages.DeleteList", tinode.TopicDeleteAttrs...)
	if save*2 > whole || del*2 > whole {
		t.Errorf("projected reads %d and %d bytes, whole %d: want under half", save, del, whole)
	}
	// The stores' reads (Entity.Peek) send that GetItem: as many bytes.
	peek := func(what string, read func() error) int64 {
		t.Helper()
		rc.Reset()
		rb.Reset()
		if err := read(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		r, _ := rc.Consumed()
		t.Logf("%-40s %5d response bytes, %.1f RCU", what, rb.Bytes(), r)
		if n := rc.Of("GetItem"); n != 1 || rc.Total() != 1 {
			t.Errorf("%s sent %v, want one GetItem", what, rc.Ops())
		}
		return rb.Bytes()
	}
	if got := peek("Messages.Save's read (Entity.Peek)", func() error { return tinode.PeekTopicForSave(c, s, k) }); got != save {
		t.Errorf("Save's read returned %d bytes, the projected GetItem %d", got, save)
	}
	if got := peek("Messages.DeleteList's read (Entity.Peek)", func() error { return tinode.PeekTopicForDelete(c, s, k) }); got != del {
		t.Errorf("DeleteList's read returned %d bytes, the projected GetItem %d", got, del)
	}

	// The paths decide on the projected topic as on the whole one.
	for i := range 3 {
		m := tn.Message{Topic: top.Id, From: "usr1", Content: tn.JSON("hello")}
		if err := s.Messages.Save(c, &m); err != nil {
			t.Fatal(err)
		}
		if m.SeqId != i+1 {
			t.Fatalf("message %d saved as SeqId %d", i+1, m.SeqId)
		}
	}
	if _, err := s.Messages.DeleteList(c, top.Id, "", []tn.Range{{Low: 1, Hi: 2}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Topics.ByName.Get(c, tn.Topic{Id: top.Id})
	if err != nil {
		t.Fatal(err)
	}
	if got.SeqId != 3 || got.DelId != 1 || got.ClearId != 1 || len(got.Tags) != 3 || string(got.Public) != string(top.Public) {
		t.Errorf("topic after saves and a deletion = SeqId %d DelId %d ClearId %d tags %v public %d bytes; want 3, 1, 1, the tags and the public document kept",
			got.SeqId, got.DelId, got.ClearId, got.Tags, len(got.Public))
	}
}
