package table

import (
	"context"

	"github.com/singletable/singletable/internal/job"
)

// Maintenance jobs: one pass over every item of a table, outside every
// request path (the one place where a Scan is right). [Table.RunJob] is the
// runner that adoption ([AdoptJob]: guards, index backfill, sealing legacy
// plaintext secrets), re-encryption and migrations share. Its contract:
//
//   - Parallel: Job.Segments segments of a parallel Scan run at once.
//   - Bounded: Job.MaxCapacity caps the capacity units per second consumed
//     by the scan's reads and the visits' writes together (measured from
//     DynamoDB's ConsumedCapacity, not estimated).
//   - Resumable: after each page, each segment's position and counts are
//     saved in a checkpoint item in the table itself (PK _JOB#{name}); an
//     interrupted job run again with Job.Resume continues after the last
//     completed page, and its report covers the whole job (its counts,
//     conflicts and the notes visits keep with [JobNote]). A dry run's
//     checkpoint is never resumed by a real run (nor the reverse).
//   - Idempotent: a visit must be safe to repeat (the pages after the
//     checkpoint are visited again after an interruption); a second run of
//     an adoption job changes nothing and reports every item unchanged.
//   - Honest: Job.DryRun visits every item and reports what it would do,
//     writing nothing but checkpoints; the report counts items seen,
//     changed, unchanged, skipped and in conflict, and lists the conflicts.

// JobOutcome is what a job's visit did (or, in a dry run, would do) with
// one item.
type JobOutcome = job.JobOutcome

// The outcomes of a visit.
const (
	// Unchanged: the item already satisfies the job.
	Unchanged = job.Unchanged
	// Changed: the item was (or would be) written.
	Changed = job.Changed
	// Skipped: the job does not concern the item.
	Skipped = job.Skipped
	// Conflicted: the item cannot be brought in line without a human (a
	// duplicate unique value, an undecodable attribute); see JobReport.Conflicts.
	Conflicted = job.Conflicted
)

// JobConflict names an item a job could not handle (Key), and why (Reason).
type JobConflict = job.JobConflict

// JobReport counts what a job did: Scanned counts every item the scan
// returned, the library's own guards and checkpoints included; Seen the
// items visited, and Changed, Unchanged, Skipped and Conflicted their
// outcomes; Capacity the capacity units consumed (reads and writes);
// Conflicts lists the conflicted items (at most 1000); Resumed is true
// when the run continued from a checkpoint; Notes are the lists the
// visits kept with [JobNote], by name, over the whole job.
type JobReport = job.JobReport

// JobNotes is one list of a job's notes: the first MaxJobNotes entries
// and how many there were.
type JobNotes = job.JobNotes

// MaxJobNotes bounds each list of notes a report (and each segment's
// checkpoint) holds; JobNotes.Count counts them all.
const MaxJobNotes = job.MaxJobNotes

// JobNote adds entry to the job's list of notes named list (what a
// migration kept or repaired, say), when ctx is a visit's context under
// [Table.RunJob]; elsewhere it does nothing. Notes are saved with the
// checkpoint of the page whose visit made them, and a page visited again
// after an interruption makes its notes again: a visit notes what holds
// of its item (an item already done included), not only what it wrote.
// Safe for concurrent use.
func JobNote(ctx context.Context, list, entry string) { job.Note(ctx, list, entry) }

// Job is one maintenance pass; run it with [Table.RunJob]. Name names the
// checkpoint (required: a-z, 0-9, '-' and '_'). Visit handles one item;
// with dryRun it must write nothing; it may return an error wrapping
// [ErrUniqueViolation] or [ErrInvalidInput] for an item it cannot handle
// (counted as a conflict), any other error stops the job. VisitPage, if
// set, handles a whole page at once instead (a batched write). Segments
// is the number of parallel scan segments (default 4), PageSize the items
// per Scan request (default 100), MaxCapacity the cap on consumed
// capacity units per second (0: none). DryRun visits every item without
// writing; Resume continues from the job's checkpoint; Progress, if set,
// is called after each page with the running totals. Source, if set,
// names another table to scan (a migration's legacy table, reached with
// the same client; the checkpoint still lives in this table), SourceKey
// its key attributes.
type Job = job.Job

// RunJob runs job over every item of the table (see the contract above)
// and returns its report. On an error or the end of ctx the checkpoint
// keeps what was done, and the report so far is returned with the error.
func (t *Table) RunJob(ctx context.Context, j Job) (JobReport, error) {
	return job.Run(ctx, t.c, j, t.bookkeeping)
}
