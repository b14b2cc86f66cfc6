package ferryhook

import (
	"context"
	"time"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// Attempts serves the delivery attempts of the document's interface
// (FH-9, FH-11).
type Attempts struct {
	// ByEvent lists an event's attempts, first attempt first (FH-9;
	// FH-11 attempts.listByEvent); table.Desc lists the last first.
	//
	//	page, err := s.Attempts.ByEvent.List(ctx, fh.DeliveryAttempt{EventID: id})
	ByEvent *table.Pattern[fh.DeliveryAttempt]

	create table.Op
	s      *Store
}

func newAttempts(s *Store) *Attempts {
	return &Attempts{s: s, create: table.NewOp(s.events, "FH-11", "ferryhook.Attempts.Create"),
		ByEvent: table.NewPattern(s.attempt, table.PatternDef[fh.DeliveryAttempt]{ID: "FH-9", Name: "ferryhook.Attempts.ByEvent",
			Doc: "An event's delivery attempts, first attempt first.", Reads: table.ReadPage}),
	}
}

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
func (a *Attempts) Create(ctx context.Context, event fh.EventID, n int, in CreateAttemptInput) (fh.DeliveryAttempt, error) {
	return table.Run(ctx, a.create, func(ctx context.Context) (fh.DeliveryAttempt, error) {
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
		if err := a.s.attempt.Validate(&att); err != nil {
			return fh.DeliveryAttempt{}, err
		}
		if err := a.s.attempt.Create(ctx, &att); err != nil {
			return fh.DeliveryAttempt{}, err
		}
		return att, nil
	})
}
