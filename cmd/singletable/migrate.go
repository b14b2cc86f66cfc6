package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/schollz/progressbar/v3"

	"github.com/singletable/singletable/migrate"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
)

// secretOptions returns the table options that seal secrets with the key
// in SINGLETABLE_SECRET_KEY (64 hex digits), if it is set.
func secretOptions() ([]func(*table.Options), error) {
	k := os.Getenv("SINGLETABLE_SECRET_KEY")
	if k == "" {
		return nil, nil
	}
	key, err := hex.DecodeString(k)
	if err != nil {
		return nil, fmt.Errorf("SINGLETABLE_SECRET_KEY: %w", err)
	}
	ciph, err := table.NewAESGCM(key)
	if err != nil {
		return nil, fmt.Errorf("SINGLETABLE_SECRET_KEY: %w", err)
	}
	return []func(*table.Options){func(o *table.Options) { o.Cipher = ciph }}, nil
}

// cmdMigrate copies a ListBackup deployment from its legacy tables into
// the single table (listbackup.Store.Migrate), then verifies it.
func cmdMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	stack := fs.String("stack", "", "the legacy deployment's stack name: its tables are <stack>-users, <stack>-accounts, ... (required; listbackup-<stage> for a deployment of ListBackup's own code)")
	manifest := fs.String("manifest", "", "a JSON file describing the legacy layout (default: the shipped layout the stack's tables match)")
	plan := fs.Bool("plan", false, "print, per legacy table, the entity, the item count estimate, the renames and value mappings; change nothing")
	dry := fs.Bool("dry-run", false, "read, convert and validate every item; write nothing but checkpoints")
	resume := fs.Bool("resume", false, "continue an interrupted migration (and verification) from its checkpoints")
	segments := fs.Int("segments", 4, "parallel scan segments per legacy table")
	maxCap := fs.Float64("max-capacity", 0, "capacity units per second each legacy table's scan may consume (0: no cap)")
	create := fs.Bool("create", false, "create the single table first if it does not exist")
	verify := fs.Bool("verify", true, "after the copy, find every legacy item in the single table and compare every attribute")
	quiet := fs.Bool("quiet", false, "no progress bars")
	createLegacy := fs.String("create-legacy", "", "create the empty tables of a legacy layout under <stack>- and stop, to rehearse a migration: documents, listbackup-code, or the name of the -manifest file's layout")
	a, client, err := c.open(ctx, fs, args, stderr)
	if err != nil {
		return err
	}
	if c.app != "listbackup" {
		return fmt.Errorf("%w: migrate knows ListBackup's legacy layouts only (-app listbackup)", errUsage)
	}
	if *stack == "" {
		return fmt.Errorf("%w: -stack is required", errUsage)
	}
	var m *migrate.Manifest
	if *manifest != "" {
		f, err := os.Open(*manifest)
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		m, err = migrate.ReadManifest(f)
		f.Close()
		if err == nil { // its entity names must be ListBackup's
			err = listbackup.New(table.New(client, a.schemas(c.tableName, c.profile)[0])).MigrationTargets().Check(m)
		}
		if err != nil {
			return fmt.Errorf("%w: %s: %v", errUsage, *manifest, err)
		}
		fmt.Fprintf(stdout, "layout %s (from %s)\n", m.Name, *manifest)
	}
	if *createLegacy != "" {
		return cmdCreateLegacy(ctx, stdout, client, *stack, *createLegacy, m)
	}
	if m == nil {
		var found []string
		m, found, err = migrate.Detect(ctx, client, *stack, listbackup.Layouts()...)
		if err != nil {
			return err
		}
		n := 0
		for _, lt := range m.Tables {
			if slices.Contains(found, *stack+"-"+lt.Suffix) {
				n++
			}
		}
		fmt.Fprintf(stdout, "layout %s: %d of its %d tables found under %s- (%s)\n", m.Name, n, len(m.Tables), *stack, m.Description)
	}
	sv, err := migrate.Survey(ctx, client, *stack, m)
	if err != nil {
		return err
	}
	if *plan {
		printPlan(stdout, sv)
		return nil
	}
	opts, err := secretOptions()
	if err != nil {
		return err
	}
	if opts == nil && !*dry {
		return fmt.Errorf("%w: set SINGLETABLE_SECRET_KEY (64 hex digits) so the secrets of the legacy tables are sealed on the way in (a dry run needs none)", errUsage)
	}
	if opts == nil {
		opts = append(opts, func(o *table.Options) { o.Cipher = dryRunCipher{} })
	}
	tb := table.New(client, a.schemas(c.tableName, c.profile)[0], append(opts, cmdTableOptions)...)
	if *create {
		if err := tb.Create(ctx); err != nil {
			return err
		}
	}
	s := listbackup.New(tb)
	o := migrate.Options{Stack: *stack, Manifest: m, DryRun: *dry, Resume: *resume, Segments: *segments, MaxCapacity: *maxCap}
	bars := newBars(ctx, client, stderr, *quiet)
	o.Progress = bars.progress
	start := time.Now()
	res, err := s.Migrate(ctx, o)
	bars.finish()
	mode := "migrated"
	if *dry {
		mode = "dry run"
	}
	var items int64
	resumable := false
	for _, r := range res {
		switch {
		case r.Missing:
			fmt.Fprintf(stdout, "missing %s: the deployment has no such table, nothing to migrate\n", r.Name)
			continue
		case r.Unexpected > 0:
			fmt.Fprintf(stdout, "NOT migrated %s: %d+ items, but %s\n", r.Name, r.Unexpected, r.Skip)
			continue
		case r.Skip != "":
			fmt.Fprintf(stdout, "skipped %s: %s\n", r.Name, r.Skip)
			continue
		}
		items += r.Report.Seen
		fmt.Fprintf(stdout, "%s %s -> %s: %v\n", mode, r.Name, r.Entity, r.Report)
		if r.Report.Skipped > 0 {
			fmt.Fprintf(stdout, "  %d past their TTL, not migrated: %s\n", r.Report.Skipped, strings.Join(r.Expired[:min(5, len(r.Expired))], "; "))
		}
		for _, cf := range r.Report.Conflicts {
			fmt.Fprintf(stdout, "  conflict %s %s: %s\n", cf.Key.PK, cf.Key.SK, cf.Reason)
		}
		for _, k := range r.Kept {
			fmt.Fprintf(stdout, "  kept %s: a value the library does not know, copied as stored\n", k)
		}
		if more := r.KeptCount - len(r.Kept); more > 0 {
			fmt.Fprintf(stdout, "  kept %d more such values\n", more)
		}
		for _, rp := range r.Repairs {
			fmt.Fprintf(stdout, "  rebuilt %s (from the parent chain)\n", rp)
		}
		if more := r.RepairCount - len(r.Repairs); more > 0 {
			fmt.Fprintf(stdout, "  rebuilt %d more paths\n", more)
		}
		if r.Report.Scanned > 0 {
			resumable = true // its checkpoints hold a position to continue from
		}
	}
	for _, u := range sv.Unknown {
		fmt.Fprintf(stdout, "unknown %s: not in layout %s, not migrated\n", u, m.Name)
	}
	took := time.Since(start)
	fmt.Fprintf(stdout, "%s %d items in %v (%.0f items/s)\n", mode, items, took.Round(time.Millisecond), float64(items)/took.Seconds())
	if err != nil {
		if resumable {
			return fmt.Errorf("%w (run again with -resume to continue from the checkpoints)", err)
		}
		return err
	}
	if !*verify || *dry {
		return nil
	}
	vbars := newBars(ctx, client, stderr, *quiet)
	o.Progress = vbars.progress
	ver, err := s.Verify(ctx, o)
	vbars.finish()
	var bad []error
	for _, v := range ver {
		if v.Missing || v.Skip != "" {
			continue
		}
		fmt.Fprintf(stdout, "verified %s: %d of %d found (%d past their TTL, not copied), %d differing\n", v.Name, v.Found, v.Scanned, v.Expired, len(v.Differences))
		for _, m := range v.Absent {
			fmt.Fprintf(stdout, "  absent %s\n", m)
		}
		for _, d := range v.Differences {
			fmt.Fprintf(stdout, "  differs %s\n", d)
		}
		if !v.OK() {
			bad = append(bad, fmt.Errorf("%s: %d absent, %d differing", v.Name, len(v.Absent), len(v.Differences)))
		}
	}
	if err != nil {
		bad = append(bad, err)
	}
	return errors.Join(bad...)
}

// printPlan prints what a migration would do with each legacy table.
func printPlan(w io.Writer, sv migrate.Deployment) {
	for _, t := range sv.Tables {
		count := "missing"
		if t.Present {
			count = fmt.Sprintf("~%d items", t.ItemCount)
		}
		target := "-> " + t.Entity
		if t.Skip != "" {
			target = "not migrated: " + t.Skip
		}
		fmt.Fprintf(w, "%s (%s) %s\n", t.Name, count, target)
		if t.Skip != "" {
			continue
		}
		for _, from := range slices.Sorted(maps.Keys(t.Renames)) {
			fmt.Fprintf(w, "  rename %s -> %s\n", from, t.Renames[from])
		}
		for _, attr := range slices.Sorted(maps.Keys(t.Values)) {
			vm := t.Values[attr]
			var pairs []string
			for _, from := range slices.Sorted(maps.Keys(vm)) {
				pairs = append(pairs, from+" -> "+vm[from])
			}
			fmt.Fprintf(w, "  map %s: %s (other values kept)\n", attr, strings.Join(pairs, ", "))
		}
		for _, attr := range slices.Sorted(maps.Keys(t.Compose)) {
			fmt.Fprintf(w, "  set %s = %s\n", attr, t.Compose[attr])
		}
		for _, from := range slices.Sorted(maps.Keys(t.Times)) {
			fmt.Fprintf(w, "  time %s (Unix seconds or milliseconds, detected per item) -> %s; %s kept in seconds\n", from, t.Times[from], from)
		}
		for _, attr := range slices.Sorted(maps.Keys(t.Suffixes)) {
			fmt.Fprintf(w, "  suffix %s: %q appended where missing\n", attr, t.Suffixes[attr])
		}
		for _, attr := range slices.Sorted(maps.Keys(t.Drop)) {
			fmt.Fprintf(w, "  drop %s: %s\n", attr, t.Drop[attr])
		}
		if tr := t.Tree; tr != nil {
			fmt.Fprintf(w, "  rebuild %s from the %s chain (%s's segment: its %s without %q); where the chain is broken the stored path is kept; each repair is reported\n",
				tr.Path, tr.Parent, t.Entity, tr.ID, tr.TrimPrefix)
		}
		for _, attr := range slices.Sorted(maps.Keys(t.Defaults)) {
			fmt.Fprintf(w, "  default %s = %s where missing\n", attr, t.Defaults[attr])
		}
		if t.TTL != nil {
			unit := t.TTL.Unit
			if unit == "" || unit == "auto" {
				unit = "seconds or milliseconds, detected per item"
			}
			fmt.Fprintf(w, "  expiry %s (%s): items past it are counted, not migrated\n", t.TTL.Attribute, unit)
		}
		if t.Note != "" {
			fmt.Fprintf(w, "  note: %s\n", t.Note)
		}
	}
	if m := sv.Missing(); len(m) > 0 {
		fmt.Fprintf(w, "missing (reported, not an error): %s\n", strings.Join(m, ", "))
	}
	for _, u := range sv.Unknown {
		fmt.Fprintf(w, "unknown %s: not in layout %s, not migrated\n", u, sv.Layout.Name)
	}
}

// bars are the progress bars of the tables of a run, one per table.
type bars struct {
	ctx    context.Context
	client *dynamodb.Client
	w      io.Writer
	quiet  bool
	mu     sync.Mutex // tables run in parallel
	m      map[string]*progressbar.ProgressBar
}

func newBars(ctx context.Context, client *dynamodb.Client, w io.Writer, quiet bool) *bars {
	return &bars{ctx: ctx, client: client, w: w, quiet: quiet, m: map[string]*progressbar.ProgressBar{}}
}

func (b *bars) progress(legacy string, r table.JobReport) {
	if b.quiet {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	bar := b.m[legacy]
	if bar == nil {
		bar = itemsBar(b.ctx, b.client, legacy, b.w)
		b.m[legacy] = bar
	}
	_ = bar.Set64(r.Scanned)
}

func (b *bars) finish() {
	for _, bar := range b.m {
		_ = bar.Finish()
	}
}

// dryRunCipher lets a dry run encode secrets without a key: a dry run
// writes nothing it seals.
type dryRunCipher struct{}

func (dryRunCipher) Encrypt(plaintext, _ []byte) ([]byte, error) { return plaintext, nil }
func (dryRunCipher) Decrypt(ciphertext, _ []byte) ([]byte, error) {
	return nil, errors.New("a dry run reads no sealed secret")
}

// itemsBar is a progress bar of the items of table name scanned, sized by
// the table's approximate item count (DescribeTable), if known.
func itemsBar(ctx context.Context, client *dynamodb.Client, name string, w io.Writer) *progressbar.ProgressBar {
	total := int64(-1)
	if d, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}); err == nil && d.Table.ItemCount != nil {
		total = *d.Table.ItemCount
	}
	return progressbar.NewOptions64(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(name),
		progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("items"), progressbar.OptionClearOnFinish())
}

// cmdCreateLegacy creates the tables of the legacy layout named name (a
// shipped one, or own's, the -manifest file's) under stack-, refusing when
// the endpoint has any of them already: a rehearsal starts from nothing.
func cmdCreateLegacy(ctx context.Context, stdout io.Writer, client *dynamodb.Client, stack, name string, own *migrate.Manifest) error {
	layouts := listbackup.Layouts()
	if own != nil {
		layouts = append([]*migrate.Manifest{own}, layouts...)
	}
	var m *migrate.Manifest
	var names []string
	for _, l := range layouts {
		names = append(names, l.Name)
		if m == nil && l.Name == name {
			m = l
		}
	}
	if m == nil {
		return fmt.Errorf("%w: -create-legacy %q: want one of %s", errUsage, name, strings.Join(names, ", "))
	}
	_, found, err := migrate.Detect(ctx, client, stack, listbackup.Layouts()...)
	if err != nil && !errors.Is(err, migrate.ErrNoLayout) {
		return err
	}
	var exist []string
	for _, lt := range m.Tables {
		if slices.Contains(found, stack+"-"+lt.Suffix) {
			exist = append(exist, stack+"-"+lt.Suffix)
		}
	}
	if len(exist) > 0 {
		return fmt.Errorf("%w: -create-legacy: %s already exist: a rehearsal starts from an endpoint without them", errUsage, strings.Join(exist, ", "))
	}
	if err := migrate.CreateLayout(ctx, client, stack, m); err != nil {
		return err
	}
	for _, lt := range m.Tables {
		keys := lt.PK
		if lt.SK != "" {
			keys += ", " + lt.SK
		}
		fmt.Fprintf(stdout, "created %s-%s (%s)\n", stack, lt.Suffix, keys)
	}
	fmt.Fprintf(stdout, "created the %d tables of layout %s under %s- (TTL off, so expired items stay for the migration to count); write items into them, then run singletable migrate -app listbackup -stack %s without -create-legacy\n",
		len(m.Tables), m.Name, stack, stack)
	return nil
}
