package podcastflow

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
)

// TableName is the document's table name.
const TableName = "podcastflow-pro"

// Schema returns the generic schema ([table.NewSchema]) for a PodcastFlow
// table called name (TableName if name is empty). GSI1 to GSI4 are used;
// see the package documentation for the mapping. It declares the table's
// stream with NEW_AND_OLD_IMAGES, as PodcastFlow's own deployment does
// (the MainTable of infrastructure/cloudformation/template.yaml and
// simple-template.yaml in ebfarnell/podcastflow-pro: StreamSpecification
// StreamViewType NEW_AND_OLD_IMAGES), so that the table's writes are heard
// as typed changes (PF-15: feed.HandleType per Go type on
// feed.NewRouter(s.Table()); each of the nine entities is bound to one Go
// type, the email guards reach the router's Library handler); opts may
// declare another view type (table.WithStream).
func Schema(name string, opts ...table.SchemaOption) table.Schema {
	if name == "" {
		name = TableName
	}
	return table.NewSchema(name, append([]table.SchemaOption{table.WithStream(types.StreamViewTypeNewAndOldImages)}, opts...)...)
}

// Store holds the access patterns of PodcastFlow, grouped by aggregate.
// It is safe for concurrent use.
type Store struct {
	// Users serves PF-1, PF-2, PF-3, PF-4, PF-12 and PF-13.
	Users *Users
	// Organizations serves PF-5 and PF-6.
	Organizations *Organizations
	// Platform serves PF-7.
	Platform *Platform
	// Analytics serves PF-8 and PF-9.
	Analytics *Analytics
	// Billing serves PF-10 and PF-11.
	Billing *Billing
	// Statuses serves PF-14.
	Statuses *Statuses

	t *table.Table
}

// DefaultIndexShards is the shard count of the all-items index partitions
// (USERS, ORGS, STATUS#{status} of users and organizations, ROLE#{role})
// when Options sets none: at 1,000 user writes/s, each shard takes about
// 250 index writes/s, under DynamoDB's 1,000 per partition key.
const DefaultIndexShards = 4

// Options configure a [Store]: its scale profile.
type Options struct {
	// IndexShards splits each all-items index partition in that many
	// shards (USERS#0 .. USERS#{n-1}, by a hash of the user's or the
	// organization's ID): DefaultIndexShards if 0; 1 keeps the unsharded
	// keys (USERS, ORGS, STATUS#{status}, ROLE#{role}), one Query per page.
	// A list of such a partition reads every shard: n Queries per page,
	// sent at once. These index keys are the library's, not the
	// document's (its service keys its GSIs on raw attributes), so a change
	// of n needs no opt-in: run the adoption job (singletable adopt) to
	// move the items written under another count.
	IndexShards int
}

// New returns the PodcastFlow store on table t (made with [Schema]).
func New(t *table.Table, opts ...func(*Options)) *Store {
	o := Options{}
	for _, f := range opts {
		f(&o)
	}
	if o.IndexShards <= 0 {
		o.IndexShards = DefaultIndexShards
	}
	e := newEntities(t, min(o.IndexShards, table.MaxShards))
	return &Store{
		Users:         newUsers(e),
		Organizations: newOrganizations(e),
		Platform:      newPlatform(e),
		Analytics:     newAnalytics(e),
		Billing:       newBilling(e),
		Statuses:      newStatuses(e),
		t:             t,
	}
}

// Table returns the table the store works on.
func (s *Store) Table() *table.Table { return s.t }
