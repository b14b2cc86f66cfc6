package listbackup

import (
	"context"
	"errors"
	"fmt"
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
//     account:<uuid>, ...), empty strings and NULLs read as absent, values
//     an enum lacks are kept (reads are tolerant), and a secret found in
//     plaintext is sealed on the way in.
//   - Resumable: each table's scan saves its position after every page in
//     a checkpoint item of the single table (_JOB#migrate-<table>); run
//     again with Resume, a migration continues after the last page done.
//   - Idempotent: an item already migrated is left as it is and counted
//     unchanged, so a resumed run and a second run change nothing twice.
//   - Honest: a legacy item that cannot be migrated (a duplicate email, a
//     value that fails validation) is counted as a conflict and listed
//     with its legacy key, and the others go on; DryRun decodes, validates
//     and encodes every item and writes nothing but checkpoints.
//   - Verifiable: [Store.VerifyMigration] scans the legacy tables again and
//     finds every item through its entity's key in the single table,
//     comparing it field by field.

// LegacyIndex is a GSI of a legacy table.
type LegacyIndex struct {
	Name   string
	PK, SK string // SK "" for none
	// Numeric names the key attributes the document types as Number
	// (Unix timestamps); the others are strings.
	Numeric []string
}

// LegacyTable is one table of the legacy layout, as its document defines
// it, and the entity its items become.
type LegacyTable struct {
	// Suffix is the table's name after "<stack>-" ("users", "api_keys").
	Suffix string
	// Doc is the document that defines it.
	Doc string
	// PK and SK are its key attributes (SK "" for none), all strings.
	PK, SK string
	// Indexes are its GSIs.
	Indexes []LegacyIndex
	// Entity is the entity type its items become.
	Entity string
}

// LegacyTables returns the 19 tables of a legacy deployment.
func LegacyTables() []LegacyTable {
	const v2, core = "listbackup-v2.md", "listbackup-core.md"
	return []LegacyTable{
		{"users", v2, "userId", "", []LegacyIndex{{"email-index", "email", "", nil}, {"username-index", "username", "", nil}}, TypeUser},
		{"accounts", v2, "accountId", "", []LegacyIndex{{"parentAccountId-index", "parentAccountId", "", nil}, {"accountPath-index", "accountPath", "", nil}}, TypeAccount},
		{"users-accounts", v2, "userId", "accountId", []LegacyIndex{{"accountId-userId-index", "accountId", "userId", nil}}, TypeMembership},
		{"teams", v2, "accountId", "teamId", []LegacyIndex{{"teamId-index", "teamId", "", nil}}, TypeTeam},
		{"sources", v2, "accountId", "sourceId", []LegacyIndex{{"sourceId-index", "sourceId", "", nil}, {"accountId-platform-index", "accountId", "platform", nil}, {"accountId-status-index", "accountId", "status", nil}}, TypeSource},
		{"activities", v2, "accountId", "timestamp#eventId", []LegacyIndex{{"userId-timestamp-index", "userId", "timestamp#eventId", nil}, {"resourceType-timestamp-index", "resourceType", "timestamp#eventId", nil}}, TypeActivity},
		{"jobs", v2, "accountId", "jobId", []LegacyIndex{{"jobId-index", "jobId", "", nil}, {"accountId-status-index", "accountId", "status", nil}, {"sourceId-createdAt-index", "sourceId", "createdAt", nil}}, TypeJob},
		{"connections", v2, "connectionId", "", []LegacyIndex{{"accountId-platform-index", "accountId", "platform", nil}, {"userId-platform-index", "userId", "platform", nil}}, TypeConnection},
		{"oauth-states", v2, "state", "", nil, TypeOAuthState},
		{"oauth-tokens", v2, "sourceId", "", []LegacyIndex{{"accountId-platform-index", "accountId", "platform", nil}}, TypeOAuthToken},
		{"refresh-tokens", v2, "refreshToken", "", []LegacyIndex{{"userId-issuedAt-index", "userId", "issuedAt", nil}, {"tokenFamily-index", "tokenFamily", "", nil}}, TypeRefreshToken},
		{"tags", v2, "accountId#resourceType", "tagKey#tagValue", []LegacyIndex{{"tagId-index", "tagId", "", nil}, {"accountId-tagKey-index", "accountId#resourceType", "tagKey", nil}}, TypeTag},
		{"notifications", v2, "userId", "timestamp#notificationId", []LegacyIndex{{"accountId-timestamp-index", "accountId", "timestamp#notificationId", nil}, {"userId-status-index", "userId", "status", nil}}, TypeNotification},
		{"sync_schedules", core, "sourceId", "scheduleId", []LegacyIndex{{"nextRunAt-index", "nextRunAt", "", []string{"nextRunAt"}}}, TypeSyncSchedule},
		{"sync_history", core, "sourceId", "syncId", []LegacyIndex{{"status-startedAt-index", "status", "startedAt", []string{"startedAt"}}}, TypeSyncRun},
		{"api_keys", core, "apiKeyId", "", []LegacyIndex{{"accountId-status-index", "accountId", "status", nil}, {"apiKeyHash-index", "apiKeyHash", "", nil}}, TypeAPIKey},
		// GSI1 accountId-isActive-index sorts on a Boolean, which DynamoDB
		// cannot key: a deployment has it as a string or not at all.
		{"webhooks", core, "webhookId", "", nil, TypeWebhook},
		{"usage_metrics", core, "accountId", "metricDate", []LegacyIndex{{"metricDate-accountId-index", "metricDate", "accountId", nil}}, TypeUsageMetrics},
		{"billing_plans", core, "planId", "", nil, TypeBillingPlan},
	}
}

// CreateLegacyTables creates the 19 legacy tables of stack (on-demand), as
// the documents define their keys and indexes, and waits until they are
// active. For tests and rehearsals of a migration.
func CreateLegacyTables(ctx context.Context, client *dynamodb.Client, stack string) error {
	for _, lt := range LegacyTables() {
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
		for a := range attrs {
			typ := types.ScalarAttributeTypeS
			for _, ix := range lt.Indexes {
				if slices.Contains(ix.Numeric, a) {
					typ = types.ScalarAttributeTypeN
				}
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

// MigrateOptions configure [Store.Migrate].
type MigrateOptions struct {
	// Stack is the legacy deployment's stack name (required).
	Stack string
	// DryRun reads, converts and validates every item and writes nothing
	// but checkpoints.
	DryRun bool
	// Resume continues an interrupted migration from its checkpoints.
	Resume bool
	// Segments is the number of parallel scan segments per table (default 4).
	Segments int
	// Tables limits the migration to these legacy tables (suffixes); all
	// when empty.
	Tables []string
	// Parallel is how many legacy tables are migrated at once (default 4).
	Parallel int
	// Progress, if set, is called after each page with the legacy table
	// and its running totals.
	Progress func(legacy string, r table.JobReport)
}

// MigratedTable is what a migration did with one legacy table.
type MigratedTable struct {
	Legacy string // the legacy table's name
	Entity string
	Report table.JobReport
}

// Migrate copies a legacy deployment into the store's table (see the
// contract above) and reports per legacy table, Parallel tables at once.
// The legacy tables are reached with the store's own client. A table's
// job stops at its first error that is not a conflict (the others go on);
// run the migration again with Resume to continue.
func (s *Store) Migrate(ctx context.Context, o MigrateOptions) ([]MigratedTable, error) {
	if o.Stack == "" {
		return nil, &table.ValidationError{Field: "Stack", Reason: "required"}
	}
	var lts []LegacyTable
	for _, lt := range LegacyTables() {
		if len(o.Tables) == 0 || slices.Contains(o.Tables, lt.Suffix) {
			lts = append(lts, lt)
		}
	}
	par := o.Parallel
	if par <= 0 {
		par = 4
	}
	out := make([]MigratedTable, len(lts))
	errs := make([]error, len(lts))
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for i, lt := range lts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i], errs[i] = s.migrateTable(ctx, o, lt)
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// migrateTable runs the job that copies one legacy table.
func (s *Store) migrateTable(ctx context.Context, o MigrateOptions, lt LegacyTable) (MigratedTable, error) {
	name := o.Stack + "-" + lt.Suffix
	ad := s.adapter(lt)
	keyAttrs := []string{lt.PK}
	if lt.SK != "" {
		keyAttrs = append(keyAttrs, lt.SK)
	}
	job := table.Job{
		Name:      "migrate-" + strings.ReplaceAll(lt.Suffix, "_", "-"),
		Visit:     ad.one,
		VisitPage: ad.page,
		Segments:  o.Segments,
		DryRun:    o.DryRun,
		Resume:    o.Resume,
		Source:    name,
		SourceKey: keyAttrs,
	}
	if o.Progress != nil {
		job.Progress = func(r table.JobReport) { o.Progress(name, r) }
	}
	rep, err := s.t.RunJob(ctx, job)
	if err != nil {
		err = fmt.Errorf("migrate %s: %w", name, err)
	}
	return MigratedTable{Legacy: name, Entity: lt.Entity, Report: rep}, err
}

// adapter returns how the items of legacy table lt are imported and
// verified: as its entity's items, made ready by the conversion its
// document needs.
func (s *Store) adapter(lt LegacyTable) legacyAdapter {
	e := s.Users.e
	clean := func(raw table.Item) table.Item {
		// NULLs and empty strings are absent (the documents allow both for
		// optional attributes).
		out := make(table.Item, len(raw))
		for k, v := range raw {
			switch v := v.(type) {
			case *types.AttributeValueMemberNULL:
				continue
			case *types.AttributeValueMemberS:
				if v.Value == "" {
					continue
				}
			}
			out[k] = v
		}
		return out
	}
	switch lt.Entity {
	case TypeUser:
		return adapt(e.users, clean)
	case TypeAccount:
		return adapt(e.accounts, clean)
	case TypeMembership:
		return adapt(e.memberships, clean)
	case TypeTeam:
		return adapt(e.teams, clean)
	case TypeSource:
		return adapt(e.sources, clean)
	case TypeActivity:
		return adapt(e.activities, clean)
	case TypeJob:
		return adapt(e.jobs, clean)
	case TypeConnection:
		return adapt(e.connections, clean)
	case TypeOAuthState:
		return adapt(e.states, clean)
	case TypeOAuthToken:
		return adapt(e.oauthTokens, clean)
	case TypeRefreshToken:
		return adapt(e.refreshTokens, clean)
	case TypeTag:
		// v2 keeps the account only in the composite key
		// accountId#resourceType.
		return adapt(e.tags, func(raw table.Item) table.Item {
			raw = clean(raw)
			if v, ok := raw["accountId#resourceType"].(*types.AttributeValueMemberS); ok && raw["accountId"] == nil {
				a, _, _ := strings.Cut(v.Value, "#")
				raw["accountId"] = &types.AttributeValueMemberS{Value: a}
			}
			return raw
		})
	case TypeNotification:
		return adapt(e.notifications, clean)
	case TypeSyncSchedule:
		return adapt(e.schedules, clean)
	case TypeSyncRun:
		return adapt(e.runs, clean)
	case TypeAPIKey:
		return adapt(e.apiKeys, clean)
	case TypeWebhook:
		return adapt(e.webhooks, clean)
	case TypeUsageMetrics:
		return adapt(e.usage, clean)
	case TypeBillingPlan:
		return adapt(e.plans, clean)
	}
	panic("listbackup: no adapter for " + lt.Entity)
}

// legacyAdapter imports and verifies the items of one legacy table.
type legacyAdapter struct {
	one    func(context.Context, table.Item, bool) (table.JobOutcome, error)
	page   func(context.Context, []table.Item, bool) ([]table.JobOutcome, []error)
	verify func(context.Context, table.Item) ([]string, error)
}

// adapt returns the adapter of legacy items that conv makes ready as ent's
// items: imported one by one or a page at a time (creates batched in
// transactions, table.Entity.ImportMany), and verified (verifyWith).
func adapt[T any](ent *table.Entity[T], conv func(table.Item) table.Item) legacyAdapter {
	return legacyAdapter{
		one: func(ctx context.Context, raw table.Item, dry bool) (table.JobOutcome, error) {
			return ent.Import(ctx, conv(raw), dry)
		},
		page: func(ctx context.Context, raws []table.Item, dry bool) ([]table.JobOutcome, []error) {
			ready := make([]table.Item, len(raws))
			for i, raw := range raws {
				ready[i] = conv(raw)
			}
			return ent.ImportMany(ctx, ready, dry)
		},
		verify: verifyWith(ent, conv),
	}
}

// VerifiedTable is what verification found for one legacy table.
type VerifiedTable struct {
	Legacy string
	Entity string
	// Legacy items scanned, found in the single table, past their TTL (not
	// migrated), missing from it.
	Scanned, Found, Expired int
	Missing                 []string // legacy keys, at most 100
	// Differences lists fields whose migrated value differs from the
	// legacy one (at most 100), as "legacy key: field".
	Differences []string
}

// VerifyMigration scans the legacy tables of stack again and finds each
// item in the single table by its entity's key (a consistent GetItem, the
// entity's get-by-ID access pattern), comparing the two field by field
// (the fields the store keeps itself, updatedAt and the like, excluded).
func (s *Store) VerifyMigration(ctx context.Context, stack string) ([]VerifiedTable, error) {
	var out []VerifiedTable
	for _, lt := range LegacyTables() {
		vt := VerifiedTable{Legacy: stack + "-" + lt.Suffix, Entity: lt.Entity}
		visit := s.adapter(lt).verify
		var start map[string]types.AttributeValue
		for {
			page, err := s.t.Client().Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(vt.Legacy), ExclusiveStartKey: start, ConsistentRead: aws.Bool(true)})
			if err != nil {
				return out, fmt.Errorf("verify %s: %w", vt.Legacy, err)
			}
			for _, raw := range page.Items {
				vt.Scanned++
				name := legacyKey(raw, lt)
				diffs, err := visit(ctx, raw)
				switch {
				case errors.Is(err, errExpired):
					vt.Expired++
				case errors.Is(err, table.ErrNotFound):
					if len(vt.Missing) < 100 {
						vt.Missing = append(vt.Missing, name)
					}
				case err != nil:
					return out, fmt.Errorf("verify %s %s: %w", vt.Legacy, name, err)
				default:
					vt.Found++
					for _, d := range diffs {
						if len(vt.Differences) < 100 {
							vt.Differences = append(vt.Differences, name+": "+d)
						}
					}
				}
			}
			if len(page.LastEvaluatedKey) == 0 {
				break
			}
			start = page.LastEvaluatedKey
		}
		out = append(out, vt)
	}
	return out, nil
}

func legacyKey(raw table.Item, lt LegacyTable) string {
	s := func(a string) string {
		if v, ok := raw[a].(*types.AttributeValueMemberS); ok {
			return v.Value
		}
		return "?"
	}
	if lt.SK == "" {
		return lt.PK + "=" + s(lt.PK)
	}
	return lt.PK + "=" + s(lt.PK) + ", " + lt.SK + "=" + s(lt.SK)
}

var errExpired = errors.New("past its TTL")

// verifyWith decodes a legacy item, made ready by conv as the import
// does, as ent's type, finds the migrated item by its key and lists the
// fields whose values differ.
func verifyWith[T any](ent *table.Entity[T], conv func(table.Item) table.Item) func(context.Context, table.Item) ([]string, error) {
	return func(ctx context.Context, raw table.Item) ([]string, error) {
		legacy, err := ent.Decode(conv(raw))
		if err != nil {
			return nil, err
		}
		if ent.Expired(&legacy) {
			return nil, errExpired
		}
		k, err := ent.KeyOf(&legacy)
		if err != nil {
			return nil, err
		}
		got, err := ent.Get(ctx, k, table.Consistent())
		if err != nil {
			return nil, err
		}
		ent.Touch(&legacy) // the fields the entity derives, as the import did
		return table.DiffFields(&legacy, &got, "updatedAt"), nil
	}
}
