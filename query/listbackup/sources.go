package listbackup

import (
	"context"
	"iter"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Sources serves LB-14..LB-17. Credentials are encrypted at rest.
type Sources struct {
	delete, create, get, update, listByAccount, listByPlatform, listByStatus, allByAccount, allByPlatform, allByStatus table.Op
	e                                                                                                                  *entities
	acct                                                                                                               lb.AccountID // set: the view of one account (Store.ForAccount)
}

func newSources(e *entities, acct lb.AccountID) *Sources {
	return &Sources{e: e, acct: acct,
		allByAccount:   table.NewOp(e.t, "LB-15", "listbackup.Sources.AllByAccount"),
		allByPlatform:  table.NewOp(e.t, "LB-16", "listbackup.Sources.AllByPlatform"),
		allByStatus:    table.NewOp(e.t, "LB-17", "listbackup.Sources.AllByStatus"),
		delete:         table.NewOp(e.t, "LB-65", "listbackup.Sources.Delete"),
		create:         table.NewOp(e.t, "LB-14", "listbackup.Sources.Create"),
		get:            table.NewOp(e.t, "LB-14", "listbackup.Sources.Get"),
		update:         table.NewOp(e.t, "LB-65", "listbackup.Sources.Update"),
		listByAccount:  table.NewOp(e.t, "LB-15", "listbackup.Sources.ListByAccount"),
		listByPlatform: table.NewOp(e.t, "LB-16", "listbackup.Sources.ListByPlatform"),
		listByStatus:   table.NewOp(e.t, "LB-17", "listbackup.Sources.ListByStatus"),
	}
}

// Create creates source src. Status defaults to active. Errors:
// *table.ValidationError, table.ErrAlreadyExists.
//
// Pattern: LB-14 (its write side).
func (s *Sources) Create(ctx context.Context, src *lb.Source) error {
	return s.create.Do(ctx, func(ctx context.Context) error {
		if src.Status == "" {
			src.Status = lb.SourceActive
		}
		return s.v().Create(ctx, src)
	})
}

// Get returns a source by ID (LB-14): GetItem PK = SOURCE#{sourceId},
// SK = SOURCE. Errors: *table.ValidationError, table.ErrNotFound (also for
// a soft-deleted source, LB-65).
func (s *Sources) Get(ctx context.Context, id lb.SourceID) (lb.Source, error) {
	return table.Run(ctx, s.get, func(ctx context.Context) (lb.Source, error) {
		k, err := key(s.e.sources, lb.Source{SourceID: id}, id.Validate("sourceId"))
		if err != nil {
			return lb.Source{}, err
		}
		src, err := s.v().Get(ctx, k)
		if err == nil && src.Deleted() {
			return lb.Source{}, deletedErr("get source", string(id))
		}
		return src, err
	})
}

// Update applies change to a source (LB-65: status, name, platform,
// credentials, config...), moving its index entries. One strongly
// consistent GetItem and one conditional UpdateItem of the changed
// attributes (table.Entity.Update), retried on a lost race: the read gives
// the stored source the change applies to (its index keys are derived from
// it) and the version the write is conditioned on. A source
// cannot move to another account, and a soft-deleted one cannot be
// updated. Errors: *table.ValidationError, table.ErrNotFound (missing or
// deleted).
func (s *Sources) Update(ctx context.Context, id lb.SourceID, change func(*lb.Source) error) (lb.Source, error) {
	return table.Run(ctx, s.update, func(ctx context.Context) (lb.Source, error) {
		k, err := key(s.e.sources, lb.Source{SourceID: id}, id.Validate("sourceId"))
		if err != nil {
			return lb.Source{}, err
		}
		return s.v().Update(ctx, k, func(src *lb.Source) error {
			if src.Deleted() {
				return deletedErr("update source", string(id))
			}
			if err := change(src); err != nil {
				return err
			}
			if src.Deleted() {
				return table.Invalid("deletedAt", "set by Delete only")
			}
			return nil
		})
	})
}

// list returns a page of the sources of in.AccountID in index ix, the
// sort keys beginning with the fields in sets ([table.Entity.Prefix]).
func (s *Sources) list(ctx context.Context, ix table.Index, in lb.Source, opts []table.ListOption) (table.Page[lb.Source], error) {
	if err := in.AccountID.Validate("accountId"); err != nil {
		return table.Page[lb.Source]{}, err
	}
	return s.v().List(ctx, s.e.sources.Prefix(ix, in), opts...)
}

// ListByAccount returns one page of an account's sources, by status then
// ID (LB-15): Query GSI2 PK = SOURCES#{accountId}, SK begins_with
// STATUS#. Every source is there, a source of ListBackup's own code too,
// which names no platform and so is in no platform list (GSI1). Errors:
// *table.ValidationError, table.ErrInvalidCursor.
func (s *Sources) ListByAccount(ctx context.Context, account lb.AccountID, opts ...table.ListOption) (table.Page[lb.Source], error) {
	return table.Run(ctx, s.listByAccount, func(ctx context.Context) (table.Page[lb.Source], error) {
		return s.list(ctx, table.GSI2, lb.Source{AccountID: account}, opts)
	})
}

// AllByAccount iterates over an account's sources (LB-15).
func (s *Sources) AllByAccount(ctx context.Context, account lb.AccountID, opts ...table.ListOption) iter.Seq2[lb.Source, error] {
	return table.RunPages(ctx, s.allByAccount, func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Source], error) {
		return s.ListByAccount(ctx, account, o...)
	}, opts...)
}

// ListByPlatform returns one page of an account's sources on one platform
// (LB-16): Query GSI1 PK = SOURCES#{accountId}, SK begins_with
// PLATFORM#{platform}#. Errors: *table.ValidationError,
// table.ErrInvalidCursor.
func (s *Sources) ListByPlatform(ctx context.Context, account lb.AccountID, p lb.Platform, opts ...table.ListOption) (table.Page[lb.Source], error) {
	return table.Run(ctx, s.listByPlatform, func(ctx context.Context) (table.Page[lb.Source], error) {
		if err := p.Check("platform"); err != nil {
			return table.Page[lb.Source]{}, err
		}
		return s.list(ctx, table.GSI1, lb.Source{AccountID: account, Platform: p}, opts)
	})
}

// AllByPlatform iterates over an account's sources on one platform (LB-16).
func (s *Sources) AllByPlatform(ctx context.Context, account lb.AccountID, p lb.Platform, opts ...table.ListOption) iter.Seq2[lb.Source, error] {
	return table.RunPages(ctx, s.allByPlatform, func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Source], error) {
		return s.ListByPlatform(ctx, account, p, o...)
	}, opts...)
}

// ListByStatus returns one page of an account's sources in one status
// (LB-17): Query GSI2 PK = SOURCES#{accountId}, SK begins_with
// STATUS#{status}#. Errors: *table.ValidationError, table.ErrInvalidCursor.
func (s *Sources) ListByStatus(ctx context.Context, account lb.AccountID, st lb.SourceStatus, opts ...table.ListOption) (table.Page[lb.Source], error) {
	return table.Run(ctx, s.listByStatus, func(ctx context.Context) (table.Page[lb.Source], error) {
		if err := st.Check("status"); err != nil {
			return table.Page[lb.Source]{}, err
		}
		return s.list(ctx, table.GSI2, lb.Source{AccountID: account, Status: st}, opts)
	})
}

// AllByStatus iterates over an account's sources in one status (LB-17).
func (s *Sources) AllByStatus(ctx context.Context, account lb.AccountID, st lb.SourceStatus, opts ...table.ListOption) iter.Seq2[lb.Source, error] {
	return table.RunPages(ctx, s.allByStatus, func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Source], error) {
		return s.ListByStatus(ctx, account, st, o...)
	}, opts...)
}

// Connections serves LB-27..LB-29. Credentials are encrypted at rest.
type Connections struct {
	update, delete, create, get, listByAccountPlatform, listByUserPlatform, allByAccountPlatform, allByUserPlatform table.Op
	e                                                                                                               *entities
	acct                                                                                                            lb.AccountID // set: the view of one account (Store.ForAccount)
}

func newConnections(e *entities, acct lb.AccountID) *Connections {
	return &Connections{e: e, acct: acct,
		allByAccountPlatform:  table.NewOp(e.t, "LB-28", "listbackup.Connections.AllByAccountPlatform"),
		allByUserPlatform:     table.NewOp(e.t, "LB-29", "listbackup.Connections.AllByUserPlatform"),
		update:                table.NewOp(e.t, "LB-65", "listbackup.Connections.Update"),
		delete:                table.NewOp(e.t, "LB-65", "listbackup.Connections.Delete"),
		create:                table.NewOp(e.t, "LB-27", "listbackup.Connections.Create"),
		get:                   table.NewOp(e.t, "LB-27", "listbackup.Connections.Get"),
		listByAccountPlatform: table.NewOp(e.t, "LB-28", "listbackup.Connections.ListByAccountPlatform"),
		listByUserPlatform:    table.NewOp(e.t, "LB-29", "listbackup.Connections.ListByUserPlatform"),
	}
}

// Create creates connection c. Status defaults to active. Errors:
// *table.ValidationError, table.ErrAlreadyExists.
//
// Pattern: LB-27 (its write side).
func (s *Connections) Create(ctx context.Context, c *lb.Connection) error {
	return s.create.Do(ctx, func(ctx context.Context) error {
		if c.Status == "" {
			c.Status = lb.ConnectionActive
		}
		return s.v().Create(ctx, c)
	})
}

// Get returns a connection by ID (LB-27): GetItem PK = CONN#{connectionId},
// SK = CONN. Errors: *table.ValidationError, table.ErrNotFound (also for a
// soft-deleted connection, LB-65).
func (s *Connections) Get(ctx context.Context, id lb.ConnectionID) (lb.Connection, error) {
	return table.Run(ctx, s.get, func(ctx context.Context) (lb.Connection, error) {
		k, err := key(s.e.connections, lb.Connection{ConnectionID: id}, id.Validate("connectionId"))
		if err != nil {
			return lb.Connection{}, err
		}
		c, err := s.v().Get(ctx, k)
		if err == nil && c.Deleted() {
			return lb.Connection{}, deletedErr("get connection", string(id))
		}
		return c, err
	})
}

// ListByAccountPlatform returns one page of an account's connections on
// one platform (LB-28): Query GSI1 PK = CONNS#{accountId}, SK begins_with
// PLATFORM#{platform}#. Errors: *table.ValidationError,
// table.ErrInvalidCursor.
func (s *Connections) ListByAccountPlatform(ctx context.Context, account lb.AccountID, p lb.Platform, opts ...table.ListOption) (table.Page[lb.Connection], error) {
	return table.Run(ctx, s.listByAccountPlatform, func(ctx context.Context) (table.Page[lb.Connection], error) {
		if err := first(account.Validate("accountId"), p.Check("platform")); err != nil {
			return table.Page[lb.Connection]{}, err
		}
		return s.v().List(ctx, s.e.connections.Prefix(table.GSI1, lb.Connection{AccountID: account, Platform: p}), opts...)
	})
}

// AllByAccountPlatform iterates over LB-28.
func (s *Connections) AllByAccountPlatform(ctx context.Context, account lb.AccountID, p lb.Platform, opts ...table.ListOption) iter.Seq2[lb.Connection, error] {
	return table.RunPages(ctx, s.allByAccountPlatform, func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Connection], error) {
		return s.ListByAccountPlatform(ctx, account, p, o...)
	}, opts...)
}

// ListByUserPlatform returns one page of a user's connections on one
// platform (LB-29): Query GSI2 PK = USERCONNS#{userId}, SK begins_with
// PLATFORM#{platform}#. Errors: *table.ValidationError,
// table.ErrInvalidCursor.
func (s *Connections) ListByUserPlatform(ctx context.Context, user lb.UserID, p lb.Platform, opts ...table.ListOption) (table.Page[lb.Connection], error) {
	return table.Run(ctx, s.listByUserPlatform, func(ctx context.Context) (table.Page[lb.Connection], error) {
		if err := first(user.Validate("userId"), p.Check("platform")); err != nil {
			return table.Page[lb.Connection]{}, err
		}
		return s.v().List(ctx, s.e.connections.Prefix(table.GSI2, lb.Connection{UserID: user, Platform: p}), opts...)
	})
}

// AllByUserPlatform iterates over LB-29.
func (s *Connections) AllByUserPlatform(ctx context.Context, user lb.UserID, p lb.Platform, opts ...table.ListOption) iter.Seq2[lb.Connection, error] {
	return table.RunPages(ctx, s.allByUserPlatform, func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Connection], error) {
		return s.ListByUserPlatform(ctx, user, p, o...)
	}, opts...)
}

func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
