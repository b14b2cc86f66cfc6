package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Sources serves LB-14..LB-17. Credentials are encrypted at rest. The
// reads of one pattern are declared ([table.Pattern]): its fields, whole
// on the Store and the account's own on [AccountScope] ([table.Pattern.In]).
// A soft-deleted source (LB-65) is in none of their lists.
type Sources struct {
	// ByID reads a source (LB-14). A soft-deleted source (LB-65) is not
	// found.
	//
	//	src, err := s.Sources.ByID.Get(ctx, lb.Source{SourceID: id})
	ByID *table.Pattern[lb.Source]
	// ByAccount lists an account's sources, by status then ID (LB-15).
	// Every source is there, a source of ListBackup's own code too, which
	// names no platform and so is in no platform list (GSI1).
	//
	//	page, err := s.Sources.ByAccount.List(ctx, lb.Source{AccountID: a})
	ByAccount *table.Pattern[lb.Source]
	// ByPlatform lists an account's sources on one platform (LB-16).
	ByPlatform *table.Pattern[lb.Source]
	// ByStatus lists an account's sources in one status (LB-17).
	ByStatus *table.Pattern[lb.Source]
	// Create creates a source (LB-14, its write side). Status defaults to
	// active.
	Create func(context.Context, *lb.Source) error
	// Update applies change to a source (LB-65: status, name, platform,
	// credentials, config...), moving its index entries. A source cannot
	// move to another account, and a soft-deleted one cannot be updated
	// (table.ErrNotFound).
	Update func(context.Context, lb.SourceID, func(*lb.Source) error) (lb.Source, error)

	delete table.Op
	e      *entities
	acct   lb.AccountID // set: the view of one account (Store.ForAccount)
}

func newSources(e *entities) *Sources {
	return (&Sources{e: e,
		ByID: table.NewPattern(e.sources, table.PatternDef[lb.Source]{ID: "LB-14", Name: "listbackup.Sources.ByID",
			Doc: "A source by ID, a soft-deleted one not found.", Reads: table.ReadOne,
			Keep: live[lb.Source]}),
		ByAccount: table.NewPattern(e.sources, table.PatternDef[lb.Source]{ID: "LB-15", Name: "listbackup.Sources.ByAccount",
			Doc: "An account's sources, by status then ID.", Reads: table.ReadPage, Index: table.GSI2}),
		ByPlatform: table.NewPattern(e.sources, table.PatternDef[lb.Source]{ID: "LB-16", Name: "listbackup.Sources.ByPlatform",
			Doc: "An account's sources on one platform.", Reads: table.ReadPage, Index: table.GSI1, SortPrefix: true,
			Require: []string{"platform"}}),
		ByStatus: table.NewPattern(e.sources, table.PatternDef[lb.Source]{ID: "LB-17", Name: "listbackup.Sources.ByStatus",
			Doc: "An account's sources in one status.", Reads: table.ReadPage, Index: table.GSI2, SortPrefix: true,
			Require: []string{"status"}}),
		delete: table.NewOp(e.t, "LB-65", "listbackup.Sources.Delete"),
	}).declare()
}

// in returns the sources of account acct alone.
func (s *Sources) in(acct lb.AccountID) *Sources {
	c := *s
	c.acct, c.ByID, c.ByAccount, c.ByPlatform, c.ByStatus = acct, s.ByID.In(string(acct)), s.ByAccount.In(string(acct)), s.ByPlatform.In(string(acct)), s.ByStatus.In(string(acct))
	return c.declare()
}

// declare declares the writes of the view (its account's, or whole).
func (s *Sources) declare() *Sources {
	view := items(s.e.sources, s.acct) // one view for every write
	s.Update = table.Update(view, table.WriteDef[lb.Source]{ID: "LB-65", Name: "listbackup.Sources.Update",
		Doc:  "Applies change to a source (LB-65: status, name, platform, credentials, config...), moving its index entries.",
		Live: notDeleted[lb.Source], LiveField: "deletedAt"}, func(id lb.SourceID) lb.Source { return lb.Source{SourceID: id} })
	s.Create = table.Create(view, table.WriteDef[lb.Source]{ID: "LB-14", Name: "listbackup.Sources.Create",
		Doc:    "Creates a source.",
		Before: func(src *lb.Source) { orDefault(&src.Status, lb.SourceActive) }})
	return s
}

// Connections serves LB-27..LB-29. Credentials are encrypted at rest.
// The reads of one pattern are declared ([table.Pattern]): its fields,
// whole on the Store and the account's own on [AccountScope].
type Connections struct {
	// ByID reads a connection (LB-27). A soft-deleted connection (LB-65) is
	// not found.
	//
	//	c, err := s.Connections.ByID.Get(ctx, lb.Connection{ConnectionID: id})
	ByID *table.Pattern[lb.Connection]
	// ByAccountPlatform lists an account's connections on one platform
	// (LB-28).
	//
	//	page, err := s.Connections.ByAccountPlatform.List(ctx, lb.Connection{AccountID: a, Platform: p})
	ByAccountPlatform *table.Pattern[lb.Connection]
	// ByUserPlatform lists a user's connections on one platform (LB-29).
	ByUserPlatform *table.Pattern[lb.Connection]
	// Update applies change to a connection (LB-65: status, credentials,
	// metadata...), moving its index entries. A connection cannot move to
	// another account or user, and a soft-deleted one cannot be updated
	// (table.ErrNotFound).
	Update func(context.Context, lb.ConnectionID, func(*lb.Connection) error) (lb.Connection, error)
	// Create creates a connection (LB-27, its write side). Status defaults
	// to active.
	Create func(context.Context, *lb.Connection) error
	// Delete soft-deletes a connection (LB-65): status becomes revoked,
	// deletedAt is stamped, the stored (encrypted) access and refresh
	// tokens, API key and the provider's other token-response members are
	// removed, and the connection leaves the LB-28 and LB-29 lists. One
	// already deleted is not found.
	Delete func(context.Context, lb.ConnectionID) error

	deleted func(*lb.Connection) error // Delete's change, made once (a view copies it)
	e       *entities
	acct    lb.AccountID // set: the view of one account (Store.ForAccount)
}

func newConnections(e *entities) *Connections {
	return (&Connections{e: e,
		deleted: func(c *lb.Connection) error {
			c.Status, c.DeletedAt = lb.ConnectionRevoked, e.now()
			c.Credentials.AccessToken, c.Credentials.RefreshToken, c.Credentials.APIKey = "", "", ""
			c.Credentials.Extra = nil // the rest of the provider's token response (id_token...), sealed too
			return nil
		},
		ByID: table.NewPattern(e.connections, table.PatternDef[lb.Connection]{ID: "LB-27", Name: "listbackup.Connections.ByID",
			Doc: "A connection by ID, a soft-deleted one not found.", Reads: table.ReadOne,
			Keep: live[lb.Connection]}),
		ByAccountPlatform: table.NewPattern(e.connections, table.PatternDef[lb.Connection]{ID: "LB-28", Name: "listbackup.Connections.ByAccountPlatform",
			Doc: "An account's connections on one platform.", Reads: table.ReadPage, Index: table.GSI1, SortPrefix: true,
			Require: []string{"platform"}}),
		ByUserPlatform: table.NewPattern(e.connections, table.PatternDef[lb.Connection]{ID: "LB-29", Name: "listbackup.Connections.ByUserPlatform",
			Doc: "A user's connections on one platform.", Reads: table.ReadPage, Index: table.GSI2, SortPrefix: true,
			Require: []string{"platform"}}),
	}).declare()
}

// in returns the connections of account acct alone.
func (s *Connections) in(acct lb.AccountID) *Connections {
	c := *s
	c.acct, c.ByID, c.ByAccountPlatform, c.ByUserPlatform = acct, s.ByID.In(string(acct)), s.ByAccountPlatform.In(string(acct)), s.ByUserPlatform.In(string(acct))
	return c.declare()
}

// connectionDeleteAlso is Connections.Delete's further IDs, one value for every view.
var connectionDeleteAlso = []string{"LB-28", "LB-29"}

// declare declares the writes of the view (its account's, or whole).
func (s *Connections) declare() *Connections {
	view := items(s.e.connections, s.acct) // one view for every write
	s.Create = table.Create(view, table.WriteDef[lb.Connection]{ID: "LB-27", Name: "listbackup.Connections.Create",
		Doc:    "Creates a connection.",
		Before: func(c *lb.Connection) { orDefault(&c.Status, lb.ConnectionActive) }})
	s.Update = table.Update(view, table.WriteDef[lb.Connection]{ID: "LB-65", Name: "listbackup.Connections.Update",
		Doc:  "Applies change to a connection (LB-65: status, credentials, metadata...), moving its index entries.",
		Live: notDeleted[lb.Connection], LiveField: "deletedAt"}, func(id lb.ConnectionID) lb.Connection { return lb.Connection{ConnectionID: id} })
	s.Delete = table.SoftDelete(view, table.WriteDef[lb.Connection]{ID: "LB-65", Name: "listbackup.Connections.Delete", Also: connectionDeleteAlso,
		Doc:  "Soft-deletes a connection: status becomes revoked, deletedAt is stamped, the stored (encrypted) access and refresh tokens, API key and the provider's other token-response members are removed, and the connection leaves the LB-28 and LB-29 lists.",
		Live: notDeleted[lb.Connection], LiveField: "deletedAt"}, func(id lb.ConnectionID) lb.Connection { return lb.Connection{ConnectionID: id} },
		s.deleted)
	return s
}

func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
