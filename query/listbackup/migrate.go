package listbackup

import (
	"bytes"
	"context"
	"embed"
	"fmt"

	"github.com/singletable/singletable/migrate"
)

// Migration from the legacy layouts. ListBackup deployments exist as the
// 13 tables of listbackup-v2.md (<stack>-users, <stack>-accounts, ...)
// plus the 6 listbackup-core.md adds (<stack>-sync_schedules,
// <stack>-sync_history, <stack>-api_keys, <stack>-webhooks,
// <stack>-usage_metrics, <stack>-billing_plans): [DocumentsLayout]; or as
// the 22 tables its own backend deploys: [CodeLayout]. Package migrate
// holds the mechanism and its contract; what is ListBackup's is its two
// manifests and where their entity names go ([Store.MigrationTargets]).

// MigrationTargets returns where the entity names of ListBackup's
// manifests go: each to the store's entity of that type (TypeUser to the
// users, ...).
func (s *Store) MigrationTargets() migrate.Targets {
	e := s.Users.e
	return migrate.Targets{
		TypeUser:            migrate.Into(e.users),
		TypeAccount:         migrate.Into(e.accounts),
		TypeMembership:      migrate.Into(e.memberships),
		TypeTeam:            migrate.Into(e.teams),
		TypeSource:          migrate.Into(e.sources),
		TypeActivity:        migrate.Into(e.activities),
		TypeJob:             migrate.Into(e.jobs),
		TypeConnection:      migrate.Into(e.connections),
		TypeOAuthState:      migrate.Into(e.states),
		TypeOAuthToken:      migrate.Into(e.oauthTokens),
		TypeRefreshToken:    migrate.Into(e.refreshTokens),
		TypeTag:             migrate.Into(e.tags),
		TypeNotification:    migrate.Into(e.notifications),
		TypeSyncSchedule:    migrate.Into(e.schedules),
		TypeSyncRun:         migrate.Into(e.runs),
		TypeAPIKey:          migrate.Into(e.apiKeys),
		TypeWebhook:         migrate.Into(e.webhooks),
		TypeUsageMetrics:    migrate.Into(e.usage),
		TypeBillingPlan:     migrate.Into(e.plans),
		TypeSourceGroup:     migrate.Into(e.groups),
		TypeTeamMember:      migrate.Into(e.teamMembers),
		TypeLabel:           migrate.Into(e.labels),
		TypeEntityTag:       migrate.Into(e.entityTags),
		TypeMFACode:         migrate.Into(e.mfaCodes),
		TypeCatalogPlatform: migrate.Into(e.platforms),
		TypeCatalogSource:   migrate.Into(e.platformSrcs),
		TypeInbox:           migrate.Into(e.inbox),
	}
}

// Migrate copies a ListBackup deployment from its legacy tables into the
// store's table: [migrate.Run] with the store's targets (unless o names
// its own) and the documents' layout when o names no manifest.
func (s *Store) Migrate(ctx context.Context, o migrate.Options) ([]migrate.TableResult, error) {
	return migrate.Run(ctx, s.t, s.migration(o))
}

// Verify verifies a migration into the store's table: [migrate.Verify]
// with the defaults of [Store.Migrate].
func (s *Store) Verify(ctx context.Context, o migrate.Options) ([]migrate.Verified, error) {
	return migrate.Verify(ctx, s.t, s.migration(o))
}

// VerifyMigration verifies a migration from the documents' layout of
// stack; see [Store.Verify].
func (s *Store) VerifyMigration(ctx context.Context, stack string) ([]migrate.Verified, error) {
	return s.Verify(ctx, migrate.Options{Stack: stack})
}

// migration returns o with ListBackup's defaults: its targets, the
// documents' layout.
func (s *Store) migration(o migrate.Options) migrate.Options {
	if o.Manifest == nil {
		o.Manifest = DocumentsLayout()
	}
	if o.Targets == nil {
		o.Targets = s.MigrationTargets()
	}
	return o
}

//go:embed manifests/*.json
var manifestFiles embed.FS

// DocumentsLayout returns the manifest of the layout ListBackup's documents
// define (listbackup-v2.md: 13 tables; listbackup-core.md: 6 more).
func DocumentsLayout() *migrate.Manifest { return mustManifest("manifests/documents.json") }

// CodeLayout returns the manifest of the layout ListBackup's own backend
// deploys (listbackup-<stage>-<table>: its infrastructure stack's 20
// tables plus the entity-tags and oauth-states tables of its services).
func CodeLayout() *migrate.Manifest { return mustManifest("manifests/listbackup-code.json") }

// Layouts returns the manifests that ship.
func Layouts() []*migrate.Manifest { return []*migrate.Manifest{DocumentsLayout(), CodeLayout()} }

func mustManifest(name string) *migrate.Manifest {
	b, err := manifestFiles.ReadFile(name)
	if err != nil {
		panic(err)
	}
	m, err := migrate.ReadManifest(bytes.NewReader(b))
	if err != nil {
		panic(fmt.Sprintf("listbackup: %s: %v", name, err))
	}
	return m
}
