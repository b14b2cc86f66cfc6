package ferryhook

import (
	"context"
	"iter"
	"time"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// Attempts serves the delivery attempts of the document's interface
// (FH-9, FH-11).
type Attempts struct{ s *Store }

// CreateAttemptInput is the outcome of one delivery try.
type CreateAttemptInput struct {
	// ConnectionID is the connection delivered to (required).
	ConnectionID fh.ConnectionID
	// DestinationURL is the URL posted to (required).
	DestinationURL string
	// StatusCode is the HTTP status, 0 on timeout.
	StatusCode int
	// ResponseBody is truncated to its first 1000 characters.
	ResponseBody string
	// Latency is the request duration.
	Latency time.Duration
	// Error is the error message of a failed request.
	Error string
	// AttemptedAt defaults to now.
	AttemptedAt time.Time
	// ExpiresAt is normally the event's expiresAt, so that attempts expire
	// with their event; zero keeps the attempt.
	ExpiresAt fh.UnixSeconds
}

// Create records delivery attempt number n (1..8) of an event (FH-11
// attempts.create), as EVT#{eventId} / ATT#{n}. Recording the same
// attempt number twice gives table.ErrAlreadyExists; bad input (n outside
// 1..8 among it) a *table.ValidationError before any request.
func (a *Attempts) Create(ctx context.Context, event fh.EventID, n int, in CreateAttemptInput) (_ fh.DeliveryAttempt, err error) {
	ctx, call := a.s.events.Call(ctx, "FH-11", "ferryhook.Attempts.Create")
	defer func() { call.End(err) }()
	at := in.AttemptedAt
	if at.IsZero() {
		at = a.s.now()
	}
	att := fh.DeliveryAttempt{
		EventID:        event,
		ConnectionID:   in.ConnectionID,
		AttemptNumber:  n,
		DestinationURL: in.DestinationURL,
		StatusCode:     in.StatusCode,
		ResponseBody:   fh.TruncateResponse(in.ResponseBody),
		LatencyMs:      in.Latency.Milliseconds(),
		Error:          in.Error,
		AttemptedAt:    fh.Millis(at),
		ExpiresAt:      in.ExpiresAt,
	}
	if err := att.Validate(); err != nil {
		return fh.DeliveryAttempt{}, err
	}
	if err := a.s.attempt.Create(ctx, &att); err != nil {
		return fh.DeliveryAttempt{}, err
	}
	return att, nil
}

// ListByEvent returns one page of an event's attempts, first attempt first
// (FH-9; FH-11 attempts.listByEvent): Query PK = EVT#{eventId}, SK
// begins_with ATT#. Options: table.Limit, table.After, table.Asc,
// table.Desc (table.Desc: last attempt first). A bad limit or cursor gives
// a *table.ValidationError or table.ErrInvalidCursor.
func (a *Attempts) ListByEvent(ctx context.Context, event fh.EventID, opts ...table.ListOption) (_ table.Page[fh.DeliveryAttempt], err error) {
	ctx, call := a.s.events.Call(ctx, "FH-9", "ferryhook.Attempts.ListByEvent")
	defer func() { call.End(err) }()
	if err := event.Validate(); err != nil {
		return table.Page[fh.DeliveryAttempt]{}, err
	}
	pk, _ := fh.AttemptKeys.Partition(map[string]string{"eventId": string(event)})
	pre, _ := fh.AttemptKeys.SortPrefix(nil)
	return a.s.attempt.List(ctx, table.Query{PK: string(pk), SK: table.SKBeginsWith(string(pre))}, opts...)
}

// AllByEvent iterates over all of an event's attempts (FH-9), page by
// page, with ListByEvent's options.
func (a *Attempts) AllByEvent(ctx context.Context, event fh.EventID, opts ...table.ListOption) iter.Seq2[fh.DeliveryAttempt, error] {
	return table.CallPages(ctx, a.s.events, "FH-9", "ferryhook.Attempts.AllByEvent", func(ctx context.Context, o ...table.ListOption) (table.Page[fh.DeliveryAttempt], error) {
		return a.ListByEvent(ctx, event, o...)
	}, opts...)
}
