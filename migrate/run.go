package migrate

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
)

// Options configure [Run] and [Verify].
type Options struct {
	// Stack is the legacy deployment's stack name (required): its tables
	// are <stack>-<table>.
	Stack string
	// Manifest is the deployment's layout (required; see [Detect]).
	Manifest *Manifest
	// Targets maps the manifest's entity names to their entities
	// (required: every table the manifest migrates names one).
	Targets Targets
	// DryRun reads, converts and validates every item and writes nothing
	// but checkpoints.
	DryRun bool
	// Resume continues an interrupted migration (or verification) from
	// its checkpoints.
	Resume bool
	// Segments is the number of parallel scan segments per table (default 4).
	Segments int
	// Tables limits the run to these legacy tables (suffixes); all when
	// empty.
	Tables []string
	// Parallel is how many legacy tables are done at once (default 4).
	Parallel int
	// MaxCapacity caps the capacity units per second each table's scan
	// consumes (0: no cap).
	MaxCapacity float64
	// Progress, if set, is called after each page with the legacy table's
	// name and its running totals.
	Progress func(name string, r table.JobReport)
}

// check refuses options Run and Verify cannot start with, before any
// request: a *table.ValidationError naming the field.
func (o Options) check(t *table.Table) error {
	switch {
	case o.Stack == "":
		return &table.ValidationError{Field: "Stack", Reason: "required"}
	case o.Manifest == nil:
		return &table.ValidationError{Field: "Manifest", Reason: "required"}
	}
	if err := o.Targets.Check(o.Manifest); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(o.Targets)) {
		if tg := o.Targets[name]; tg.t != nil && tg.t.Name() != t.Name() {
			return &table.ValidationError{Field: "Targets[" + name + "]", Reason: fmt.Sprintf("an entity of table %s, not of %s", tg.t.Name(), t.Name())}
		}
	}
	return nil
}

// TableResult is what a migration did with one legacy table.
type TableResult struct {
	// Name is the legacy table's name (<stack>-<table>); Entity the
	// manifest's entity name for its items.
	Name   string
	Entity string
	// Missing says the deployment has no such table: nothing to migrate.
	Missing bool
	// Skip is why the manifest leaves the table out, if it does.
	Skip string
	// Unexpected counts (up to 100) the items found in a skipped table the
	// manifest expects empty: a failure, see ErrUnexpectedItems.
	Unexpected int
	// Report counts the items (Skipped: past their TTL).
	Report table.JobReport
	// Expired lists the legacy keys of items past their TTL, not migrated
	// (at most 100; Report.Skipped counts them all).
	Expired []string
	// Kept lists the values the migration copied that the entity does not
	// know (an enum value another writer stored: "plan \"pro\" in
	// ACCOUNT#.../PROFILE (known: free, ...)"), in the items this run wrote
	// and in those an earlier run wrote (a resumed run lists the whole
	// migration's: they are saved with the checkpoints); at most 100,
	// KeptCount counts them all. Kept as stored, never a reason to leave
	// an item behind.
	Kept      []string
	KeptCount int
	// Repairs lists the paths the migration rebuilt from the parent chain
	// ([Tree]): "accountPath of accountId=X: \"old\" -> \"new\"", sorted,
	// with Kept's scope and bound (RepairCount counts them all).
	Repairs     []string
	RepairCount int
}

// Run copies a legacy deployment into t (see the package doc for the
// contract) and reports per table of the manifest, o.Parallel tables at
// once. The legacy tables are reached with t's client. A table the
// deployment lacks is reported Missing, a table the manifest skips is
// reported with its reason; neither is an error (but a skipped table the
// manifest expects empty that holds items is: [ErrUnexpectedItems]). A
// table's job stops at its first error that is not a conflict (the others
// go on); run again with Resume to continue it. Options that cannot start
// (no Stack, no Manifest, an entity name without a target) are a
// *table.ValidationError before any request.
func Run(ctx context.Context, t *table.Table, o Options) ([]TableResult, error) {
	head := func(lt Table, name string, missing bool) TableResult {
		return TableResult{Name: name, Entity: lt.Entity, Skip: lt.Skip, Missing: missing}
	}
	return eachTable(ctx, t, o, head, migrateTable, func(ctx context.Context, lt Table, r *TableResult) error {
		if !lt.ExpectEmpty {
			return nil
		}
		n, err := countSome(ctx, t, r.Name)
		if err != nil {
			return err
		}
		if n > 0 {
			r.Unexpected = n
			return fmt.Errorf("%s: %w", r.Name, ErrUnexpectedItems)
		}
		return nil
	})
}

// eachTable is the per-table driver of [Run] and [Verify]: for each
// legacy table o selects, o.Parallel at once, it makes the table's result
// with head (missing when the deployment lacks the table: reported, not
// an error), then runs the table (run) unless the manifest skips it, when
// skipped, if set, checks it. The options are checked first; the tables'
// errors are joined.
func eachTable[R any](ctx context.Context, t *table.Table, o Options, head func(lt Table, name string, missing bool) R,
	run func(context.Context, *table.Table, Options, Table) (R, error), skipped func(context.Context, Table, *R) error) ([]R, error) {
	if err := o.check(t); err != nil {
		return nil, err
	}
	lts := o.tables()
	out := make([]R, len(lts))
	errs := make([]error, len(lts))
	parallel(o, len(lts), func(i int) {
		lt := lts[i]
		name := o.Stack + "-" + lt.Suffix
		exists, err := tableExists(ctx, t.Client(), name)
		out[i] = head(lt, name, err == nil && !exists)
		switch {
		case err != nil:
			errs[i] = err
		case !exists:
		case lt.Skip == "":
			out[i], errs[i] = run(ctx, t, o, lt)
		case skipped != nil:
			errs[i] = skipped(ctx, lt, &out[i])
		}
	})
	return out, errors.Join(errs...)
}

// ErrUnexpectedItems: a table the manifest skips because no code writes it
// holds items. They are not migrated; map the table in a manifest of your
// own to migrate them.
var ErrUnexpectedItems = errors.New("holds items its layout does not expect (no code writes it): not migrated")

// countSome counts the items of the first page of table name (up to 100).
func countSome(ctx context.Context, t *table.Table, name string) (int, error) {
	out, err := t.Client().Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(name), Limit: aws.Int32(100), Select: types.SelectCount})
	if err != nil {
		return 0, fmt.Errorf("scan %s: %w", name, err)
	}
	return int(out.Count), nil
}

// tables returns the manifest's tables the options select.
func (o Options) tables() []Table {
	var lts []Table
	for _, lt := range o.Manifest.Tables {
		if len(o.Tables) == 0 || slices.Contains(o.Tables, lt.Suffix) {
			lts = append(lts, lt)
		}
	}
	return lts
}

// parallel runs f(0..n-1), o.Parallel at once.
func parallel(o Options, n int, f func(int)) {
	par := o.Parallel
	if par <= 0 {
		par = 4
	}
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
}

// tableExists reports whether the deployment has table name.
func tableExists(ctx context.Context, client *dynamodb.Client, name string) (bool, error) {
	_, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	var nf *types.ResourceNotFoundException
	switch {
	case errors.As(err, &nf):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("describe %s: %w", name, err)
	}
	return true, nil
}

// expiredKeys collects the keys of items past their TTL.
type expiredKeys struct {
	mu   sync.Mutex
	keys []string
}

func (e *expiredKeys) add(k string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.keys) < 100 {
		e.keys = append(e.keys, k)
	}
}

// migrateTable runs the job that copies one legacy table.
func migrateTable(ctx context.Context, t *table.Table, o Options, lt Table) (TableResult, error) {
	name := o.Stack + "-" + lt.Suffix
	res := TableResult{Name: name, Entity: lt.Entity}
	prep, err := prepFor(ctx, t.Client(), name, lt)
	if err != nil {
		return res, fmt.Errorf("migrate %s: %w", name, err)
	}
	tg := o.Targets[lt.Entity]
	var exp expiredKeys
	now := t.Now().Unix()
	// What the migration kept and repaired is noted with the page's
	// checkpoint (table.JobNote), for the items it wrote and those an
	// earlier run wrote: a resumed run lists the whole migration's.
	page := func(ctx context.Context, raws []table.Item, dry bool) ([]table.JobOutcome, []error) {
		ctx = table.WithKeptValues(ctx, func(kv table.KeptValue) {
			table.JobNote(ctx, noteKept, fmt.Sprintf("%s %q in %s/%s (known: %s)", kv.Field, kv.Value, kv.Key.PK, kv.Key.SK, strings.Join(kv.Allowed, ", ")))
		})
		outs, errs := make([]table.JobOutcome, len(raws)), make([]error, len(raws))
		var ready []table.Item
		var at []int
		var repairs []string
		for i, raw := range raws {
			if ttl, ok := lt.ttlSeconds(raw); ok && ttl <= now {
				outs[i] = table.Skipped
				exp.add(legacyKey(raw, lt))
				continue
			}
			r, repair := prep.item(raw)
			ready = append(ready, r)
			at = append(at, i)
			repairs = append(repairs, repair)
		}
		if len(ready) == 0 {
			return outs, errs
		}
		o, e := tg.page(ctx, ready, dry)
		for j, i := range at {
			outs[i], errs[i] = o[j], e[j]
			switch {
			case o[j] == table.Skipped:
				exp.add(legacyKey(raws[i], lt))
			case (o[j] == table.Changed || o[j] == table.Unchanged) && e[j] == nil && repairs[j] != "":
				table.JobNote(ctx, noteRepairs, repairs[j])
			}
		}
		return outs, errs
	}
	job := table.Job{
		Name: "migrate-" + strings.ReplaceAll(lt.Suffix, "_", "-"),
		Visit: func(ctx context.Context, raw table.Item, dry bool) (table.JobOutcome, error) {
			outs, errs := page(ctx, []table.Item{raw}, dry)
			return outs[0], errs[0]
		},
		VisitPage:   page,
		Segments:    o.Segments,
		DryRun:      o.DryRun,
		Resume:      o.Resume,
		MaxCapacity: o.MaxCapacity,
		Source:      name,
		SourceKey:   lt.keyAttrs(),
	}
	if o.Progress != nil {
		job.Progress = func(r table.JobReport) { o.Progress(name, r) }
	}
	rep, err := t.RunJob(ctx, job)
	if err != nil {
		err = fmt.Errorf("migrate %s: %w", name, err)
	}
	kept, repaired := rep.Notes[noteKept], rep.Notes[noteRepairs]
	res.Kept, res.KeptCount = kept.Entries, kept.Count
	res.Repairs, res.RepairCount = slices.Sorted(slices.Values(repaired.Entries)), repaired.Count
	res.Report, res.Expired = rep, exp.keys
	return res, err
}

// The lists of notes a migration's job keeps (table.JobNote).
const (
	noteKept    = "kept"
	noteRepairs = "repairs"
)

// legacyKey renders raw's key in lt for a report: "pk=X" or "pk=X, sk=Y".
func legacyKey(raw table.Item, lt Table) string {
	s := func(a string) string {
		switch v := raw[a].(type) {
		case *types.AttributeValueMemberS:
			return v.Value
		case *types.AttributeValueMemberN:
			return v.Value
		}
		return "?"
	}
	if lt.SK == "" {
		return lt.PK + "=" + s(lt.PK)
	}
	return lt.PK + "=" + s(lt.PK) + ", " + lt.SK + "=" + s(lt.SK)
}
