package ferryhook

import (
	"context"
	"errors"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// Connections serves the connections of the document's interface (FH-5,
// FH-11). Every user-facing operation takes the owner's ID and checks the
// connection's userId against it.
type Connections struct {
	// BySource lists the connections of a user's source in connectionId
	// order, ascending (FH-5; FH-11 connections.listBySource). Connections
	// of another user and deleted ones are never returned (a page may hold
	// fewer than the limit).
	//
	//	page, err := s.Connections.BySource.List(ctx, fh.Connection{UserID: u, SourceID: src})
	BySource *table.Pattern[fh.Connection]
	// ByID reads user's connection (FH-5). Another user's or a deleted
	// connection is not found (table.ErrNotFound).
	//
	//	c, err := s.Connections.ByID.Get(ctx, fh.Connection{UserID: u, SourceID: src, ConnectionID: id})
	ByID *table.Pattern[fh.Connection]

	create, update, delete, recordDelivery table.Op
	s                                      *Store
}

func newConnections(s *Store) *Connections {
	return &Connections{s: s,
		create:         table.NewOp(s.main, "FH-11", "ferryhook.Connections.Create"),
		update:         table.NewOp(s.main, "FH-11", "ferryhook.Connections.Update"),
		delete:         table.NewOp(s.main, "FH-11", "ferryhook.Connections.Delete"),
		recordDelivery: table.NewOp(s.main, "FH-11", "ferryhook.Connections.RecordDelivery"),
		BySource: table.NewPattern(s.conn, table.PatternDef[fh.Connection]{ID: "FH-5", Name: "ferryhook.Connections.BySource",
			Doc: "The connections of a user's source, deleted ones left out.", Reads: table.ReadPage,
			// userId equality is a FilterExpression; the status check (not
			// equal) is Keep's, which repeats the user check for safety.
			FilterOn: []string{"userId"},
			Check:    func(c *fh.Connection) error { return fh.UserIDs.Check(c.UserID) },
			Keep:     func(f, c *fh.Connection) bool { return c.UserID == f.UserID && c.Status != fh.StatusDeleted }}),
		ByID: table.NewPattern(s.conn, table.PatternDef[fh.Connection]{ID: "FH-5", Name: "ferryhook.Connections.ByID",
			Doc: "A user's connection by ID, a deleted one not found.", Reads: table.ReadOne,
			Check: func(c *fh.Connection) error { return fh.UserIDs.Check(c.UserID) }, Require: []string{"connectionId"},
			Keep: func(f, c *fh.Connection) bool { return c.UserID == f.UserID && c.Status != fh.StatusDeleted }}),
	}
}

// CreateConnectionInput describes a new connection.
type CreateConnectionInput struct {
	// Name is required.
	Name string
	// DestinationURL is required: an absolute http or https URL.
	DestinationURL string
	// SigningSecret signs outbound deliveries; generated (whsec_ and 32
	// random characters) when empty.
	SigningSecret string
	// Filters, Transform and RetryConfig are optional JSON documents.
	Filters     fh.JSONText
	Transform   fh.JSONText
	RetryConfig fh.JSONText
}

// Create creates an active connection on user's source (FH-11
// connections.create): the source is read first (another user's, a missing
// or a deleted source gives table.ErrNotFound), then the connection is
// written if its key is new. Bad input gives a *table.ValidationError.
func (c *Connections) Create(ctx context.Context, user fh.UserID, source fh.SourceID, in CreateConnectionInput) (fh.Connection, error) {
	return table.Run(ctx, c.create, func(ctx context.Context) (fh.Connection, error) {
		if in.SigningSecret == "" {
			in.SigningSecret = "whsec_" + fh.NewSecretKey()[len(fh.SecretKeyPrefix):]
		}
		conn := fh.Connection{
			ConnectionID:   fh.ConnectionIDs.New(),
			SourceID:       source,
			UserID:         user,
			Name:           in.Name,
			DestinationURL: in.DestinationURL,
			SigningSecret:  in.SigningSecret,
			Filters:        in.Filters,
			Transform:      in.Transform,
			RetryConfig:    in.RetryConfig,
			Status:         fh.StatusActive,
		}
		if err := c.s.conn.Validate(&conn); err != nil {
			return fh.Connection{}, err
		}
		if _, err := c.s.Sources.ByID.Get(ctx, fh.Source{UserID: user, SourceID: source}); err != nil {
			return fh.Connection{}, err
		}
		if err := c.s.conn.Create(ctx, &conn); err != nil {
			return fh.Connection{}, err
		}
		return conn, nil
	})
}

// ConnectionUpdate is a partial update of a connection (the document's
// Partial<Connection>); nil fields are left alone. Status may be active
// or paused (use Delete to delete).
type ConnectionUpdate struct {
	Name           *string
	DestinationURL *string
	SigningSecret  *string
	Filters        *fh.JSONText
	Transform      *fh.JSONText
	RetryConfig    *fh.JSONText
	Status         *fh.Status
}

// Update changes user's connection (FH-11 connections.update) and returns
// it as stored (read, conditional write on the version, retried on a lost
// race; delivery counters bumped meanwhile are kept). Another user's, a
// missing or a deleted connection gives table.ErrNotFound and changes
// nothing; bad input a *table.ValidationError.
func (c *Connections) Update(ctx context.Context, user fh.UserID, source fh.SourceID, id fh.ConnectionID, up ConnectionUpdate) (fh.Connection, error) {
	return table.Run(ctx, c.update, func(ctx context.Context) (fh.Connection, error) {
		k, err := c.s.connKey(user, source, id)
		if err != nil {
			return fh.Connection{}, err
		}
		if up == (ConnectionUpdate{}) {
			return fh.Connection{}, table.Invalid("update", "no field to change")
		}
		if up.Status != nil && *up.Status != fh.StatusActive && *up.Status != fh.StatusPaused {
			return fh.Connection{}, table.Invalid("status", "%q: set active or paused (use Delete to delete)", *up.Status)
		}
		if err := fh.ValidateConnectionChange(up.Name, up.DestinationURL, up.SigningSecret, up.Filters, up.Transform, up.RetryConfig); err != nil {
			return fh.Connection{}, err // before any request
		}
		return c.s.conn.Update(ctx, k, func(cur *fh.Connection) error {
			if cur.UserID != user || cur.Status == fh.StatusDeleted {
				return notFound("connection", string(id))
			}
			set(&cur.Name, up.Name)
			set(&cur.DestinationURL, up.DestinationURL)
			set(&cur.SigningSecret, up.SigningSecret)
			set(&cur.Filters, up.Filters)
			set(&cur.Transform, up.Transform)
			set(&cur.RetryConfig, up.RetryConfig)
			set(&cur.Status, up.Status)
			return nil
		})
	})
}

// Delete deletes user's connection (FH-11 connections.delete): status
// deleted, so it is never returned or delivered to again. Another user's,
// a missing or an already deleted connection gives table.ErrNotFound and
// changes nothing.
func (c *Connections) Delete(ctx context.Context, user fh.UserID, source fh.SourceID, id fh.ConnectionID) error {
	return c.delete.Do(ctx, func(ctx context.Context) error {
		k, err := c.s.connKey(user, source, id)
		if err != nil {
			return err
		}
		// One UpdateItem: status deleted if the connection is user's and not
		// already deleted.
		_, err = c.s.conn.Patch(ctx, k, table.Patch{
			Set:        map[string]any{"status": fh.StatusDeleted, "updatedAt": fh.ISO(c.s.now())},
			IfEqual:    map[string]any{"userId": user},
			IfNotEqual: map[string]any{"status": fh.StatusDeleted},
		})
		if errors.Is(err, table.ErrConditionFailed) {
			return notFound("connection", string(id))
		}
		return err
	})
}

// RecordDelivery counts one delivery outcome of a connection atomically
// (FH-11 connections.update; one UpdateItem ADD on deliveryCount, or
// failureCount when delivered is false) and returns the new count. It is the delivery worker's call, not
// user-facing. A missing connection gives table.ErrNotFound.
func (c *Connections) RecordDelivery(ctx context.Context, source fh.SourceID, id fh.ConnectionID, delivered bool) (int64, error) {
	return table.Run(ctx, c.recordDelivery, func(ctx context.Context) (int64, error) {
		k, err := c.s.conn.CheckedKey(fh.Connection{SourceID: source, ConnectionID: id})
		if err != nil {
			return 0, err
		}
		field := "failureCount"
		if delivered {
			field = "deliveryCount"
		}
		return c.s.conn.Add(ctx, k, field, 1)
	})
}
