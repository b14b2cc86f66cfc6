package tinode_test

import (
	"testing"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestQueryRequestsUnchanged: the reads whose sort-key bounds and prefixes
// the Tinode store builds (credentials, auth records, messages by seq,
// deletions, subscriptions updated since, unused files, a topic's load)
// send the same requests byte for byte as the code they were rewritten
// from: the golden file was written by commit 7580135's code.
func TestQueryRequestsUnchanged_TN10_TN14(t *testing.T) {
	t.Parallel()
	log := &tabletest.RequestLog{}
	s := newStore(t, func(o *table.Options) { o.ClientOptions = append(o.ClientOptions, log.Option()) })
	x := ctx(t)
	do := func(label string, f func() error) {
		log.Mark(label)
		if err := f(); err != nil {
			log.Note("error " + err.Error())
		}
	}
	t1 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var u tn.UserID = "usrAda"
	var top tn.TopicName = "grpA"
	do("Credentials.GetActive", func() error { _, err := s.Creds.GetActive(x, u, "email"); return err })
	do("Credentials.List all", func() error { _, err := s.Creds.List(x, u, "", false); return err })
	do("Credentials.List email validated", func() error { _, err := s.Creds.List(x, u, "email", true); return err })
	do("Credentials.UserByCred", func() error { _, err := s.Creds.UserByCred(x, "email", "ada@example.com"); return err })
	do("Credentials.Unvalidated", func() error { _, err := s.Creds.Unvalidated(x, t1, 10); return err })
	do("Auth.GetByScheme", func() error { _, err := s.Auth.GetByScheme(x, u, "basic"); return err })
	do("Auth.DeleteScheme", func() error { _, err := s.Auth.DeleteScheme(x, u, "basic"); return err })
	do("Messages.Get", func() error { _, err := s.Messages.Get(x, top, 7); return err })
	for _, f := range []tinode.HistoryFilter{{}, {Seq: tinode.SeqRange{Since: 3, Before: 9}}, {Seq: tinode.SeqRange{Since: 3}}, {Seq: tinode.SeqRange{Before: 9}}, {ForUser: u}} {
		f.Topic = top
		for _, o := range [][]table.ListOption{nil, {table.Asc(), table.Limit(4)}} {
			do("Messages.History", func() error { _, err := s.Messages.History(x, f, o...); return err })
		}
	}
	do("Messages.Deletions all", func() error { _, err := s.Messages.Deletions(x, top, "", 0); return err })
	do("Messages.Deletions user since", func() error { _, err := s.Messages.Deletions(x, top, u, 5); return err })
	for _, f := range []struct {
		since  time.Time
		hidden []table.ListOption
	}{{}, {since: t1}, {hidden: []table.ListOption{table.IncludeHidden()}}} {
		for _, o := range [][]table.ListOption{nil, {table.Desc(), table.Limit(4)}} {
			sub, o := tn.Subscription{User: u, UpdatedAt: f.since}, append(f.hidden, o...)
			do("Subscriptions.ListByUser", func() error { _, err := s.Subs.ByUser.List(x, sub, o...); return err })
			do("Subscriptions.TopicsOfUser", func() error { _, err := s.Subs.TopicsOfUser(x, sub, o...); return err })
		}
	}
	do("Subscriptions.ListByTopic", func() error { _, err := s.Subs.ByTopic.List(x, tn.Subscription{Topic: top}); return err })
	do("Subscriptions.Channels", func() error { _, err := s.Subs.Channels(x, u); return err })
	do("Topics.Load", func() error { _, err := s.Topics.Load(x, top); return err })
	do("Files.DeleteUnused", func() error { _, err := s.Files.DeleteUnused(x, t1, 10); return err })
	tabletest.Golden(t, "query_requests", log.String())
}
