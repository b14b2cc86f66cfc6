package listbackup

import (
	"context"
	"fmt"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// ErrJobRunning is the error of deleting a running job; it matches
// table.ErrConflict.
var ErrJobRunning = fmt.Errorf("listbackup: the job is running: %w", table.ErrConflict)

// Delete deletes a job that is not running, as ListBackup's jobs/delete
// does (it answers 409 for a running job): one strongly consistent
// GetItem, then the delete. Its REMOVE record reaches the job queue's
// cleanup ([JobQueueHandler], LB-84). A job that starts running between
// the read and the delete is deleted all the same (so does the legacy
// handler). Errors: *table.ValidationError, table.ErrNotFound,
// [ErrJobRunning].
//
// Pattern: LB-24 (its write side).
func (s *Jobs) Delete(ctx context.Context, id lb.JobID) error {
	return s.delete.Do(ctx, func(ctx context.Context) error {
		k, err := s.e.jobs.CheckedKey(lb.Job{JobID: id})
		if err != nil {
			return err
		}
		j, err := s.v().Get(ctx, k, table.Consistent())
		if err != nil {
			return err
		}
		if j.Status == lb.JobRunning {
			return fmt.Errorf("delete job %s: %w", id, ErrJobRunning)
		}
		return s.v().Delete(ctx, k)
	})
}
