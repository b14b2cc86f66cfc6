package fh

import "github.com/singletable/singletable/table"

// Source is an endpoint that receives a provider's webhooks (main table,
// USER#{userId} / SRC#{sourceId}; GSI3 SRCID#{sourceId} / SOURCE).
type Source struct {
	// SourceID is src_ + nanoid(16).
	SourceID SourceID `dynamo:"sourceId"`
	// UserID is the owner.
	UserID UserID `dynamo:"userId"`
	// Name is human readable ("Stripe Prod").
	Name string `dynamo:"name"`
	// Provider is who sends the webhooks.
	Provider Provider `dynamo:"provider"`
	// SigningSecret is the provider's signing secret, if any.
	SigningSecret string `dynamo:"signingSecret"`
	// SigningAlgorithm is how the provider signs; set with SigningSecret.
	SigningAlgorithm SigningAlgorithm `dynamo:"signingAlgorithm"`
	// Status is active, paused (events refused) or deleted.
	Status Status `dynamo:"status"`
	// EventCount counts the events received, atomically.
	EventCount int64 `dynamo:"eventCount"`
	// LastEventAt is when the last event arrived.
	LastEventAt ISOTime `dynamo:"lastEventAt"`
	// CreatedAt is kept by the store.
	CreatedAt ISOTime `dynamo:"createdAt"`
	// EventLayout is the write-sharded layout of the source's events
	// (table.Layout's text, such as "0:1,1764000000000:64": from which
	// receivedAt, in Unix milliseconds, on how many partitions). Empty,
	// as the document has it: every event in SRC#{sourceId}. The library
	// writes it only in its scaled profile; the running service never.
	EventLayout string `dynamo:"eventLayout,omitempty"`
}

// Validate checks the rules of s its fields\' types do not hold (its IDs and
// enumerations check themselves on every write: see the Def\'s Required).
func (s *Source) Validate() error {
	return first(
		checkName("name", s.Name),
		checkText("signingSecret", s.SigningSecret, 1024),
		checkSigning(s.SigningSecret, s.SigningAlgorithm),
		checkCount("eventCount", s.EventCount),
	)
}

func checkSigning(secret string, alg SigningAlgorithm) error {
	switch {
	case secret == "" && alg != "":
		return table.Invalid("signingAlgorithm", "set without a signing secret")
	case secret != "" && alg == "":
		return table.Invalid("signingAlgorithm", "required with a signing secret")
	}
	return nil
}
