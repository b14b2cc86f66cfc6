package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table/feed"
)

// printQueue stands for ListBackup's SQS FIFO queues: it prints each
// message it is sent.
type printQueue struct{}

func (printQueue) Send(_ context.Context, m listbackup.JobMessage) error {
	attrs := make([]string, 0, len(m.Attributes))
	for k, v := range m.Attributes {
		attrs = append(attrs, k+"="+v)
	}
	sort.Strings(attrs)
	step("LB-84", "sent to queue "+m.Queue+", group "+m.GroupID, "dedup "+m.DeduplicationID+" ["+strings.Join(attrs, " ")+"]")
	return nil
}

// queue runs ListBackup's job queue on the table's stream (LB-84): a
// job created, run and failed twice, heard by a consumer and sent as the
// legacy handler sent it, with its fixes (a priority when the job has
// none, a deduplication ID per retry, retries bounded by maxRetries).
func queue(ctx context.Context, s *listbackup.Store, _ time.Time, _ lb.Date) error {
	r := feed.NewRouter(s.Table())
	listbackup.NewJobQueueHandler(s, printQueue{}).Register(r)
	c := &feed.Consumer{Table: s.Table(), Name: "job-queue", Handler: r, Start: feed.Latest}
	if err := c.CatchUp(ctx); err != nil { // from the stream's end: the jobs written before are not queued again
		return err
	}
	if err := s.Jobs.Create(ctx, &lb.Job{AccountID: "acme", JobID: "nightly-sync", JobType: lb.JobSync, SourceID: "keap-1", MaxRetries: 1}); err != nil {
		return err
	}
	for _, st := range []lb.JobStatus{lb.JobRunning, lb.JobFailed, lb.JobRunning, lb.JobFailed} {
		if _, err := s.Jobs.Update(ctx, "nightly-sync", func(j *lb.Job) error { j.Status = st; return nil }); err != nil {
			return err
		}
		if st == lb.JobFailed { // the worker acts on the retry once it is sent
			if err := c.CatchUp(ctx); err != nil {
				return err
			}
		}
	}
	j, err := s.Jobs.ByID.Get(ctx, lb.Job{JobID: "nightly-sync"})
	step("LB-84", "job after two failures, maxRetries 1", fmt.Sprintf("retryCount %d, %v", j.RetryCount, err))
	return err
}
