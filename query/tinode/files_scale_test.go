package tinode_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// TestScale_TN31_TN32_TN33_Uploads: 1,000 uploads a second across the
// deployment (SCALE.md's 1,000 messages/s in one topic, each carrying one
// attachment): Files.Start records the upload, Files.Finish completes it,
// Files.Link links it to its message (TN-31, TN-32). A file is in the
// unused-file index (TN-33) from its start until its link: the entry is
// put (1 WCU), moved by Finish's new UpdatedAt (its sort key: 2 WCU) and
// removed by the link (1 WCU), 4 WCU per upload on one partition, 4,000
// WCU/s in GSI2 FILEUNUSED unsharded (so more than one message in five
// carrying a file passes the target). Sharded in FILEUNUSED#{n}
// (Options.IndexShards, default 8) by a hash of the file's ID, each shard
// takes 500 WCU/s. Assumed sizes: file records under 1 KB.
func TestScale_TN31_TN32_TN33_Uploads(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("tinode"))
	meter := capacity.NewMeter(tabletest.Client(t))
	metered := table.New(tabletest.NewClient(t, meter.Option()), tb.Schema(), func(o *table.Options) { o.Cipher = tabletest.Cipher() })
	s := tinode.New(metered)
	meter.Learn(metered)
	shards := tinode.DefaultIndexShards
	capacity.Scale(t, meter, capacity.Scenario{
		Name: "tinode/uploads", Calls: 3 * shards, PerSecond: 1_000,
		Call: func(c context.Context, i int) error {
			id := capacity.SpreadID("file", i, shards)
			if err := s.Files.Start(c, &tn.File{Id: id, User: tn.UserID(fmt.Sprintf("usr%03d", i%100)), MimeType: "image/png"}); err != nil {
				return err
			}
			if _, err := s.Files.Finish(c, id, true, 123456, "/uploads/"+id, "etag"); err != nil {
				return err
			}
			return s.Files.Link(c, tn.MessageOwner(fmt.Sprintf("grpChannel:%d", i+1)), []string{id}, false)
		},
	}, knownScaleGaps)
}

// TestUnusedFilesSharded_TN33: the unused-file index split in shards
// (Options.IndexShards) lists the unused files of every shard, merged
// oldest first, for Files.DeleteUnused (TN-33); files recorded in the
// unsharded FILEUNUSED move to their shard with the adoption job (a file
// in use has no entry and stays as it is), after which DeleteUnused
// collects them with those written sharded, in UpdatedAt order, and a
// second adoption changes nothing.
func TestUnusedFilesSharded_TN33(t *testing.T) {
	t.Parallel()
	c := ctx(t)
	var mu sync.Mutex // the adoption job's segments call now concurrently
	clock := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Second)
		return clock
	}
	opts := func(o *table.Options) { o.Cipher, o.CursorKey, o.Now = tabletest.Cipher(), []byte("files"), now }
	tb := tabletest.NewTable(t, table.NewSchema("tinode"), opts)
	old := tinode.New(tb, func(o *tinode.Options) { o.IndexShards = 1 })
	var want []string // the unused files' locations, oldest first
	for i := range 12 {
		id := fmt.Sprintf("old%02d", i)
		mustDo(t, old.Files.Start(c, &tn.File{Id: id}))
		if _, err := old.Files.Finish(c, id, true, 1, "/up/"+id, ""); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			mustDo(t, old.Files.Link(c, tn.MessageOwner(id), []string{id}, false))
			continue
		}
		want = append(want, "/up/"+id)
	}
	sharded := table.New(tabletest.Client(t), tb.Schema(), opts)
	s := tinode.New(sharded)
	if locs, err := s.Files.DeleteUnused(c, time.Time{}, 1000); err != nil || len(locs) != 0 {
		t.Fatalf("before adoption, the sharded store sees %v, %v; want none (the old entries are in FILEUNUSED)", locs, err)
	}
	for i := range 6 {
		id := fmt.Sprintf("new%02d", i)
		mustDo(t, s.Files.Start(c, &tn.File{Id: id}))
		if _, err := s.Files.Finish(c, id, true, 1, "/up/"+id, ""); err != nil {
			t.Fatal(err)
		}
		want = append(want, "/up/"+id)
	}
	rep, err := sharded.RunJob(c, table.AdoptJob("adopt-files", sharded.Entities()...))
	if err != nil || rep.Changed != 8 {
		t.Fatalf("adoption: %s, %v; want the 8 unused old files moved", rep, err)
	}
	rep, err = sharded.RunJob(c, table.AdoptJob("adopt-again", sharded.Entities()...))
	if err != nil || rep.Changed != 0 {
		t.Errorf("second adoption: %s, %v; want nothing changed", rep, err)
	}
	locs, err := s.Files.DeleteUnused(c, time.Time{}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, locs); diff != "" {
		t.Errorf("DeleteUnused over the shards (-want +got):\n%s", diff)
	}
	for i := 0; i < 12; i += 3 {
		if _, err := s.Files.ByID.Get(c, tn.File{Id: fmt.Sprintf("old%02d", i)}); err != nil {
			t.Errorf("linked file old%02d: %v", i, err)
		}
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
