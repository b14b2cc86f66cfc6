package job

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
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
type JobOutcome int

// The outcomes of a visit.
const (
	// Unchanged: the item already satisfies the job.
	Unchanged JobOutcome = iota
	// Changed: the item was (or would be) written.
	Changed
	// Skipped: the job does not concern the item.
	Skipped
	// Conflicted: the item cannot be brought in line without a human (a
	// duplicate unique value, an undecodable attribute); see JobReport.Conflicts.
	Conflicted
)

// JobConflict names an item a job could not handle, and why.
type JobConflict struct {
	Key    ddb.Key
	Reason string
}

// JobReport counts what a job did.
type JobReport struct {
	// Scanned counts every item the scan returned, the library's own
	// guards and checkpoints included (for progress against the table's
	// item count); Seen counts the items visited.
	Scanned                                       int64
	Seen, Changed, Unchanged, Skipped, Conflicted int64
	// Capacity is the capacity units consumed (reads and writes).
	Capacity float64
	// Conflicts lists the conflicted items (at most 1000).
	Conflicts []JobConflict
	// Resumed is true when the run continued from a checkpoint.
	Resumed bool
	// Notes are the lists the visits kept with [JobNote], by name, over
	// the whole job: each page's notes are saved with its checkpoint, so
	// the report of a resumed run lists those of the runs before it too.
	Notes map[string]JobNotes
}

// JobNotes is one list of a job's notes: the first MaxJobNotes entries
// and how many there were.
type JobNotes struct {
	Entries []string
	Count   int
}

// MaxJobNotes bounds each list of notes a report (and each segment's
// checkpoint) holds; JobNotes.Count counts them all.
const MaxJobNotes = 100

// add appends entries (of count in all) to n, keeping the first
// MaxJobNotes; n's entries are copied, never appended to in place.
func (n JobNotes) add(entries []string, count int) JobNotes {
	out := JobNotes{Entries: slices.Clone(n.Entries), Count: n.Count + count}
	for _, e := range entries {
		if len(out.Entries) == MaxJobNotes {
			break
		}
		out.Entries = append(out.Entries, e)
	}
	return out
}

// mergeNotes returns a with b's notes added after its own.
func mergeNotes(a, b map[string]JobNotes) map[string]JobNotes {
	if len(b) == 0 {
		return a
	}
	out := maps.Clone(a)
	if out == nil {
		out = map[string]JobNotes{}
	}
	for name, n := range b {
		out[name] = out[name].add(n.Entries, n.Count)
	}
	return out
}

type noteKey struct{}

// pageNotes collects the notes of one page of a segment.
type pageNotes struct {
	mu sync.Mutex
	m  map[string]JobNotes
}

// Note adds entry to the job's list of notes named list (what a
// migration kept or repaired, say), when ctx is a visit's context under
// [Table.RunJob]; elsewhere it does nothing. Notes are saved with the
// checkpoint of the page whose visit made them, and a page visited again
// after an interruption makes its notes again: a visit notes what holds
// of its item (an item already done included), not only what it wrote.
// Safe for concurrent use.
func Note(ctx context.Context, list, entry string) {
	pn, _ := ctx.Value(noteKey{}).(*pageNotes)
	if pn == nil {
		return
	}
	pn.mu.Lock()
	defer pn.mu.Unlock()
	if pn.m == nil {
		pn.m = map[string]JobNotes{}
	}
	pn.m[list] = pn.m[list].add([]string{entry}, 1)
}

// String summarises the report on one line.
func (r JobReport) String() string {
	return fmt.Sprintf("seen %d, changed %d, unchanged %d, skipped %d, in conflict %d (%.0f capacity units)",
		r.Seen, r.Changed, r.Unchanged, r.Skipped, r.Conflicted, r.Capacity)
}

// Job is one maintenance pass; run it with [Table.RunJob].
type Job struct {
	// Name names the checkpoint (required): a-z, 0-9, '-' and '_'.
	Name string
	// Visit handles one item. With dryRun it must write nothing. It may
	// return an error wrapping [ddb.ErrUniqueViolation] or [codec.ErrInvalidInput]
	// for an item it cannot handle (counted as a conflict); any other
	// error stops the job.
	Visit func(ctx context.Context, raw ddb.Item, dryRun bool) (JobOutcome, error)
	// VisitPage, if set, handles a whole page at once instead of Visit
	// (a batched write): it returns an outcome and an error per item, in
	// order, with Visit's meaning.
	VisitPage func(ctx context.Context, raws []ddb.Item, dryRun bool) ([]JobOutcome, []error)
	// Segments is the number of parallel scan segments (default 4).
	Segments int
	// PageSize is the number of items per Scan request (default 100).
	PageSize int32
	// MaxCapacity caps consumed capacity units per second (0: no cap).
	MaxCapacity float64
	// DryRun visits every item without writing.
	DryRun bool
	// Resume continues from the job's checkpoint; without it the job
	// starts over.
	Resume bool
	// Progress, if set, is called after each page with the running totals.
	Progress func(JobReport)
	// Source, if set, names another table to scan (a migration's legacy
	// table, reached with the same client); the checkpoint still lives in
	// this table. SourceKey names the source's key attributes, to name an
	// item in the report's conflicts.
	Source    string
	SourceKey []string

	bookkeeping func(ddb.Item) bool // set by Run
}

// Prefix is the partition of checkpoint items.
const Prefix = "_JOB#"

// Run runs job over every item of t's table (bookkeeping tells the
// library's own items, which it counts but does not visit) (see the contract above)
// and returns its report. On an error or the end of ctx the checkpoint
// keeps what was done, and the report so far is returned with the error.
func Run(ctx context.Context, t *ddb.Conn, job Job, bookkeeping func(ddb.Item) bool) (JobReport, error) {
	job.bookkeeping = bookkeeping
	var rep JobReport
	if job.Name == "" || strings.ContainsFunc(job.Name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) {
		return rep, &codec.ValidationError{Field: "job name", Reason: fmt.Sprintf("%q: want a-z, 0-9, '-', '_'", job.Name)}
	}
	if job.Visit == nil && job.VisitPage == nil {
		return rep, &codec.ValidationError{Field: "job visit", Reason: "nil"}
	}
	if job.Segments <= 0 {
		job.Segments = 4
	}
	if job.PageSize <= 0 {
		job.PageSize = 100
	}
	t.Jobs.Add(1)
	defer t.Jobs.Add(-1)
	if job.DryRun {
		// A dry run writes no guard, so it finds the duplicates among the
		// items themselves by remembering the values it would claim.
		ctx = WithClaims(ctx)
	}

	segs := make([]*jobSegment, job.Segments)
	for i := range segs {
		segs[i] = &jobSegment{n: i, of: job.Segments}
	}
	if job.Resume {
		if err := loadCheckpoint(t, ctx, job.Name, segs, job.DryRun); err != nil {
			return rep, err
		}
		rep.Resumed = true
	} else {
		// Starting over: a checkpoint an earlier run left must not be
		// taken, by a later resume, for this run's position in a segment
		// interrupted before its first page.
		for _, seg := range segs {
			if err := saveCheckpoint(t, ctx, job.Name, seg, job.DryRun); err != nil {
				return rep, err
			}
		}
	}
	lim := newCapLimiter(job.MaxCapacity)
	var mu sync.Mutex
	total := func() JobReport {
		r := JobReport{Resumed: rep.Resumed}
		for _, s := range segs {
			r.Capacity += s.acc.Units()
			r.Scanned += s.rep.Scanned
			r.Seen += s.rep.Seen
			r.Changed += s.rep.Changed
			r.Unchanged += s.rep.Unchanged
			r.Skipped += s.rep.Skipped
			r.Conflicted += s.rep.Conflicted
			r.Conflicts = append(r.Conflicts, s.rep.Conflicts...)
			r.Notes = mergeNotes(r.Notes, s.rep.Notes)
		}
		if len(r.Conflicts) > 1000 {
			r.Conflicts = r.Conflicts[:1000]
		}
		return r
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(segs))
	var wg sync.WaitGroup
	for i, seg := range segs {
		if seg.done {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = runSegment(t, ddb.WithMeter(ctx, &seg.acc), job, seg, lim, &mu, func() {
				if job.Progress != nil {
					mu.Lock()
					job.Progress(total())
					mu.Unlock()
				}
			})
			if errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	rep = total()
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return rep, err
		}
	}
	return rep, errors.Join(errs...)
}

type jobSegment struct {
	n, of int // segment n of of
	start ddb.Item
	done  bool
	rep   JobReport
	acc   ddb.Meter // capacity consumed by this run of the segment
}

func runSegment(t *ddb.Conn, ctx context.Context, job Job, seg *jobSegment, lim *capLimiter, mu *sync.Mutex, progress func()) error {
	acc := &seg.acc
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		name := t.Schema.Name
		if job.Source != "" {
			name = job.Source
		}
		out, err := t.Client.Scan(ctx, &dynamodb.ScanInput{
			TableName:              aws.String(name),
			Segment:                aws.Int32(int32(seg.n)),
			TotalSegments:          aws.Int32(int32(job.Segments)),
			Limit:                  aws.Int32(job.PageSize),
			ExclusiveStartKey:      seg.start,
			ConsistentRead:         aws.Bool(true),
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		var c float64
		if out != nil {
			c = ddb.CapacityOf(out.ConsumedCapacity)
		}
		if err != nil {
			err = ddb.MapErr(err)
		}
		t.Observe(ctx, ddb.Event{Op: "Scan", Duration: time.Since(start), Err: err, Capacity: c})
		if err != nil {
			return fmt.Errorf("job %s: scan segment %d: %w", job.Name, seg.n, err)
		}
		page := seg.rep
		page.Scanned += int64(len(out.Items))
		var raws []ddb.Item
		var keys []ddb.Key
		for _, raw := range out.Items {
			k := t.KeyOf(raw)
			if job.Source != "" {
				k = sourceKey(raw, job.SourceKey)
			} else if job.bookkeeping != nil && job.bookkeeping(raw) {
				continue // guards and checkpoints are the library's own
			}
			raws, keys = append(raws, raw), append(keys, k)
		}
		notes := &pageNotes{}
		vctx := context.WithValue(ctx, noteKey{}, notes)
		visit := func(i int) (JobOutcome, error) { return job.Visit(vctx, raws[i], job.DryRun) }
		if job.VisitPage != nil {
			before := acc.Units()
			outs, errs := job.VisitPage(vctx, raws, job.DryRun)
			if len(outs) != len(raws) || len(errs) != len(raws) {
				return fmt.Errorf("job %s: VisitPage returned %d outcomes and %d errors for %d items", job.Name, len(outs), len(errs), len(raws))
			}
			visit = func(i int) (JobOutcome, error) { return outs[i], errs[i] }
			if err := lim.wait(ctx, acc.Units()-before); err != nil {
				return err
			}
		}
		for i := range raws {
			k := keys[i]
			page.Seen++
			before := acc.Units()
			o, err := visit(i)
			switch {
			case err == nil:
			case errors.Is(err, ddb.ErrUniqueViolation), errors.Is(err, codec.ErrInvalidInput):
				o = Conflicted
				page.Conflicts = append(page.Conflicts, JobConflict{Key: k, Reason: err.Error()})
			default:
				return fmt.Errorf("job %s: item %s/%s: %w", job.Name, k.PK, k.SK, err)
			}
			switch o {
			case Changed:
				page.Changed++
			case Unchanged:
				page.Unchanged++
			case Skipped:
				page.Skipped++
			case Conflicted:
				page.Conflicted++
			}
			if err := lim.wait(ctx, acc.Units()-before); err != nil {
				return err
			}
		}
		if err := lim.wait(ctx, c); err != nil {
			return err
		}
		notes.mu.Lock()
		page.Notes = mergeNotes(page.Notes, notes.m)
		notes.mu.Unlock()
		mu.Lock() // the progress callback reads every segment's report
		seg.rep = page
		seg.start = out.LastEvaluatedKey
		seg.done = len(out.LastEvaluatedKey) == 0
		mu.Unlock()
		if err := saveCheckpoint(t, ctx, job.Name, seg, job.DryRun); err != nil {
			return err
		}
		progress()
		if seg.done {
			return nil
		}
	}
}

// capLimiter spaces requests so that capacity consumed stays under a rate.
type capLimiter struct {
	mu   sync.Mutex
	rate float64 // units per second; 0: no limit
	next time.Time
}

func newCapLimiter(rate float64) *capLimiter { return &capLimiter{rate: rate} }

// wait accounts units just consumed and sleeps until the budget allows
// the next request.
func (l *capLimiter) wait(ctx context.Context, units float64) error {
	if l.rate <= 0 || units <= 0 {
		return nil
	}
	l.mu.Lock()
	now := time.Now()
	if l.next.Before(now) {
		l.next = now
	}
	l.next = l.next.Add(time.Duration(units / l.rate * float64(time.Second)))
	d := time.Until(l.next)
	l.mu.Unlock()
	if d <= 0 {
		return nil
	}
	return ddb.Sleep(ctx, d)
}

func checkpointKey(job string, seg int) ddb.Key {
	return ddb.Key{PK: Prefix + job, SK: "SEGMENT#" + strconv.Itoa(seg)}
}

func saveCheckpoint(t *ddb.Conn, ctx context.Context, job string, seg *jobSegment, dryRun bool) error {
	k := checkpointKey(job, seg.n)
	item := t.KeyItem(k)
	if t.Schema.TypeAttr != "" {
		item[t.Schema.TypeAttr] = &types.AttributeValueMemberS{Value: "_job"}
	}
	item["done"] = &types.AttributeValueMemberBOOL{Value: seg.done}
	item["dryRun"] = &types.AttributeValueMemberBOOL{Value: dryRun}
	item["segments"] = codec.Num(int64(seg.of))
	if len(seg.start) > 0 {
		item["start"] = &types.AttributeValueMemberM{Value: seg.start}
	}
	for name, n := range map[string]int64{"seen": seg.rep.Seen, "changed": seg.rep.Changed, "unchanged": seg.rep.Unchanged, "skipped": seg.rep.Skipped, "conflicted": seg.rep.Conflicted} {
		item[name] = codec.Num(n)
	}
	if len(seg.rep.Conflicts) > 0 {
		var l []types.AttributeValue
		for i, c := range seg.rep.Conflicts {
			if i == 100 {
				break
			}
			l = append(l, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: c.Key.PK}, "sk": &types.AttributeValueMemberS{Value: c.Key.SK},
				"reason": &types.AttributeValueMemberS{Value: c.Reason},
			}})
		}
		item["conflicts"] = &types.AttributeValueMemberL{Value: l}
	}
	if len(seg.rep.Notes) > 0 {
		notes := map[string]types.AttributeValue{}
		for name, n := range seg.rep.Notes {
			l := make([]types.AttributeValue, 0, len(n.Entries))
			for _, e := range n.Entries {
				l = append(l, &types.AttributeValueMemberS{Value: e})
			}
			notes[name] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"entries": &types.AttributeValueMemberL{Value: l}, "count": codec.Num(int64(n.Count)),
			}}
		}
		item["notes"] = &types.AttributeValueMemberM{Value: notes}
	}
	_, err := t.Client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(t.Schema.Name), Item: item})
	if err != nil {
		return fmt.Errorf("job %s: save checkpoint: %w", job, ddb.MapErr(err))
	}
	return nil
}

func loadCheckpoint(t *ddb.Conn, ctx context.Context, job string, segs []*jobSegment, dryRun bool) error {
	for _, seg := range segs {
		raw, err := t.GetItem(ctx, "_job", checkpointKey(job, seg.n), true, nil, nil)
		if err != nil {
			return fmt.Errorf("job %s: load checkpoint: %w", job, err)
		}
		if raw == nil {
			continue
		}
		if b, _ := raw["dryRun"].(*types.AttributeValueMemberBOOL); (b != nil && b.Value) != dryRun {
			continue // a dry run's position is no real run's, and the reverse
		}
		if n, ok := raw["segments"].(*types.AttributeValueMemberN); ok && n.Value != strconv.Itoa(seg.of) {
			// Segment i of another count covers other items: resuming
			// would skip some and repeat others.
			return &codec.ValidationError{Field: "job segments", Reason: fmt.Sprintf("the checkpoint of job %s was written with %s segments; resume with %s, or start over", job, n.Value, n.Value)}
		}
		if b, ok := raw["done"].(*types.AttributeValueMemberBOOL); ok {
			seg.done = b.Value
		}
		if m, ok := raw["start"].(*types.AttributeValueMemberM); ok {
			seg.start = m.Value
		}
		num := func(name string) int64 {
			if n, ok := raw[name].(*types.AttributeValueMemberN); ok {
				v, _ := strconv.ParseInt(n.Value, 10, 64)
				return v
			}
			return 0
		}
		seg.rep = JobReport{Seen: num("seen"), Changed: num("changed"), Unchanged: num("unchanged"), Skipped: num("skipped"), Conflicted: num("conflicted")}
		if m, ok := raw["notes"].(*types.AttributeValueMemberM); ok {
			seg.rep.Notes = map[string]JobNotes{}
			for name, v := range m.Value {
				nm, _ := v.(*types.AttributeValueMemberM)
				if nm == nil {
					continue
				}
				var n JobNotes
				if l, ok := nm.Value["entries"].(*types.AttributeValueMemberL); ok {
					for _, e := range l.Value {
						if s, ok := e.(*types.AttributeValueMemberS); ok {
							n.Entries = append(n.Entries, s.Value)
						}
					}
				}
				if c, ok := nm.Value["count"].(*types.AttributeValueMemberN); ok {
					v, _ := strconv.Atoi(c.Value)
					n.Count = v
				}
				seg.rep.Notes[name] = n
			}
		}
		if l, ok := raw["conflicts"].(*types.AttributeValueMemberL); ok {
			for _, v := range l.Value {
				m, _ := v.(*types.AttributeValueMemberM)
				if m == nil {
					continue
				}
				str := func(k string) string {
					s, _ := m.Value[k].(*types.AttributeValueMemberS)
					if s == nil {
						return ""
					}
					return s.Value
				}
				seg.rep.Conflicts = append(seg.rep.Conflicts, JobConflict{Key: ddb.Key{PK: str("pk"), SK: str("sk")}, Reason: str("reason")})
			}
		}
	}
	return nil
}

// Dry-run claims. A dry run writes no guard and no item, so on its own it
// would miss the conflicts among the items it visits: two items with one
// unique value, two imported rows with one key. Every dry run (the
// adoption job's, Import's and ImportMany's) records instead, in one map
// carried by its context, what the writes it did not make would hold:
// unique values (ddb.Unique -> the owner's ddb.Key) and, for imports, primary
// keys (ddb.Key -> true). The real run meets the same values as held guards
// and items, so a dry run predicts its conflicts.

// claimsKey holds a dry run's claims (a *sync.Map, see above).
type claimsKey struct{}

// WithClaims returns ctx carrying a claims map: its own if it has one (a
// job's dry run passes it to every item), else a new one.
func WithClaims(ctx context.Context) context.Context {
	if ClaimsOf(ctx) != nil {
		return ctx
	}
	return context.WithValue(ctx, claimsKey{}, &sync.Map{})
}

// ClaimsOf returns the claims map of ctx (nil outside a dry run).
func ClaimsOf(ctx context.Context) *sync.Map {
	m, _ := ctx.Value(claimsKey{}).(*sync.Map)
	return m
}

// ClaimUnique records that owner would hold u. If another owner claimed it
// first, nothing is recorded and that owner is returned with taken true.
// fresh is true when this call recorded the claim.
func ClaimUnique(claims *sync.Map, u ddb.Unique, owner ddb.Key) (prev ddb.Key, taken, fresh bool) {
	p, loaded := claims.LoadOrStore(u, owner)
	if loaded && p.(ddb.Key) != owner {
		return p.(ddb.Key), true, false
	}
	return ddb.Key{}, false, !loaded
}

// sourceKey names an item of a job's source table by its key attributes.
func sourceKey(raw ddb.Item, attrs []string) ddb.Key {
	var k ddb.Key
	for i, a := range attrs {
		v, _ := keytmpl.SegmentValue(raw[a])
		if i == 0 {
			k.PK = a + "=" + v
		} else {
			k.SK = a + "=" + v
		}
	}
	return k
}

// ClaimGuards predicts, in a dry run, whether the guard actions guards
// (puts of the guards of owner k's unique values) would succeed: each
// value (a shared one's entry is the holder's own: skipped) is claimed in
// claims and its guard read (strongly consistent). A value another row of
// the run claimed, or a guard held by another live item, is an
// [ddb.ErrUniqueViolation]; the claims this call made are then released.
func ClaimGuards(ctx context.Context, c *ddb.Conn, claims *sync.Map, k ddb.Key, guards []ddb.Op) error {
	var mine []ddb.Unique
	release := func() {
		for _, u := range mine {
			claims.Delete(u)
		}
	}
	for _, op := range guards {
		u := op.Guard
		if u.Name == "" || u.Shared {
			continue
		}
		p, taken, fresh := ClaimUnique(claims, u, k)
		if taken {
			release()
			return fmt.Errorf("%w: %s %q is also claimed by %s/%s in this run", ddb.ErrUniqueViolation, u.Name, u.Value, p.PK, p.SK)
		}
		if fresh {
			mine = append(mine, u)
		}
		owner, held, err := c.LiveHolder(ctx, op.Key)
		if err != nil {
			release()
			return err
		}
		if held && owner != k {
			release()
			return fmt.Errorf("%w: %s %q is held by %s/%s", ddb.ErrUniqueViolation, u.Name, u.Value, owner.PK, owner.SK)
		}
	}
	return nil
}
