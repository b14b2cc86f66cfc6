package listbackup_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// knownScaleGaps names the scale scenarios of this package still short of
// SCALE.md's target, and why; issue 22 (sharding) empties it.
var knownScaleGaps = map[string]string{}

// TestScale_LB48_LB49_LB50_DueAtMidnight: 100,000 daily schedules all due
// at 00:00, processed within the minute (SCALE.md section 2): one Due poll
// over all of them, then per schedule its RecordRun (nextRunAt moves a
// day: its GSI1 entry is deleted and put again in SCHED#DUE, 2 WCU) and
// the run it records, created running and finished completed (RUNS#running
// gets the entry and loses it, 2 WCU; RUNS#completed gets it, 1 WCU). The
// sample is Calls schedules; the poll is the first call, so each
// schedule's share of it scales with the rest. Assumed sizes: schedules
// and runs under 1 KB, as the store writes them here.
//
// Since issue 22 those index partitions are sharded (SCHED#DUE#{n},
// RUNS#{status}#{n}, Options.IndexShards, default 8) by a hash of the
// schedule's and the run's ID: the sample's IDs fill the shards evenly
// (capacity.SpreadID), as 100,000 random IDs do, so each shard takes
// 1/8 of the load: 417 WCU/s on SCHED#DUE#{n} and RUNS#running#{n}.
func TestScale_LB48_LB49_LB50_DueAtMidnight(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	midnight := t0.Truncate(24 * time.Hour) // the fixture clock reads t0, later that day
	shards := f.Schedules.Shards()
	calls := 2 * shards
	var due []lb.SyncSchedule
	for i := range calls {
		sc := lb.SyncSchedule{SourceID: lb.SourceID(fmt.Sprintf("src%03d", i)), ScheduleID: lb.ScheduleID(capacity.SpreadID("daily", i, shards)),
			ScheduleType: lb.ScheduleDaily, DataTypes: []string{"contacts", "deals"}, IsActive: true, NextRunAt: midnight}
		must(t, f.Schedules.Create(c, &sc))
	}
	meter := capacity.NewMeter(tabletest.Client(t))
	metered := table.New(tabletest.NewClient(t, meter.Option()), f.tbl.Schema(), func(o *table.Options) { o.Cipher, o.Now = tabletest.Cipher(), f.clock.Now })
	s := listbackup.New(metered)
	meter.Learn(metered)
	capacity.Scale(t, meter, capacity.Scenario{
		Name: "listbackup/100k-schedules-due-in-one-minute", Calls: calls, PerSecond: 100_000.0 / 60,
		Call: func(c context.Context, i int) error {
			if i == 0 {
				for sc, err := range table.Every(c, s.Schedules.Due, midnight) {
					if err != nil {
						return err
					}
					due = append(due, sc)
				}
				if len(due) != calls {
					return fmt.Errorf("due: %d schedules, want %d", len(due), calls)
				}
			}
			sc := due[i]
			syncID := lb.SyncID(capacity.SpreadID("run", i, shards))
			if _, err := s.Schedules.RecordRun(c, sc.SourceID, sc.ScheduleID, midnight, midnight.Add(24*time.Hour)); err != nil {
				return err
			}
			run := lb.SyncRun{SourceID: sc.SourceID, SyncID: syncID, ScheduleID: sc.ScheduleID, DataTypes: sc.DataTypes, StartedAt: midnight}
			if err := s.Runs.Record(c, &run); err != nil {
				return err
			}
			_, err := s.Runs.Finish(c, sc.SourceID, run.StartedAt, run.SyncID, lb.RunCompleted, map[string]int64{"contacts": 120, "deals": 7}, nil)
			return err
		},
		Want: capacity.Hot{Key: fmt.Sprintf("GSI1 RUNS#{status}#{syncId:shard%d}", shards), Usage: capacity.Usage{Write: 2.0 / float64(shards)}},
	}, knownScaleGaps)
}
