package tinode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// TestMinute_TN12_TN13_OneTopic: 1,000 Save/s into one topic from 100
// senders (SCALE.md section 2) for a modeled minute, in the sharded
// profile (Options.MessageShards = 4), with the meter throttling every key
// past its limit per modeled second (capacity.RunMinute). A call is a
// round in which the 100 senders save one message each at once (the group
// commit forms as under that load, see TestScale_TN12_OneTopic); the full
// load is 10 rounds a second, and the run is at scale 0.1: one round a
// modeled second for 60 modeled seconds (6,000 messages), against 100 WCU
// / 300 RCU per key-second, so each round stands for ten (at scale 0.01 a
// round's ~50 WCU on each message shard would pass a 10 WCU limit alone).
// No Save fails and no key-second passes the target (800 WCU/s at full
// scale). SeqIds stay gapless and unique (TN-12): the callers got 1..6,000
// once each, the topic's SeqId is 6,000, and History (TN-13, merged over
// the shards) lists 6,000 messages with SeqIds 1..6,000, each the message
// its caller saved.
func TestMinute_TN12_TN13_OneTopic(t *testing.T) {
	t.Parallel()
	opts := func(o *tinode.Options) {
		o.MessageShards = 4
		o.SaveBackoff, o.SaveMaxBackoff = time.Microsecond, time.Millisecond // RunMinute models the waits
	}
	tb := tabletest.NewTable(t, table.NewSchema("tinode"))
	mustTopic(t, tinode.New(tb, opts), "grpChannel")
	meter := capacity.NewMeter(tabletest.Client(t))
	metered := table.New(tabletest.NewClient(t, meter.Option(), capacity.MinuteRetries()), tb.Schema(), func(o *table.Options) {
		o.Cipher, o.BatchBackoff = tabletest.Cipher(), time.Microsecond
	})
	s := tinode.New(metered, opts)
	meter.Learn(metered)
	pad := strings.Repeat("m", 660)
	var mu sync.Mutex
	sent := map[int]string{} // SeqId -> the text its caller saved
	twice := 0
	res := capacity.RunMinute(t, meter, capacity.Minute{
		Name: "tinode/save-one-topic", PerSecond: 1_000 / senders, Scale: 0.1,
		Call: func(c context.Context, round int) error {
			errs := make([]error, senders)
			var wg sync.WaitGroup
			for i := range senders {
				wg.Go(func() {
					text := fmt.Sprintf("r%02d-s%03d-%s", round, i, pad)
					m := &tn.Message{Topic: "grpChannel", From: tn.UserID(fmt.Sprintf("usr%03d", i)), Content: tn.JSON(map[string]string{"txt": text})}
					if errs[i] = s.Messages.Save(c, m); errs[i] != nil {
						return
					}
					mu.Lock()
					if _, ok := sent[m.SeqId]; ok {
						twice++
					}
					sent[m.SeqId] = text
					mu.Unlock()
				})
			}
			wg.Wait()
			return errors.Join(errs...)
		},
	})
	n := res.Calls * senders
	if res.Failed != 0 {
		t.Errorf("%d of %d rounds failed at the target rate over 4 shards: %v", res.Failed, res.Calls, res.Errors)
	}
	if res.PerSecond.Write > capacity.TargetWrite || res.PerSecond.Read > capacity.TargetRead {
		t.Errorf("hottest key-second %s: %s, past the target", res.Hottest, res.PerSecond)
	}
	if twice != 0 || len(sent) != n {
		t.Errorf("callers got %d distinct SeqIds for %d messages (%d given twice)", len(sent), n, twice)
	}
	for seq := 1; seq <= n; seq++ {
		if _, ok := sent[seq]; !ok {
			t.Errorf("no caller got SeqId %d: a gap", seq)
			break
		}
	}
	c := ctx(t)
	check := tinode.New(tb, opts)
	top, err := check.Topics.ByName.Get(c, tn.Topic{Id: "grpChannel"})
	if err != nil || top.SeqId != n {
		t.Errorf("topic SeqId %d, %v; want %d", top.SeqId, err, n)
	}
	next, listed := n, 0
	for m, err := range table.Every(c, check.Messages.History, tinode.HistoryFilter{Topic: "grpChannel"}, table.Limit(500)) {
		if err != nil {
			t.Fatal(err)
		}
		if m.SeqId != next {
			t.Fatalf("History lists SeqId %d after %d: want %d (newest first, gapless, once each)", m.SeqId, next+1, next)
		}
		var body map[string]string
		if err := json.Unmarshal(m.Content, &body); err != nil || body["txt"] != sent[m.SeqId] {
			t.Errorf("message %d: %q, %v; its caller saved %.12q", m.SeqId, body["txt"], err, sent[m.SeqId])
		}
		next--
		listed++
	}
	if listed != n {
		t.Errorf("History lists %d messages, want %d", listed, n)
	}
	t.Logf("%d rounds of %d Saves, %d attempts, %d throttled, %d retried, %d failed; %d messages stored, SeqIds 1..%d once each", res.Calls, senders, res.Attempts, res.Throttles, res.RetriedBySDK+res.RetriedByEngine, res.Failed, listed, n)
}
