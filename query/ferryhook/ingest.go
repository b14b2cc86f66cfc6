package ferryhook

import (
	"context"
	"fmt"

	fh "github.com/singletable/singletable/entity/ferryhook"
	"github.com/singletable/singletable/table"
)

// IngestRequest is a webhook request as the ingest handler receives it.
type IngestRequest struct {
	// Headers are the request headers as a JSON object.
	Headers fh.JSONText
	// Body is the raw body, at most fh.MaxBodyBytes (256 KB).
	Body string
	// SourceIP, ContentType and Method describe the request.
	SourceIP    string
	ContentType string
	Method      string
}

// Ingest receives a webhook for a source, the ingest handler's whole path:
// FH-4 finds the source by ID (missing or deleted: table.ErrNotFound;
// paused: [ErrSourcePaused]), FH-1 reads the owner's plan for the event's
// expiresAt (FH-12), then one TransactWriteItems spanning both tables
// stores the event, adds 1 to the source's eventCount and sets its
// lastEventAt (on condition that it is still active), and adds 1 to the
// owner's usageThisMonth: either all happen or none. Bad input, a body
// over 256 KB among it, gives a *table.ValidationError before any request.
func (s *Store) Ingest(ctx context.Context, source fh.SourceID, req IngestRequest) (fh.Event, error) {
	if err := source.Validate(); err != nil {
		return fh.Event{}, err
	}
	in := CreateEventInput{
		SourceID: source, UserID: fh.NewUserID(), Plan: fh.PlanFree,
		Headers: req.Headers, Body: req.Body, SourceIP: req.SourceIP, ContentType: req.ContentType, Method: req.Method,
	}
	if _, err := s.Events.newEvent(in); err != nil { // validate before any request
		return fh.Event{}, err
	}
	src, err := s.Sources.GetByID(ctx, source)
	if err != nil {
		return fh.Event{}, err
	}
	if src.Status != fh.StatusActive {
		return fh.Event{}, fmt.Errorf("ingest %s: %w", source, ErrSourcePaused)
	}
	owner, err := s.Users.GetByID(ctx, src.UserID)
	if err != nil {
		return fh.Event{}, err
	}
	in.UserID, in.Plan = owner.UserID, owner.Plan
	if !in.Plan.Valid() {
		in.Plan = fh.PlanFree
	}
	ev, err := s.Events.newEvent(in)
	if err != nil {
		return fh.Event{}, err
	}
	evOps, err := s.event.CreateOp(&ev)
	if err != nil {
		return fh.Event{}, err
	}
	sk, _ := fh.SourceKey(src.UserID, src.SourceID)
	srcOp, err := s.source.PatchOp(sk, table.Patch{
		Add:     map[string]int64{"eventCount": 1},
		Set:     map[string]any{"lastEventAt": fh.ISO(ev.ReceivedAt.Time()).String()},
		IfEqual: map[string]any{"status": string(fh.StatusActive)},
	})
	if err != nil {
		return fh.Event{}, err
	}
	uk, _ := fh.UserKey(owner.UserID)
	userOp, err := s.user.PatchOp(uk, table.Patch{Add: map[string]int64{"usageThisMonth": 1}})
	if err != nil {
		return fh.Event{}, err
	}
	ops := append(evOps, srcOp, userOp)
	if err := s.events.Transact(ctx, ops...); err != nil {
		err = txErr(err, len(evOps), ErrSourcePaused, "ingest source "+string(source))
		return fh.Event{}, txErr(err, len(evOps)+1, table.ErrNotFound, "ingest user "+string(owner.UserID))
	}
	return ev, nil
}
