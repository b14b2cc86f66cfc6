package feed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/singletable/singletable/table"
)

// Start is where a [Consumer] begins reading a shard it has no checkpoint
// for.
type Start int

const (
	// TrimHorizon starts at the oldest record the stream still holds (24
	// hours on AWS): every record is delivered. The default.
	TrimHorizon Start = iota
	// Latest starts after the newest record when the consumer starts:
	// only later writes are delivered.
	Latest
)

// String returns "trim-horizon" or "latest".
func (s Start) String() string {
	if s == Latest {
		return "latest"
	}
	return "trim-horizon"
}

// ErrBusy is the error of a Run or CatchUp called while another call on
// the same Consumer has not returned.
var ErrBusy = errors.New("feed: consumer already running")

// ErrShortBatch is the error recorded when a [BatchHandler] returns
// without an error but without having handled its whole batch: the rest is
// delivered again like after an error.
var ErrShortBatch = errors.New("feed: handler returned before handling its whole batch")

// Consumer follows the stream of one table and hands its records, shard
// by shard in order, to a [BatchHandler], keeping its place in each shard
// as a checkpoint item in the table itself (see the package doc for the
// contract under faults).
//
//   - Shards are found with DescribeStream when Run starts and again every
//     Discover interval and whenever a shard closes; a closed shard's
//     children are read only after the parent's last record was handled
//     and its checkpoint marked done, so each key's records arrive in
//     order across shard splits. Shards are read concurrently, one
//     goroutine each: HandleBatch is called concurrently for different
//     shards, never for one shard.
//   - A shard with a checkpoint resumes after it (AFTER_SEQUENCE_NUMBER).
//     A shard without one starts at Start (TrimHorizon or Latest) when it
//     is listed as Run starts and the consumer has no checkpoint at all;
//     otherwise (a shard created since, or one whose parent the consumer
//     read) at its trim horizon, so nothing written to it is skipped.
//   - After each batch the records handled are checkpointed: item PK
//     _FEED#{Name}, SK SHARD#{shardId}, entity type table.FeedType
//     ("_feed"), written on the condition that it only moves forward. A
//     closed shard, once finished, is marked done (and expires by the
//     table's TTL two days later).
//   - The checkpoint writes are records of the stream too (library items:
//     a [Router] skips them). A batch made only of change-feed checkpoint
//     records (this consumer's or another's) is handed to the handler but
//     not checkpointed, so consumers never feed each other an endless
//     stream of checkpoint writes; its position is kept in memory and the
//     next batch that holds anything else checkpoints past it. Other
//     library records (guards, counter shards) are checkpointed like
//     entities': they may be the bulk of a busy table's stream.
//   - An expired iterator is renewed after the last record handled;
//     throttling and transient faults are retried with capped, jittered
//     exponential backoff, without limit while ctx lasts.
//   - A handler's error is retried Attempts times with backoff (a call
//     that handled some records first checkpoints them and restarts the
//     count at the first it did not handle); then Run returns it as a
//     *table.RecordError naming that record, and the shard's checkpoint
//     stays at the last record handled.
//
// A Consumer keeps its positions in memory between calls: a second
// CatchUp (or Run) on the same value continues where the first stopped,
// even with NoCheckpoint. Set the fields before the first call and leave
// them.
type Consumer struct {
	// Table is the table whose stream is followed, and where checkpoints
	// are kept.
	Table *table.Table
	// Streams is the Streams API client (nil: StreamsClient(Table.Client())).
	// Tests pass one with middleware to inject faults.
	Streams *dynamodbstreams.Client
	// Name names the consumer's checkpoints: PK _FEED#{Name}, SK
	// SHARD#{shardId}, entity type "_feed". Two consumers with different
	// names each see every record; two running at once with the same name
	// each see every record too (the checkpoint keeps the furthest). It
	// may be empty only with NoCheckpoint.
	Name string
	// Handler handles each batch (a *Router is one).
	Handler BatchHandler
	// Start is where a shard with no checkpoint starts (see [Consumer]):
	// TrimHorizon (default) or Latest.
	Start Start
	// BatchSize is the GetRecords limit (default and most 1000).
	BatchSize int
	// Poll is the wait between reads of an open shard that had no new
	// records (default 1s).
	Poll time.Duration
	// Attempts is how many times the handler is called on a record before
	// Run returns its error (default 5).
	Attempts int
	// NoCheckpoint keeps positions in memory only: the consumer writes
	// nothing to the table (`singletable tail`); a new Consumer starts at
	// Start again.
	NoCheckpoint bool
	// Backoff is the first wait before retrying a throttled or failed call
	// or a handler's error (default 100ms); it doubles each attempt, with
	// jitter, up to MaxBackoff (default 10s).
	Backoff, MaxBackoff time.Duration
	// Discover is how often Run lists the stream's shards again to find
	// new ones (default 30s; a shard that closes triggers a listing at once).
	Discover time.Duration
	// Logger receives warnings (a checkpoint another consumer moved
	// beyond, data trimmed before it was read) and debug records of
	// retries; nil discards them.
	Logger *slog.Logger

	mu      sync.Mutex // held by the running call
	state   *runState
	retries atomic.Int64
}

// runState is what a Consumer remembers between calls.
type runState struct {
	arn    string
	shards map[string]*shardState
	// started says the consumer has listed the stream once: Start applies
	// only to the shards of the first listing.
	started bool
}

// shardState is one shard's place.
type shardState struct {
	id, parent string
	// seq is the sequence number of the last record handled ("" none);
	// saved is the last one checkpointed.
	seq, saved string
	// iter is the iterator to read next (nil: get one).
	iter *string
	// latest: get the first iterator at LATEST.
	latest bool
	// done: closed and finished; caughtUp: read to its current end by
	// this CatchUp.
	done, caughtUp bool
}

func (c *Consumer) check() error {
	switch {
	case c.Table == nil:
		return errorf("Consumer.Table is nil")
	case c.Name == "" && !c.NoCheckpoint:
		return errorf("Consumer.Name is empty (it names the checkpoints)")
	}
	return nil
}

func (c *Consumer) logger() *slog.Logger {
	if c.Logger == nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return c.Logger
}

func (c *Consumer) streams() *dynamodbstreams.Client {
	if c.Streams == nil {
		c.Streams = StreamsClient(c.Table.Client())
	}
	return c.Streams
}

func (c *Consumer) batchSize() int32 {
	if c.BatchSize <= 0 || c.BatchSize > 1000 {
		return 1000
	}
	return int32(c.BatchSize)
}

func (c *Consumer) poll() time.Duration     { return orDur(c.Poll, time.Second) }
func (c *Consumer) backoff() time.Duration  { return orDur(c.Backoff, 100*time.Millisecond) }
func (c *Consumer) discover() time.Duration { return orDur(c.Discover, 30*time.Second) }

func (c *Consumer) maxBackoff() time.Duration {
	return max(orDur(c.MaxBackoff, 10*time.Second), c.backoff())
}

func (c *Consumer) attempts() int {
	if c.Attempts <= 0 {
		return 5
	}
	return c.Attempts
}

func orDur(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Retries returns how many calls to DynamoDB or its Streams API the
// consumer retried after throttling or a transient fault, beyond the
// SDK's own retries (for tests and metrics).
func (c *Consumer) Retries() int64 { return c.retries.Load() }

// Run follows the stream until ctx ends, then returns nil; or until a
// handler's error persists after Attempts calls (a *table.RecordError
// naming the record; the shard's checkpoint stays at the last record
// handled), a checkpoint cannot be written ([ErrCheckpoint]), or a call
// fails for good (the table has no stream, access is denied). When ctx
// ends mid-batch, the records the handler reported handled are still
// checkpointed (one write, bounded by 5 seconds).
func (c *Consumer) Run(ctx context.Context) error { return c.run(ctx, false) }

// CatchUp reads every shard to its current end (its first empty read, as
// [ReadAll] does), handling and checkpointing as Run does, then returns:
// for tests and batch jobs. Children of a shard that closed meanwhile are
// read too. It returns nil when everything was handled or ctx ended.
func (c *Consumer) CatchUp(ctx context.Context) error { return c.run(ctx, true) }

// finished is a shard goroutine's report.
type finished struct {
	sh     *shardState
	closed bool
	err    error
}

func (c *Consumer) run(ctx context.Context, catchUp bool) error {
	if err := c.check(); err != nil {
		return err
	}
	if c.Handler == nil {
		return errorf("Consumer.Handler is nil")
	}
	if !c.mu.TryLock() {
		return ErrBusy
	}
	defer c.mu.Unlock()
	err := c.follow(ctx, catchUp)
	if ctx.Err() != nil {
		return nil // stopped: what was handled is checkpointed
	}
	return err
}

func (c *Consumer) follow(ctx context.Context, catchUp bool) error {
	if c.state == nil {
		c.state = &runState{shards: map[string]*shardState{}}
	}
	rs := c.state
	c.streams() // set once, before the shards' goroutines read it
	if rs.arn == "" {
		var arn string
		if err := c.retry(ctx, "describe table", func() error {
			var err error
			arn, err = StreamARN(ctx, c.Table)
			return err
		}); err != nil {
			return err
		}
		rs.arn = arn
	}
	var saved map[string]Checkpoint
	if !c.NoCheckpoint && !rs.started {
		var err error
		if saved, err = c.loadCheckpoints(ctx); err != nil {
			return err
		}
	}
	for _, sh := range rs.shards {
		sh.caughtUp = false
	}

	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	results := make(chan finished)
	running := map[string]bool{}
	listed := map[string]bool{}

	discover := func() error {
		var shards []st.Shard
		if err := c.retry(ctx, "describe stream", func() error {
			var err error
			shards, err = Shards(ctx, c.streams(), rs.arn)
			return err
		}); err != nil {
			return err
		}
		first := !rs.started
		rs.started = true
		clear(listed)
		for _, s := range shards {
			id := aws.ToString(s.ShardId)
			listed[id] = true
			if rs.shards[id] != nil {
				continue
			}
			sh := &shardState{id: id, parent: aws.ToString(s.ParentShardId)}
			if cp, ok := saved[id]; ok {
				sh.seq, sh.saved, sh.done = cp.Sequence, cp.Sequence, cp.Done
			} else if first && len(saved) == 0 && c.Start == Latest {
				if s.SequenceNumberRange != nil && s.SequenceNumberRange.EndingSequenceNumber != nil {
					// Closed before the start: nothing after "latest" in it.
					// Marked done, so a restart (which has checkpoints by
					// then) does not read it from its trim horizon.
					sh.done = true
					if !c.NoCheckpoint {
						if err := c.save(ctx, sh, true); err != nil {
							return err
						}
					}
				} else {
					sh.latest = true
				}
			}
			rs.shards[id] = sh
		}
		return nil
	}
	// launch starts every shard that may be read: not done, not running,
	// its parent finished or no longer listed.
	launch := func() {
		for _, id := range sortedIDs(rs.shards) {
			sh := rs.shards[id]
			if sh.done || sh.caughtUp || running[id] || !listed[id] {
				continue
			}
			if p := rs.shards[sh.parent]; p != nil && listed[sh.parent] && !p.done {
				continue
			}
			running[id] = true
			wg.Add(1)
			go func() {
				defer wg.Done()
				closed, err := c.readShard(ctx, rs.arn, sh, catchUp)
				select {
				case results <- finished{sh: sh, closed: closed, err: err}:
				case <-ctx.Done():
				}
			}()
		}
	}

	if err := discover(); err != nil {
		return err
	}
	launch()
	tick := time.NewTicker(c.discover())
	defer tick.Stop()
	for {
		if catchUp && len(running) == 0 {
			// Everything listed is read to its end: list once more for
			// children of shards that closed, and stop when none is new.
			if err := discover(); err != nil {
				return err
			}
			launch()
			if len(running) == 0 {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			if err := discover(); err != nil {
				return err
			}
			launch()
		case f := <-results:
			delete(running, f.sh.id)
			if f.err != nil {
				return f.err
			}
			if f.closed {
				if err := discover(); err != nil {
					return err
				}
			}
			launch()
		}
	}
}

// readShard reads one shard until it is closed and finished (closed
// true), or, for CatchUp, until its first empty read.
func (c *Consumer) readShard(ctx context.Context, arn string, sh *shardState, catchUp bool) (closed bool, err error) {
	for {
		if sh.iter == nil {
			if err := c.iterator(ctx, arn, sh); err != nil {
				return false, err
			}
		}
		var out *dynamodbstreams.GetRecordsOutput
		err := c.retry(ctx, "get records", func() error {
			var err error
			out, err = c.streams().GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: sh.iter, Limit: aws.Int32(c.batchSize())})
			return err
		})
		switch {
		case isCode(err, "ExpiredIteratorException"):
			c.logger().Debug("feed: iterator expired, renewing", "consumer", c.Name, "shard", sh.id, "after", sh.seq)
			sh.iter = nil
			continue
		case isCode(err, "TrimmedDataAccessException"):
			c.logger().Warn("feed: records trimmed before they were read; continuing at the trim horizon", "consumer", c.Name, "shard", sh.id, "after", sh.seq)
			sh.iter, sh.seq, sh.latest = nil, "", false
			continue
		case err != nil:
			return false, fmt.Errorf("feed: shard %s: get records: %w", sh.id, err)
		}
		recs := make([]table.Record, 0, len(out.Records))
		for _, r := range out.Records {
			rec, err := FromStreams(sh.id, r)
			if err != nil {
				return false, err
			}
			recs = append(recs, rec)
		}
		if len(recs) > 0 {
			if err := c.handle(ctx, sh, recs); err != nil {
				return false, err
			}
		}
		sh.iter = out.NextShardIterator
		if sh.iter == nil {
			// The shard is closed and every record of it is handled.
			if !c.NoCheckpoint {
				if err := c.save(ctx, sh, true); err != nil {
					return false, err
				}
			}
			sh.done = true
			return true, nil
		}
		if len(recs) > 0 {
			continue
		}
		if catchUp {
			sh.caughtUp = true
			return false, nil
		}
		t := time.NewTimer(c.poll())
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return false, ctx.Err()
		}
	}
}

// iterator gets sh's iterator: after its last record handled, else at
// LATEST or the trim horizon.
func (c *Consumer) iterator(ctx context.Context, arn string, sh *shardState) error {
	in := &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: aws.String(sh.id), ShardIteratorType: st.ShardIteratorTypeTrimHorizon}
	switch {
	case sh.seq != "":
		in.ShardIteratorType, in.SequenceNumber = st.ShardIteratorTypeAfterSequenceNumber, aws.String(sh.seq)
	case sh.latest:
		in.ShardIteratorType = st.ShardIteratorTypeLatest
	}
	var out *dynamodbstreams.GetShardIteratorOutput
	err := c.retry(ctx, "get shard iterator", func() error {
		var err error
		out, err = c.streams().GetShardIterator(ctx, in)
		return err
	})
	if isCode(err, "TrimmedDataAccessException") && sh.seq != "" {
		c.logger().Warn("feed: records trimmed before they were read; continuing at the trim horizon", "consumer", c.Name, "shard", sh.id, "after", sh.seq)
		sh.seq, sh.latest = "", false
		return c.iterator(ctx, arn, sh)
	}
	if err != nil {
		return fmt.Errorf("feed: shard %s: get %s iterator: %w", sh.id, in.ShardIteratorType, err)
	}
	sh.iter = out.ShardIterator
	return nil
}

// handle hands recs to the handler until all are handled, checkpointing
// what each call handled, retrying a failing call Attempts times.
func (c *Consumer) handle(ctx context.Context, sh *shardState, recs []table.Record) error {
	rest := recs
	fails := 0
	for len(rest) > 0 {
		n, err := c.Handler.HandleBatch(ctx, Batch{Shard: sh.id, Records: rest})
		n = max(0, min(n, len(rest)))
		if n > 0 {
			sh.seq = rest[n-1].Sequence
			if err := c.checkpoint(ctx, sh, rest[:n]); err != nil {
				return err
			}
			rest, fails = rest[n:], 0
		}
		if len(rest) == 0 {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err == nil {
			err = ErrShortBatch
		}
		fails++
		if fails >= c.attempts() {
			var re *table.RecordError
			if errors.As(err, &re) {
				return err
			}
			cl := c.Table.Classify(rest[0])
			ent := cl.Library
			if cl.Kind == table.KindEntity {
				ent = cl.Entity.Type()
			}
			return c.Table.NewRecordError(rest[0], ent, err)
		}
		if werr := c.wait(ctx, fails-1); werr != nil {
			return werr
		}
	}
	return nil
}

// checkpoint records that handled (the last records handled on sh) are
// done, unless checkpoints are off or they are all change-feed
// checkpoint records (see [Consumer]).
func (c *Consumer) checkpoint(ctx context.Context, sh *shardState, handled []table.Record) error {
	if c.NoCheckpoint || c.onlyFeedRecords(handled) {
		return nil
	}
	return c.save(ctx, sh, false)
}

// save writes sh's checkpoint at its last record handled. When ctx has
// ended (a consumer stopping mid-batch), the write still goes out, bounded
// by 5 seconds, so the records handled are not delivered again.
func (c *Consumer) save(ctx context.Context, sh *shardState, done bool) error {
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
	}
	if err := c.saveCheckpoint(ctx, sh.id, sh.seq, done); err != nil {
		return err
	}
	sh.saved = sh.seq
	return nil
}

// onlyFeedRecords says whether every record is a change-feed checkpoint's.
func (c *Consumer) onlyFeedRecords(recs []table.Record) bool {
	for _, r := range recs {
		if cl := c.Table.Classify(r); cl.Kind != table.KindLibrary || cl.Library != table.FeedType {
			return false
		}
	}
	return true
}

func sortedIDs(m map[string]*shardState) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	// Shard IDs begin with their creation time: older shards first.
	slices.Sort(ids)
	return ids
}
