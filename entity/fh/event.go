package fh

import (
	"net/netip"
	"strings"
	"unicode/utf8"

	"github.com/singletable/singletable/table"
)

// MaxBodyBytes is the largest event body the document allows (256 KB).
const MaxBodyBytes = 256 * 1024

// Event is one webhook received by a source (events table,
// SRC#{sourceId} / EVT#{receivedAt}#{eventId}; GSI1 EVTID#{eventId} /
// EVENT). It expires at ExpiresAt, set from the owner's plan (FH-12).
type Event struct {
	// EventID is evt_ + nanoid(16).
	EventID EventID `dynamo:"eventId"`
	// SourceID is the source that received the event.
	SourceID SourceID `dynamo:"sourceId"`
	// UserID is the source's owner.
	UserID UserID `dynamo:"userId"`
	// Status is where the event is in the delivery pipeline.
	Status EventStatus `dynamo:"status"`
	// Headers are the original request headers as a JSON object.
	Headers JSONText `dynamo:"headers"`
	// Body is the raw request body, at most [MaxBodyBytes].
	Body string `dynamo:"body"`
	// SourceIP is the sender's IP address.
	SourceIP string `dynamo:"sourceIp"`
	// ContentType is the Content-Type header value.
	ContentType string `dynamo:"contentType"`
	// Method is the HTTP method (POST, PUT, ...).
	Method string `dynamo:"method"`
	// ReceivedAt is when the event arrived (Unix ms); part of the key.
	ReceivedAt UnixMillis `dynamo:"receivedAt"`
	// ProcessedAt is when processing began (Unix ms).
	ProcessedAt UnixMillis `dynamo:"processedAt,omitempty"`
	// DeliveredAt is when the event was delivered (Unix ms).
	DeliveredAt UnixMillis `dynamo:"deliveredAt,omitempty"`
	// ExpiresAt is the TTL (Unix seconds).
	ExpiresAt UnixSeconds `dynamo:"expiresAt"`
	// ByKey marks an event found by its located ID alone (its key is in
	// its ID, [NewLocatedEventID]): a store profile that leaves such
	// events out of GSI1 sets it, saving the index entry's write units
	// (query/ferryhook, Options.EventsByKeyOnly). Absent (false) on every
	// other event, which GSI1 holds as the document says.
	ByKey bool `dynamo:"byKey,omitempty"`
}

// Validate checks the rules of e its fields\' types do not hold (its IDs and
// enumerations check themselves on every write: see the Def\'s Required).
func (e *Event) Validate() error {
	return first(
		e.received(),
		checkMillis("receivedAt", e.ReceivedAt, true),
		checkMillis("processedAt", e.ProcessedAt, false),
		checkMillis("deliveredAt", e.DeliveredAt, false),
		checkExpiry(e),
	)
}

// ValidateReceived checks the fields of e a webhook request sets (the
// source, headers, body, sourceIp, contentType and method), as Validate
// does: how an ingest refuses bad input before any request, before the
// rest of the event is known.
func (e *Event) ValidateReceived() error { return first(SourceIDs.Check(e.SourceID), e.received()) }

// received checks the fields of e a webhook request sets but its source
// (whose ID checks itself on a write).
func (e *Event) received() error {
	return first(
		checkJSON("headers", e.Headers),
		checkBody(e.Body),
		checkIP(e.SourceIP),
		checkText("contentType", e.ContentType, 255),
		checkMethod(e.Method),
	)
}

func checkBody(b string) error {
	if len(b) > MaxBodyBytes {
		return table.Invalid("body", "%d bytes, the limit is %d (256 KB)", len(b), MaxBodyBytes)
	}
	if !utf8.ValidString(b) {
		return table.Invalid("body", "not valid UTF-8 (a string attribute)")
	}
	return nil
}

func checkIP(s string) error {
	if s == "" {
		return nil
	}
	if _, err := netip.ParseAddr(s); err != nil {
		return table.Invalid("sourceIp", "%q is not an IP address", s)
	}
	return nil
}

func checkMethod(m string) error {
	if m == "" {
		return nil
	}
	if len(m) > 16 || strings.Trim(m, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return table.Invalid("method", "%q is not an upper-case HTTP method", m)
	}
	return nil
}

func checkMillis(field string, m UnixMillis, required bool) error {
	switch {
	case m == 0 && required:
		return table.Invalid(field, "required")
	case m < 0 || m > 9_999_999_999_999:
		return table.Invalid(field, "out of range")
	}
	return nil
}

func checkExpiry(e *Event) error {
	if e.ExpiresAt <= UnixSeconds(int64(e.ReceivedAt)/1000) {
		return table.Invalid("expiresAt", "must be after receivedAt")
	}
	return nil
}
