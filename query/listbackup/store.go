package listbackup

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/table"
)

// TableName is the default table name.
const TableName = "listbackup"

// Schema returns the generic schema (table.NewSchema, GSI1..GSI5) for a
// ListBackup table called name (TableName if empty), with a
// NEW_AND_OLD_IMAGES stream: ListBackup's job queue lives on it
// ([JobQueueHandler], LB-84), as it lived on its jobs table's stream. opts
// apply after it (table.WithStream("") declares none).
func Schema(name string, opts ...table.SchemaOption) table.Schema {
	if name == "" {
		name = TableName
	}
	return table.NewSchema(name, append([]table.SchemaOption{table.WithStream(types.StreamViewTypeNewAndOldImages)}, opts...)...)
}

// Store holds ListBackup's access patterns, grouped by aggregate. It is
// safe for concurrent use. The table needs a table.Options.Cipher: users,
// sources, connections, OAuth tokens and webhooks hold secrets.
type Store struct {
	Users         *Users         // LB-1..LB-4, LB-68 erasure
	Accounts      *Accounts      // LB-5..LB-8, LB-63
	Memberships   *Memberships   // LB-9..LB-11, LB-64 roles, LB-68 removal
	Teams         *Teams         // LB-12, LB-13, LB-64
	Sources       *Sources       // LB-14..LB-17, LB-65
	Activities    *Activities    // LB-18..LB-22
	Jobs          *Jobs          // LB-23..LB-26
	Connections   *Connections   // LB-27..LB-29, LB-65
	OAuthStates   *OAuthStates   // LB-30, LB-31
	OAuthTokens   *OAuthTokens   // LB-32, LB-33
	RefreshTokens *RefreshTokens // LB-34..LB-37
	Tags          *Tags          // LB-38..LB-41, LB-66
	Notifications *Notifications // LB-42..LB-46
	Schedules     *Schedules     // LB-47..LB-49
	Runs          *Runs          // LB-50, LB-51
	APIKeys       *APIKeys       // LB-52..LB-54
	Webhooks      *Webhooks      // LB-55..LB-57, LB-67
	Usage         *Usage         // LB-58..LB-61
	Plans         *Plans         // LB-62
	// The entities of ListBackup's own code (its deployed layout).
	SourceGroups *SourceGroups // LB-69, LB-70
	TeamMembers  *TeamMembers  // LB-71, LB-72
	Labels       *Labels       // LB-73..LB-75
	MFACodes     *MFACodes     // LB-76
	Catalog      *Catalog      // LB-77, LB-78
	Inbox        *Inbox        // LB-79..LB-83

	t        *table.Table
	scopeGet table.Op // AccountScope.Get (LB-9), declared once for every view
}

// Options configure a [Store]. Times the store stamps itself (OAuth state
// expiry, token issue and rotation, readAt) come from the table's clock,
// table.Options.Now, like its TTL checks.
type Options struct {
	// RefreshTokenTTL is the life of a refresh token (default 30 days).
	RefreshTokenTTL time.Duration
	// IndexShards splits the all-items index partitions SCHED#DUE and
	// RUNS#{status} in that many shards (SCHED#DUE#0 ..
	// SCHED#DUE#{n-1}, by a hash of the schedule's or the run's ID):
	// DefaultIndexShards if 0; 1 keeps the unsharded keys, one Query per
	// page. A read of such a partition (Schedules.Due, Runs.ListByStatus)
	// merges one Query per shard, sent at once; a scheduler worker may read
	// only its own shards (Schedules.DueInShards). These index keys are the
	// library's, not the document's, so a change of n needs no opt-in: run
	// the adoption job (singletable adopt) to move the items written under
	// another count.
	IndexShards int
}

// DefaultIndexShards is the shard count of SCHED#DUE and RUNS#{status}
// when Options sets none: 100,000 schedules due in the same minute move
// about 3,300 index entries a second, about 410 per shard.
const DefaultIndexShards = 8

// New returns the store on table t (made with [Schema]).
func New(t *table.Table, opts ...func(*Options)) *Store {
	o := Options{RefreshTokenTTL: 30 * 24 * time.Hour}
	for _, f := range opts {
		f(&o)
	}
	if o.IndexShards <= 0 {
		o.IndexShards = DefaultIndexShards
	}
	e := newEntities(t, min(o.IndexShards, table.MaxShards))
	e.now, e.refreshTTL = func() time.Time { return t.Now().UTC() }, o.RefreshTokenTTL
	e.scheduleStore, e.teamStore = newSchedules(e), newTeams(e)
	return &Store{
		Users: newUsers(e), Accounts: newAccounts(e), Memberships: newMemberships(e), Teams: e.teamStore,
		Sources: newSources(e), Activities: newActivities(e), Jobs: newJobs(e), Connections: newConnections(e),
		OAuthStates: newOAuthStates(e), OAuthTokens: newOAuthTokens(e), RefreshTokens: newRefreshTokens(e),
		Tags: newTags(e), Notifications: newNotifications(e), Schedules: e.scheduleStore, Runs: newRuns(e),
		APIKeys: newAPIKeys(e), Webhooks: newWebhooks(e), Usage: newUsage(e), Plans: newPlans(e),
		SourceGroups: newSourceGroups(e), TeamMembers: newTeamMembers(e), Labels: newLabels(e), MFACodes: newMFACodes(e), Catalog: newCatalog(e),
		Inbox: newInbox(e),
		t:     t,
		// last, as when the first account view declared it
		scopeGet: table.NewOp(t, "LB-9", "listbackup.AccountScope.Get"),
	}
}

// Table returns the table the store works on.
func (s *Store) Table() *table.Table { return s.t }
