package tinode_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// faultyShardedStore returns a store in the sharded profile (4 shards)
// whose client goes through fault, and a clean store on the same table.
func faultyShardedStore(t *testing.T, fault func(*dynamodb.Options)) (faulty, clean *tinode.Store) {
	t.Helper()
	tb := tabletest.NewTable(t, table.NewSchema("tinode"))
	profile := func(o *tinode.Options) { o.MessageShards = 4 }
	clean = tinode.New(tb, profile)
	faulty = tinode.New(table.New(tabletest.NewClient(t, fault), tb.Schema()), profile)
	return faulty, clean
}

// wantMessages checks the topic holds exactly SeqIds 1..n, once each, as
// History lists them and as Get reads them, and SeqId n.
func wantMessages(t *testing.T, s *tinode.Store, topic tn.TopicName, n int) {
	t.Helper()
	got := historySeqs(t, s, topic, tinode.HistoryFilter{}, 3)
	if len(got) != n {
		t.Fatalf("listed %v, want SeqIds %d..1", got, n)
	}
	for i, seq := range got {
		if seq != n-i {
			t.Fatalf("listed %v, want SeqIds %d..1", got, n)
		}
		if _, err := s.Messages.Get(ctx(t), topic, seq); err != nil {
			t.Fatalf("Get %d: %v", seq, err)
		}
	}
	top, err := s.Topics.ByName.Get(ctx(t), tn.Topic{Id: topic})
	if err != nil || top.SeqId != n {
		t.Fatalf("topic SeqId %d (%v), want %d", top.SeqId, err, n)
	}
}

// TestShardedSaveLostResponse_TN12: the response of a sharded Save's
// transaction is lost after DynamoDB applied it; the SDK resends it with
// its idempotency token, so the message is stored once, in its shard, and
// SeqId moves once: exactly once (docs/guarantees.md fault table, issue 22).
func TestShardedSaveLostResponse_TN12(t *testing.T) {
	t.Parallel()
	lost := &tabletest.LostResponses{Op: "TransactWriteItems", Times: 1}
	s, clean := faultyShardedStore(t, lost.Option())
	mustTopic(t, clean, "grpLost")
	m := tn.Message{Topic: "grpLost", From: "usrA", Content: tn.JSON("once")}
	if err := s.Messages.Save(ctx(t), &m); err != nil {
		t.Fatalf("Save with its response lost: %v", err)
	}
	if lost.Lost() != 1 || m.SeqId != 1 {
		t.Fatalf("lost %d responses, SeqId %d; want 1, 1", lost.Lost(), m.SeqId)
	}
	if err := s.Messages.Save(ctx(t), &tn.Message{Topic: "grpLost", From: "usrA", Content: tn.JSON("next")}); err != nil {
		t.Fatal(err)
	}
	wantMessages(t, clean, "grpLost", 2)
}

// TestShardedSaveConflicts_TN12: a sharded Save whose transaction is
// canceled by conflicts (another transaction on the topic item) writes
// nothing each time (all or nothing) and is retried: one message, SeqId
// 1, no gap and no orphan in any shard.
func TestShardedSaveConflicts_TN12(t *testing.T) {
	t.Parallel()
	fault := &tabletest.TxConflicts{}
	fault.Left.Store(3)
	s, clean := faultyShardedStore(t, func(o *dynamodb.Options) { o.HTTPClient = fault })
	mustTopic(t, clean, "grpConflict")
	if err := s.Messages.Save(ctx(t), &tn.Message{Topic: "grpConflict", From: "usrA", Content: tn.JSON("x")}); err != nil {
		t.Fatalf("Save under 3 conflicts: %v", err)
	}
	if fault.Seen.Load() != 4 {
		t.Errorf("%d transactions sent, want 4 (3 canceled, then applied)", fault.Seen.Load())
	}
	wantMessages(t, clean, "grpConflict", 1)
	for _, pk := range []string{"TOPIC#grpConflict#0", "TOPIC#grpConflict#2", "TOPIC#grpConflict#3"} {
		p, err := clean.Table().QueryItems(ctx(t), table.Query{PK: pk, Consistent: true})
		if err != nil || len(p.Items) != 0 {
			t.Errorf("%s holds %d items (%v), want none", pk, len(p.Items), err)
		}
	}
}

// TestReshardLostResponse: the switch's transaction applied, its response
// lost: the SDK's resend is recognised by its token, Reshard reports the
// new layout, and the layout has the one new epoch.
func TestReshardLostResponse(t *testing.T) {
	t.Parallel()
	lost := &tabletest.LostResponses{Op: "TransactWriteItems", Times: 1, After: 2}
	s, clean := faultyShardedStore(t, lost.Option())
	mustTopic(t, clean, "grpSwitch")
	for range 2 {
		if err := s.Messages.Save(ctx(t), &tn.Message{Topic: "grpSwitch", From: "usrA", Content: tn.JSON("x")}); err != nil {
			t.Fatal(err)
		}
	}
	l, err := s.Messages.Reshard(ctx(t), "grpSwitch", 8)
	if err != nil || lost.Lost() != 1 {
		t.Fatalf("Reshard: %v (lost %d)", err, lost.Lost())
	}
	if got := l.String(); got != "0:4,3:8" {
		t.Errorf("layout %q, want 0:4,3:8", got)
	}
	top, _ := clean.Topics.ByName.Get(ctx(t), tn.Topic{Id: "grpSwitch"})
	if top.MsgLayout != "0:4,3:8" {
		t.Errorf("stored layout %q", top.MsgLayout)
	}
	if err := s.Messages.Save(ctx(t), &tn.Message{Topic: "grpSwitch", From: "usrA", Content: tn.JSON("x")}); err != nil {
		t.Fatal(err)
	}
	wantMessages(t, clean, "grpSwitch", 3)
}

// TestShardedImportLostResponse_TN12: an import into a sharded topic whose
// transaction's response is lost is applied once and reports success,
// not table.ErrAlreadyExists; a second import of the same SeqId does.
func TestShardedImportLostResponse_TN12(t *testing.T) {
	t.Parallel()
	lost := &tabletest.LostResponses{Op: "TransactWriteItems", Times: 1}
	s, clean := faultyShardedStore(t, lost.Option())
	top := tn.Topic{Id: "grpImport", Access: tn.DefaultAccess{Auth: tn.ModeCPublic}, SeqId: 1}
	if err := clean.Topics.Create(ctx(t), &top); err != nil {
		t.Fatal(err)
	}
	m := tn.Message{Topic: "grpImport", SeqId: 1, From: "usrA", Content: tn.JSON("old")}
	if err := s.Messages.Import(ctx(t), &m); err != nil || lost.Lost() != 1 {
		t.Fatalf("Import with its response lost: %v (lost %d)", err, lost.Lost())
	}
	again := tn.Message{Topic: "grpImport", SeqId: 1, From: "usrA", Content: tn.JSON("old")}
	wantIs(t, s.Messages.Import(ctx(t), &again), table.ErrAlreadyExists)
	wantMessages(t, clean, "grpImport", 1)
}

// TestShardedRequests_TN12_TN13 counts the requests of the sharded paths
// (4 shards, then switched to 8: 8 partitions and none unsharded): Save
// alone is what it always was (the layout comes with the topic read);
// Import reads the layout first; Get does for the first read of a topic
// and for a message past the SeqId its remembered layout was read with,
// else it is one GetItem; History fans out over every partition the
// layout used, in one round.
func TestShardedRequests_TN12_TN13(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := tabletest.NewTable(t, table.NewSchema("tinode"))
	s := tinode.New(table.New(tabletest.NewClient(t, rc.Option()), tb.Schema()), func(o *tinode.Options) { o.MessageShards = 4 })
	mustTopic(t, s, "grpCount")
	count := func(what string, want int, fn func() error) {
		t.Helper()
		rc.Reset()
		if err := fn(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := rc.Total(); got != want {
			t.Errorf("%s: %d requests (%v), want %d", what, got, rc.Ops(), want)
		}
	}
	save := func() error {
		return s.Messages.Save(ctx(t), &tn.Message{Topic: "grpCount", From: "usrA", Content: tn.JSON("x")})
	}
	count("Save, one sender", 2, save) // GetItem of the topic, TransactWriteItems
	for range 9 {
		if err := save(); err != nil {
			t.Fatal(err)
		}
	}
	count("Get, first of the topic", 2, func() error { _, err := s.Messages.Get(ctx(t), "grpCount", 7); return err })
	// The layout read with SeqId 10 is exact for every message up to 10:
	// a point read is one GetItem from then on.
	count("Get, layout remembered", 1, func() error { _, err := s.Messages.Get(ctx(t), "grpCount", 3); return err })
	count("Get, layout remembered", 1, func() error { _, err := s.Messages.Get(ctx(t), "grpCount", 10); return err })
	count("History, 4 shards", 5, func() error {
		_, err := s.Messages.History(ctx(t), tinode.HistoryFilter{Topic: "grpCount"}, table.Limit(100))
		return err
	})
	count("Reshard", 2, func() error { _, err := s.Messages.Reshard(ctx(t), "grpCount", 8); return err })
	count("History, 8 shards", 9, func() error {
		_, err := s.Messages.History(ctx(t), tinode.HistoryFilter{Topic: "grpCount"}, table.Limit(100))
		return err
	})
	// After the switch (from SeqId 11 on): a message past what the store
	// remembers reads the topic again; older ones stay one GetItem.
	if err := save(); err != nil {
		t.Fatal(err)
	}
	count("Get, after a switch, a new message", 2, func() error {
		m, err := s.Messages.Get(ctx(t), "grpCount", 11)
		if err == nil && m.SeqId != 11 {
			t.Errorf("got message %d, want 11", m.SeqId)
		}
		return err
	})
	count("Get, after a switch, an old message", 1, func() error { _, err := s.Messages.Get(ctx(t), "grpCount", 5); return err })
	count("Import", 2, func() error {
		return s.Messages.Import(ctx(t), &tn.Message{Topic: "grpCount", SeqId: 20, From: "usrA", Content: tn.JSON("x")})
	})
	// The default profile: tinode.md's keys, no layout read.
	plain := newStore(t)
	mustTopic(t, plain, "grpPlain")
	rc2 := &tabletest.RequestCounter{}
	p := tinode.New(table.New(tabletest.NewClient(t, rc2.Option()), plain.Table().Schema()))
	if err := p.Messages.Save(ctx(t), &tn.Message{Topic: "grpPlain", From: "usrA", Content: tn.JSON("x")}); err != nil {
		t.Fatal(err)
	}
	rc2.Reset()
	if _, err := p.Messages.History(ctx(t), tinode.HistoryFilter{Topic: "grpPlain"}); err != nil || rc2.Total() != 1 {
		t.Errorf("default History: %d requests, %v; want 1", rc2.Total(), err)
	}
}
