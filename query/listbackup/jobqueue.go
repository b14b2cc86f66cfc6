package listbackup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
)

// JobQueue is the queue service ListBackup's jobs are sent to: in its
// deployment, six SQS FIFO queues (one per job type), reached through
// the service's own client. The service supplies it; [JobQueueHandler]
// decides what to send.
type JobQueue interface {
	// Send sends m. An error means it may not have been sent: the handler
	// returns it, so the stream record is delivered again (and the message
	// sent again with the same deduplication ID).
	Send(ctx context.Context, m JobMessage) error
}

// JobMessage is one message to a job queue, as SQS's SendMessage takes
// it for a FIFO queue.
type JobMessage struct {
	// Queue is the queue of the job's type ([QueueOf]): "sync", "backup",
	// "export", "analytics", "maintenance" or "alert". The service maps it
	// to its queue's URL (ListBackup: SYNC_QUEUE_URL, BACKUP_QUEUE_URL, ...).
	Queue string
	// GroupID is the message group: the job's sourceId, else its
	// accountId, so the jobs of one source are processed in order.
	GroupID string
	// DeduplicationID is the job's ID for its creation and
	// {jobId}#retry-{n} for its n-th re-queue: the same on every delivery
	// of the stream record that caused it, different for every attempt.
	DeduplicationID string
	// Body is the job as JSON ([JobBody]).
	Body string
	// Attributes are the message attributes, all of data type String and
	// none empty: JobType, Priority, AccountId, and SourceId and SubType
	// when the job has them.
	Attributes map[string]string
}

// JobBody is a [JobMessage]'s body: the job's routing fields under the
// JSON names of ListBackup's own Job type (internal/types), so its
// workers read it as they read the legacy handler's messages, plus the
// retry count.
type JobBody struct {
	JobID     string `json:"jobId"`
	AccountID string `json:"accountId"`
	UserID    string `json:"userId,omitempty"`
	SourceID  string `json:"sourceId,omitempty"`
	Type      string `json:"type"`
	SubType   string `json:"subType,omitempty"`
	Priority  string `json:"priority"`
	Status    string `json:"status"`
	// RetryCount is the attempt: 0 for the job's creation, n for its n-th
	// re-queue.
	RetryCount int `json:"retryCount"`
	// MaxRetries is the bound of the job's re-queues.
	MaxRetries int `json:"maxRetries"`
}

// queues is ListBackup's queue of each job type (its jobs/queue handler's
// SYNC_QUEUE_URL ... ALERT_QUEUE_URL).
var queues = map[lb.JobType]string{
	lb.JobSync: "sync", lb.JobBackup: "backup", lb.JobExport: "export",
	lb.JobAnalytics: "analytics", lb.JobMaintenance: "maintenance", lb.JobAlert: "alert",
}

// QueueOf returns the queue of job type jt, and false for a type
// ListBackup's deployment has no queue for (import, migration: its
// handler logs such a job and sends nothing; so does [JobQueueHandler]).
func QueueOf(jt lb.JobType) (string, bool) {
	q, ok := queues[jt]
	return q, ok
}

// DefaultMaxRetries bounds the re-queues of a job ListBackup's own code
// wrote, migrated into the table, whose maxRetries is 0: its jobs/create
// writes no retry limit but config.maxRetries 0 (kept as jobConfig), and
// its queue handler retried such jobs up to this constant of its own. A
// job the store created is bounded by its own maxRetries, 0 included.
const DefaultMaxRetries = 3

// JobAction is what [JobQueueHandler] did with one change of a job.
type JobAction int

// The actions of a [JobEvent].
const (
	// JobQueued: a created job was sent to its queue.
	JobQueued JobAction = iota + 1
	// JobNoQueue: a created or failed job's type has no queue; nothing
	// was sent.
	JobNoQueue
	// JobStarted: pending -> running; nothing is sent.
	JobStarted
	// JobCompleted: running -> completed; nothing is sent.
	JobCompleted
	// JobRetried: running -> failed with retries left: the job was sent
	// again.
	JobRetried
	// JobRetriesExhausted: running -> failed with no retry left (or the
	// retry already acted on, or the job gone); nothing is sent.
	JobRetriesExhausted
	// JobCancelled: any -> cancelled; nothing is sent.
	JobCancelled
	// JobStatusChanged: another status change; nothing is sent.
	JobStatusChanged
	// JobRemoved: the job was deleted; the legacy handler's cleanup sends
	// nothing.
	JobRemoved
)

var actionNames = [...]string{"", "queued", "no-queue", "started", "completed", "retried", "retries-exhausted", "cancelled", "status-changed", "removed"}

// String returns the action's name ("queued", "retried", ...).
func (a JobAction) String() string {
	if a > 0 && int(a) < len(actionNames) {
		return actionNames[a]
	}
	return fmt.Sprintf("JobAction(%d)", int(a))
}

// JobEvent is one change of a job [JobQueueHandler] acted on: the
// legacy handler's log line, for a service that notifies or counts.
type JobEvent struct {
	Action JobAction
	// Job is the job after the change (before it, for a removal).
	Job lb.Job
	// From and To are the statuses of a modification.
	From, To lb.JobStatus
	// Message is what was sent (nil when nothing was).
	Message *JobMessage
	// RecordID is the stream record's event ID.
	RecordID string
}

// ErrStreamView is the error of a job's change whose record lacks the
// image the handler needs: the table's stream must keep both images
// (NEW_AND_OLD_IMAGES, as [Schema] declares it).
var ErrStreamView = errors.New("listbackup: the job queue needs a NEW_AND_OLD_IMAGES stream")

// errCounted stops the count of a retry another delivery of the same
// record already made.
var errCounted = errors.New("retry already counted")

// JobQueueHandler is ListBackup's job queue on the single table's stream
// (LB-84): its jobs/queue handler, which ran on the jobs table's stream,
// as a typed handler of the Job entity on a [feed.Router]. It routes each
// change of a job as the legacy handler does:
//
//   - created (INSERT): one message to the queue of the job's type
//     ([QueueOf]), group sourceId else accountId, deduplication ID the job's
//     ID, attributes JobType, Priority, SourceId, AccountId, and SubType
//     when set;
//   - modified (MODIFY), by status transition: running -> failed sends
//     the job again while retries remain; pending -> running, running ->
//     completed, any -> cancelled and the others send nothing (see
//     [JobAction]); a modification that changed no status, or nothing but
//     the engine's bookkeeping, is ignored;
//   - removed (REMOVE, or expired): the legacy cleanup, which sends
//     nothing.
//
// Other entities' records never reach it (the router routes them to
// their own handlers, the engine's items to none). It fixes the legacy
// handler's four flaws:
//
//  1. No empty attribute: SQS refuses a message attribute with an empty
//     value, and ListBackup's jobs/create writes no priority, so every
//     message of a job it created was refused. A job without a priority is
//     sent with Priority "medium", the priority [Jobs.Create] gives a job
//     without one (a worker that orders by Priority sees the value the
//     store would have stored); SourceId is left out for a job without a
//     source (its group is then the account).
//  2. Re-queues are bounded by the job's own retryCount and maxRetries
//     (the legacy handler hard-coded a count of 0, so it re-queued
//     forever): a failed job is sent again only while retryCount <
//     maxRetries ([DefaultMaxRetries] for a migrated job of ListBackup's
//     own code, which carries none). The handler owns the count: before it sends a retry it
//     increments the job's retryCount in the table, conditioned on the
//     count the record shows, so the worker that receives the retry, and
//     its next failure, see the new count. No other ListBackup code
//     writes retryCount.
//  3. A re-queue's deduplication ID is {jobId}#retry-{n}, n the retry
//     (retryCount after the increment): unique per attempt, so a second
//     failure within SQS's five-minute deduplication window is not
//     dropped (the legacy handler reused jobId). A redelivered record
//     yields the same ID (n comes from the record's image; the increment
//     is already made, so the count is not made twice), so SQS drops the
//     redelivered message: a redelivery within five minutes of the first
//     send is harmless. A record redelivered after the worker acted on
//     its retry (the job no longer failed at that count) sends nothing.
//  4. A failed send is returned as an error (the legacy handler logged it
//     and reported success, so the stream never delivered the record
//     again): the consumer retries the batch and the record's message is
//     sent, or the consumer stops at it, its checkpoint before it.
//
// The guarantee, at least once: every created job of a queued type is
// sent, and every failure with retries left is sent again, at least
// once, each attempt with its own deduplication ID; a delivery repeated
// by a fault carries the same ID as the first, so the FIFO queue keeps
// one message per attempt when the repeat comes within its five-minute
// window (a consumer retries a batch within seconds).
type JobQueueHandler struct {
	// Queue receives the messages.
	Queue JobQueue
	// Observe, if set, is called with every change the handler acted on,
	// after its message (if any) was sent.
	Observe func(ctx context.Context, e JobEvent)

	jobs *table.Entity[lb.Job]
}

// NewJobQueueHandler returns the job queue handler of s's jobs, sending
// to q (LB-84).
func NewJobQueueHandler(s *Store, q JobQueue) *JobQueueHandler {
	return &JobQueueHandler{Queue: q, jobs: s.Jobs.e.jobs}
}

// Register registers h on r as the handler of the Job entity (feed.Handle):
// r must route the stream of the store's table.
func (h *JobQueueHandler) Register(r *feed.Router) {
	feed.Handle(r, h.jobs, h.Handle)
}

// Handle acts on one change of a job (see [JobQueueHandler]); a failed
// send or count is returned.
func (h *JobQueueHandler) Handle(ctx context.Context, c table.ItemChange[lb.Job]) error {
	ev := JobEvent{RecordID: c.Record.ID}
	if (c.New == nil && c.Event != table.Removed && c.Event != table.Expired) || (c.Old == nil && c.Event != table.Created) {
		return ErrStreamView
	}
	switch c.Event {
	case table.Created:
		ev.Job = *c.New
		ev.Action = JobQueued
		return h.send(ctx, c, ev, 0)
	case table.Removed, table.Expired:
		ev.Job, ev.Action = *c.Old, JobRemoved
		h.observe(ctx, ev)
		return nil
	}
	if c.BookkeepingOnly || c.Old.Status == c.New.Status {
		return nil
	}
	ev.Job, ev.From, ev.To = *c.New, c.Old.Status, c.New.Status
	switch {
	case ev.From == lb.JobPending && ev.To == lb.JobRunning:
		ev.Action = JobStarted
	case ev.From == lb.JobRunning && ev.To == lb.JobCompleted:
		ev.Action = JobCompleted
	case ev.From == lb.JobRunning && ev.To == lb.JobFailed:
		return h.retry(ctx, c, ev)
	case ev.To == lb.JobCancelled:
		ev.Action = JobCancelled
	default:
		ev.Action = JobStatusChanged
	}
	h.observe(ctx, ev)
	return nil
}

// retry re-queues a failed job while retries remain (fixes 2 and 3).
func (h *JobQueueHandler) retry(ctx context.Context, c table.ItemChange[lb.Job], ev JobEvent) error {
	n, limit := c.New.RetryCount, maxRetries(c)
	if n >= limit {
		ev.Action = JobRetriesExhausted
		h.observe(ctx, ev)
		return nil
	}
	if _, ok := QueueOf(c.New.JobType); !ok {
		ev.Action = JobNoQueue
		h.observe(ctx, ev)
		return nil
	}
	var cur lb.Job
	_, err := h.jobs.Update(ctx, c.Key, func(j *lb.Job) error {
		cur = *j
		if j.RetryCount != n {
			return errCounted
		}
		j.RetryCount = n + 1
		return nil
	})
	switch {
	case err == nil:
	case errors.Is(err, errCounted) && cur.RetryCount == n+1 && cur.Status == lb.JobFailed:
		// An earlier delivery of this record counted the retry; its send
		// may have failed: send again, with the same deduplication ID.
	case errors.Is(err, errCounted), errors.Is(err, table.ErrNotFound):
		// The worker acted on this retry already, or the job is gone.
		ev.Action = JobRetriesExhausted
		h.observe(ctx, ev)
		return nil
	default:
		return fmt.Errorf("listbackup: count the retry of job %s: %w", c.New.JobID, err)
	}
	ev.Job.RetryCount = n + 1
	ev.Action = JobRetried
	return h.send(ctx, c, ev, n+1)
}

// maxRetries is the job's bound: its maxRetries, or DefaultMaxRetries
// for a job ListBackup's own code wrote (migrated: it carries the
// jobConfig its jobs/create wrote) with none.
func maxRetries(c table.ItemChange[lb.Job]) int {
	j := c.New
	if j == nil {
		j = c.Old
	}
	if _, legacy := j.Extra["jobConfig"]; legacy && j.MaxRetries == 0 {
		return DefaultMaxRetries
	}
	return j.MaxRetries
}

// send sends ev.Job to its queue as attempt n (0: its creation).
func (h *JobQueueHandler) send(ctx context.Context, c table.ItemChange[lb.Job], ev JobEvent, n int) error {
	m, ok := message(ev.Job, maxRetries(c), n)
	if !ok {
		ev.Action = JobNoQueue
		h.observe(ctx, ev)
		return nil
	}
	if err := h.Queue.Send(ctx, m); err != nil {
		return fmt.Errorf("listbackup: send job %s to queue %s (deduplication ID %s): %w", ev.Job.JobID, m.Queue, m.DeduplicationID, err)
	}
	ev.Message = &m
	h.observe(ctx, ev)
	return nil
}

// message builds the message of job j's attempt n; false when its type
// has no queue.
func message(j lb.Job, limit, n int) (JobMessage, bool) {
	q, ok := QueueOf(j.JobType)
	if !ok {
		return JobMessage{}, false
	}
	prio := j.Priority
	if prio == "" {
		prio = lb.PriorityMedium // fix 1: what Jobs.Create gives a job without one
	}
	b := JobBody{
		JobID: string(j.JobID), AccountID: string(j.AccountID), UserID: string(j.CreatedBy), SourceID: string(j.SourceID),
		Type: string(j.JobType), SubType: extraString(j.Extra, "subType"), Priority: string(prio), Status: string(j.Status),
		RetryCount: n, MaxRetries: limit,
	}
	if b.UserID == "" {
		b.UserID = extraString(j.Extra, "userId") // ListBackup's jobs/create writes userId
	}
	body, _ := json.Marshal(b) // strings and ints: never fails
	m := JobMessage{
		Queue: q, GroupID: b.SourceID, DeduplicationID: b.JobID, Body: string(body),
		Attributes: map[string]string{"JobType": b.Type, "Priority": b.Priority, "AccountId": b.AccountID},
	}
	if m.GroupID == "" {
		m.GroupID = b.AccountID
	}
	if n > 0 {
		m.DeduplicationID = fmt.Sprintf("%s#retry-%d", b.JobID, n)
	}
	if b.SourceID != "" {
		m.Attributes["SourceId"] = b.SourceID
	}
	if b.SubType != "" {
		m.Attributes["SubType"] = b.SubType
	}
	return m, true
}

func extraString(x table.Extra, name string) string {
	if s, ok := x[name].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

func (h *JobQueueHandler) observe(ctx context.Context, e JobEvent) {
	if h.Observe != nil {
		h.Observe(ctx, e)
	}
}
