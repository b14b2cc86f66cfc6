package listbackup

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
)

// Migration from the legacy layout. ListBackup deployments exist as 13
// tables (listbackup-v2.md: <stack>-users, <stack>-accounts, ...) plus 6
// the core service adds (listbackup-core.md: <stack>-sync_schedules,
// <stack>-sync_history, <stack>-api_keys, <stack>-webhooks,
// <stack>-usage_metrics, <stack>-billing_plans). [Store.Migrate] copies
// such a deployment into the store's single table. Its contract:
//
//   - Read only: the legacy tables are scanned (a parallel Scan per table,
//     the one place a Scan is right) and never written.
//   - Written as the library writes: every item is created through its
//     entity ([table.Entity.Import]), with its keys, index keys, unique
//     guards and version, never over an existing item; the attributes keep
//     their names, IDs keep the forms the documents give (user:<sub>,
//     account:<uuid>, ...), and a secret found in plaintext is sealed on
//     the way in (under the entity's attribute: a connection's
//     credentials.access_token becomes credentials.accessToken, sealed).
//   - What the live system holds is kept: a value an enum lacks (a plan
//     "pro" that accounts/create stored as the client sent it) is copied
//     as stored, read back as itself, carried through updates of other
//     fields, and listed in [MigratedTable].Kept; it is never a reason to
//     leave an item behind. Every other check still applies.
//   - Empty values: a top-level NULL or empty string reads as absent
//     (ListBackup's Go code, aws-sdk-go v1, writes an empty string or a
//     nil pointer as NULL). Inside a map, a NULL member (whiteLabel.logo,
//     a nil pointer field of a nested struct) may be left out of the copy:
//     a struct field cannot tell it from absent, and verification counts
//     NULL, "" and absent as the same. Attributes the entity does not
//     know are kept whole ([table.Extra]), and so are the members of a map
//     its struct does not model, at any depth (the struct's own
//     table.Extra: a provider's whole token response, stored as a
//     connection's credentials, keeps stripe_user_id, id_token and what
//     else the provider sent). Inside credentials and tokens those members
//     are sealed like the tokens (Def.Secrets "credentials.*"); elsewhere
//     they are kept as they are.
//   - Trees: a table whose manifest declares a [LegacyTree] (ListBackup's
//     accounts) has every path rebuilt from the parent chain, not copied:
//     auth/register stores a root's path without its closing '/' and
//     accounts/create and create-sub-account append the child's ID to it,
//     so the stored path of a child runs two IDs together (LB-8 would
//     miss it). Each path changed is listed in [MigratedTable].Repairs;
//     where the chain is broken (a parent not in the table, a loop) the
//     stored path is kept.
//   - Resumable: each table's scan saves its position after every page in
//     a checkpoint item of the single table (_JOB#migrate-<table>), with
//     what the page kept and repaired ([table.JobNote]); run again with
//     Resume, a migration continues after the last page done, and its
//     report lists what the whole migration kept and repaired.
//   - Idempotent: an item already migrated is left as it is and counted
//     unchanged, so a resumed run and a second run change nothing twice.
//   - Honest: a legacy item that cannot be migrated (a duplicate email, a
//     value that fails validation) is counted as a conflict and listed
//     with its legacy key, and the others go on; DryRun decodes, validates
//     and encodes every item and writes nothing but checkpoints.
//   - Verifiable: [Store.VerifyMigration] scans the legacy tables again and
//     finds every item through its entity's key in the single table,
//     comparing it field by field after the same rules (renames, value
//     mappings, rebuilt paths) and with its secrets unsealed, so a correct
//     migration verifies with no difference and the command exits 0; what
//     it reports is a real difference.

// CreateLegacyTables creates the 19 tables of the documents' layout for
// stack; see [CreateLegacyLayout].
func CreateLegacyTables(ctx context.Context, client *dynamodb.Client, stack string) error {
	return CreateLegacyLayout(ctx, client, stack, DocumentsLayout())
}

// CreateLegacyLayout creates the tables of layout m for stack (on-demand),
// with the keys and indexes the manifest gives, and waits until they are
// active: a rehearsal of a migration. TTL is left disabled, so an item a
// rehearsal writes already expired stays for the migration to count.
func CreateLegacyLayout(ctx context.Context, client *dynamodb.Client, stack string, m *Manifest) error {
	for _, lt := range m.Tables {
		numeric := func(a string) bool {
			if slices.Contains(lt.Numeric, a) {
				return true
			}
			for _, ix := range lt.Indexes {
				if slices.Contains(ix.Numeric, a) {
					return true
				}
			}
			return false
		}
		attrs := map[string]bool{lt.PK: true}
		keySchema := []types.KeySchemaElement{{AttributeName: aws.String(lt.PK), KeyType: types.KeyTypeHash}}
		if lt.SK != "" {
			attrs[lt.SK] = true
			keySchema = append(keySchema, types.KeySchemaElement{AttributeName: aws.String(lt.SK), KeyType: types.KeyTypeRange})
		}
		var gsis []types.GlobalSecondaryIndex
		for _, ix := range lt.Indexes {
			ks := []types.KeySchemaElement{{AttributeName: aws.String(ix.PK), KeyType: types.KeyTypeHash}}
			attrs[ix.PK] = true
			if ix.SK != "" {
				ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(ix.SK), KeyType: types.KeyTypeRange})
				attrs[ix.SK] = true
			}
			gsis = append(gsis, types.GlobalSecondaryIndex{IndexName: aws.String(ix.Name), KeySchema: ks,
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}})
		}
		var defs []types.AttributeDefinition
		for _, a := range slices.Sorted(maps.Keys(attrs)) {
			typ := types.ScalarAttributeTypeS
			if numeric(a) {
				typ = types.ScalarAttributeTypeN
			}
			defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: typ})
		}
		name := stack + "-" + lt.Suffix
		if _, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), KeySchema: keySchema,
			AttributeDefinitions: defs, GlobalSecondaryIndexes: gsis, BillingMode: types.BillingModePayPerRequest}); err != nil {
			return fmt.Errorf("create legacy table %s: %w", name, err)
		}
		if err := dynamodb.NewTableExistsWaiter(client).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, 2*time.Minute); err != nil {
			return fmt.Errorf("create legacy table %s: %w", name, err)
		}
	}
	return nil
}

// MigrateOptions configure [Store.Migrate] and [Store.Verify].
type MigrateOptions struct {
	// Stack is the legacy deployment's stack name (required): its tables
	// are <stack>-<table>.
	Stack string
	// Manifest is the deployment's layout (default: [DocumentsLayout]; see
	// [DetectLayout]).
	Manifest *Manifest
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
	// Progress, if set, is called after each page with the legacy table
	// and its running totals.
	Progress func(legacy string, r table.JobReport)
}

func (o MigrateOptions) manifest() *Manifest {
	if o.Manifest != nil {
		return o.Manifest
	}
	return DocumentsLayout()
}

// MigratedTable is what a migration did with one legacy table.
type MigratedTable struct {
	Legacy string // the legacy table's name
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
	// (LegacyTree): "accountPath of accountId=X: \"old\" -> \"new\"",
	// sorted, with Kept's scope and bound (RepairCount counts them all).
	Repairs     []string
	RepairCount int
}

// Migrate copies a legacy deployment into the store's table (see the
// contract above) and reports per legacy table of the manifest,
// Parallel tables at once. The legacy tables are reached with the store's
// own client. A table the deployment lacks is reported Missing, a table
// the manifest skips is reported with its reason; neither is an error. A
// table's job stops at its first error that is not a conflict (the others
// go on); run the migration again with Resume to continue it.
func (s *Store) Migrate(ctx context.Context, o MigrateOptions) ([]MigratedTable, error) {
	head := func(lt LegacyTable, name string, missing bool) MigratedTable {
		return MigratedTable{Legacy: name, Entity: lt.Entity, Skip: lt.Skip, Missing: missing}
	}
	return eachLegacyTable(ctx, s, o, head, s.migrateTable, func(ctx context.Context, lt LegacyTable, r *MigratedTable) error {
		if !lt.ExpectEmpty {
			return nil
		}
		n, err := s.countSome(ctx, r.Legacy)
		if err != nil {
			return err
		}
		if n > 0 {
			r.Unexpected = n
			return fmt.Errorf("%s: %w", r.Legacy, ErrUnexpectedItems)
		}
		return nil
	})
}

// eachLegacyTable is the per-table driver of [Store.Migrate] and
// [Store.Verify]: for each legacy table o selects, o.Parallel at once, it
// makes the table's result with head (missing when the deployment lacks
// the table: reported, not an error), then runs the table (run) unless
// the manifest skips it, when skipped, if set, checks it. Stack is
// required; the tables' errors are joined.
func eachLegacyTable[R any](ctx context.Context, s *Store, o MigrateOptions, head func(lt LegacyTable, name string, missing bool) R,
	run func(context.Context, MigrateOptions, LegacyTable) (R, error), skipped func(context.Context, LegacyTable, *R) error) ([]R, error) {
	if o.Stack == "" {
		return nil, &table.ValidationError{Field: "Stack", Reason: "required"}
	}
	lts := o.tables()
	out := make([]R, len(lts))
	errs := make([]error, len(lts))
	s.parallel(o, len(lts), func(i int) {
		lt := lts[i]
		name := o.Stack + "-" + lt.Suffix
		exists, err := s.legacyExists(ctx, name)
		out[i] = head(lt, name, err == nil && !exists)
		switch {
		case err != nil:
			errs[i] = err
		case !exists:
		case lt.Skip == "":
			out[i], errs[i] = run(ctx, o, lt)
		case skipped != nil:
			errs[i] = skipped(ctx, lt, &out[i])
		}
	})
	return out, errors.Join(errs...)
}

// ErrUnexpectedItems: a table the manifest skips because no code writes it
// holds items. They are not migrated; map the table in a manifest of your
// own (-manifest) to migrate them.
var ErrUnexpectedItems = errors.New("holds items its layout does not expect (no code writes it): not migrated")

// countSome counts the items of the first page of table name (up to 100).
func (s *Store) countSome(ctx context.Context, name string) (int, error) {
	out, err := s.t.Client().Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(name), Limit: aws.Int32(100), Select: types.SelectCount})
	if err != nil {
		return 0, fmt.Errorf("scan %s: %w", name, err)
	}
	return int(out.Count), nil
}

// tables returns the manifest's tables the options select.
func (o MigrateOptions) tables() []LegacyTable {
	var lts []LegacyTable
	for _, lt := range o.manifest().Tables {
		if len(o.Tables) == 0 || slices.Contains(o.Tables, lt.Suffix) {
			lts = append(lts, lt)
		}
	}
	return lts
}

// parallel runs f(0..n-1), o.Parallel at once.
func (s *Store) parallel(o MigrateOptions, n int, f func(int)) {
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

// legacyExists reports whether the deployment has table name.
func (s *Store) legacyExists(ctx context.Context, name string) (bool, error) {
	_, err := s.t.Client().DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
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
func (s *Store) migrateTable(ctx context.Context, o MigrateOptions, lt LegacyTable) (MigratedTable, error) {
	name := o.Stack + "-" + lt.Suffix
	res := MigratedTable{Legacy: name, Entity: lt.Entity}
	prep, err := s.prepFor(ctx, name, lt)
	if err != nil {
		return res, fmt.Errorf("migrate %s: %w", name, err)
	}
	ad := s.adapter(lt.Entity)
	var exp expiredKeys
	now := s.t.Now().Unix()
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
		o, e := ad.page(ctx, ready, dry)
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
	rep, err := s.t.RunJob(ctx, job)
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

// legacyAdapter imports and verifies the items of one entity, made ready
// by the manifest.
type legacyAdapter struct {
	page  func(context.Context, []table.Item, bool) ([]table.JobOutcome, []error)
	check func(context.Context, table.Item) ([]string, error)
}

// adapter returns the adapter of the entity named typ.
func (s *Store) adapter(typ string) legacyAdapter {
	e := s.Users.e
	switch typ {
	case TypeUser:
		return adapt(s.t, e.users)
	case TypeAccount:
		return adapt(s.t, e.accounts)
	case TypeMembership:
		return adapt(s.t, e.memberships)
	case TypeTeam:
		return adapt(s.t, e.teams)
	case TypeSource:
		return adapt(s.t, e.sources)
	case TypeActivity:
		return adapt(s.t, e.activities)
	case TypeJob:
		return adapt(s.t, e.jobs)
	case TypeConnection:
		return adapt(s.t, e.connections)
	case TypeOAuthState:
		return adapt(s.t, e.states)
	case TypeOAuthToken:
		return adapt(s.t, e.oauthTokens)
	case TypeRefreshToken:
		return adapt(s.t, e.refreshTokens)
	case TypeTag:
		return adapt(s.t, e.tags)
	case TypeNotification:
		return adapt(s.t, e.notifications)
	case TypeSyncSchedule:
		return adapt(s.t, e.schedules)
	case TypeSyncRun:
		return adapt(s.t, e.runs)
	case TypeAPIKey:
		return adapt(s.t, e.apiKeys)
	case TypeWebhook:
		return adapt(s.t, e.webhooks)
	case TypeUsageMetrics:
		return adapt(s.t, e.usage)
	case TypeBillingPlan:
		return adapt(s.t, e.plans)
	case TypeSourceGroup:
		return adapt(s.t, e.groups)
	case TypeTeamMember:
		return adapt(s.t, e.teamMembers)
	case TypeLabel:
		return adapt(s.t, e.labels)
	case TypeEntityTag:
		return adapt(s.t, e.entityTags)
	case TypeMFACode:
		return adapt(s.t, e.mfaCodes)
	case TypeCatalogPlatform:
		return adapt(s.t, e.platforms)
	case TypeCatalogSource:
		return adapt(s.t, e.platformSrcs)
	case TypeInbox:
		return adapt(s.t, e.inbox)
	}
	panic("listbackup: no adapter for " + typ)
}

// adapt returns the adapter of ent's items: imported a page at a time
// (creates batched in transactions, table.Entity.ImportMany) and checked
// attribute by attribute against their copy (compareMigrated).
func adapt[T any](t *table.Table, ent *table.Entity[T]) legacyAdapter {
	return legacyAdapter{
		page: func(ctx context.Context, ready []table.Item, dry bool) ([]table.JobOutcome, []error) {
			return ent.ImportMany(ctx, ready, dry)
		},
		check: func(ctx context.Context, ready table.Item) ([]string, error) {
			return compareMigrated(ctx, t, ent, ready)
		},
	}
}

func legacyKey(raw table.Item, lt LegacyTable) string {
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
