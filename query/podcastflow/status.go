package podcastflow

import (
	"context"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

// Statuses serves PF-14: entities by status, optionally of one entity
// type, on GSI3 (PK = STATUS#{status}, SK = {entityType}#{entityId}).
type Statuses struct {
	list, listOfType table.Op
	e                *entities
}

func newStatuses(e *entities) *Statuses {
	return &Statuses{e: e,
		list:       table.NewOp(e.t, "PF-14", "podcastflow.Statuses.List"),
		listOfType: table.NewOp(e.t, "PF-14", "podcastflow.Statuses.ListOfType"),
	}
}

// StatusEntity is one entity of a status: exactly one of User,
// Organization and Billing is set, as Type says.
type StatusEntity struct {
	Type         pf.EntityType
	User         *pf.UserProfile
	Organization *pf.OrganizationProfile
	Billing      *pf.BillingRecord
}

// List returns one page of the entities of every type with a status,
// ordered by entity type then ID (PF-14): Query GSI3 PK = STATUS#{status}.
// "active" and "suspended" hold users and organizations. A status of users
// or organizations is sharded (Options.IndexShards): one Query per shard,
// STATUS#{status}#{n}, sent at once and merged; a billing status is one
// Query. Errors:
// *table.ValidationError (unknown status), table.ErrInvalidCursor.
func (s *Statuses) List(ctx context.Context, status pf.EntityStatus, opts ...table.ListOption) (table.Page[StatusEntity], error) {
	return table.Run(ctx, s.list, func(ctx context.Context) (table.Page[StatusEntity], error) {
		return s.read(ctx, status, "", opts)
	})
}

// ListOfType returns one page of the entities of one type with a status
// (PF-14): Query GSI3 PK = STATUS#{status}, SK begins_with {entityType}#,
// one Query per shard for users and organizations (see [Statuses.List]).
// Errors: *table.ValidationError (unknown status or type, or a status the
// type does not have), table.ErrInvalidCursor.
func (s *Statuses) ListOfType(ctx context.Context, status pf.EntityStatus, typ pf.EntityType, opts ...table.ListOption) (table.Page[StatusEntity], error) {
	return table.Run(ctx, s.listOfType, func(ctx context.Context) (table.Page[StatusEntity], error) {
		if _, err := pf.EntityTypes.Parse(string(typ)); err != nil {
			return table.Page[StatusEntity]{}, err
		}
		if status.Valid() && !status.ValidFor(typ) {
			return table.Page[StatusEntity]{}, table.Invalid("status", "%q is not a status of %s", status, typ)
		}
		return s.read(ctx, status, typ, opts)
	})
}

func (s *Statuses) read(ctx context.Context, status pf.EntityStatus, typ pf.EntityType, opts []table.ListOption) (table.Page[StatusEntity], error) {
	var page table.Page[StatusEntity]
	o, err := table.NewListOptions(opts...)
	if err != nil {
		return page, err
	}
	if _, err := pf.ParseEntityStatus(string(status)); err != nil {
		return page, err
	}
	// The partition and the type's sort-key prefix from the entities'
	// GSI3 templates: STATUS#{status} (users' and organizations' without
	// their shard), SK begins_with USER#, ORG# or BILLING#.
	var q table.Query
	switch typ {
	case pf.EntityUser:
		q = s.e.users.Partition(IndexStatus, pf.UserProfile{Status: pf.UserStatus(status)})
	case pf.EntityOrganization:
		q = s.e.orgs.Partition(IndexStatus, pf.OrganizationProfile{Status: pf.OrgStatus(status)})
	default:
		q = s.e.billing.Partition(IndexStatus, pf.BillingRecord{Status: pf.BillingStatus(status)})
		if typ == "" {
			q.SK = table.SKCond{} // every type
		}
	}
	if err := q.Err(); err != nil {
		return page, err
	}
	if s.e.shards > 1 && (status.ValidFor(pf.EntityUser) || status.ValidFor(pf.EntityOrganization)) {
		q.Shards = s.e.shards // users' and organizations' statuses are sharded; billing's are not
	}
	page.Items = []StatusEntity{}
	page.Cursor, err = s.e.t.ReadCollection(ctx, o.Apply(q),
		table.Into(s.e.users, func(u pf.UserProfile) {
			page.Items = append(page.Items, StatusEntity{Type: pf.EntityUser, User: &u})
		}),
		table.Into(s.e.orgs, func(org pf.OrganizationProfile) {
			page.Items = append(page.Items, StatusEntity{Type: pf.EntityOrganization, Organization: &org})
		}),
		table.Into(s.e.billing, func(r pf.BillingRecord) {
			page.Items = append(page.Items, StatusEntity{Type: pf.EntityBilling, Billing: &r})
		}))
	if err != nil {
		return table.Page[StatusEntity]{}, err
	}
	return page, nil
}
