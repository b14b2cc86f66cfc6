package podcastflow

import (
	"github.com/singletable/singletable/table"
)

// TableName is the document's table name.
const TableName = "podcastflow-pro"

// Schema returns the generic schema ([table.NewSchema]) for a PodcastFlow
// table called name (TableName if name is empty). GSI1 to GSI4 are used;
// see the package documentation for the mapping.
func Schema(name string, opts ...table.SchemaOption) table.Schema {
	if name == "" {
		name = TableName
	}
	return table.NewSchema(name, opts...)
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

// New returns the PodcastFlow store on table t (made with [Schema]).
func New(t *table.Table) *Store {
	e := newEntities(t)
	return &Store{
		Users:         &Users{e: e},
		Organizations: &Organizations{e: e},
		Platform:      &Platform{e: e},
		Analytics:     &Analytics{e: e},
		Billing:       &Billing{e: e},
		Statuses:      &Statuses{e: e},
		t:             t,
	}
}

// Table returns the table the store works on.
func (s *Store) Table() *table.Table { return s.t }
