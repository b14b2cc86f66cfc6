package fh

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
)

// ISOLayout is the layout of JavaScript's Date.prototype.toISOString,
// which the document's service writes: UTC, always three fractional digits.
const ISOLayout = "2006-01-02T15:04:05.000Z"

// ISOTime is an instant stored as an ISO 8601 string (createdAt,
// updatedAt, lastEventAt, lastUsedAt, usagePeriodStart). It is written in
// [ISOLayout] and read from any RFC 3339 timestamp or a YYYY-MM-DD date;
// the zero ISOTime is not written, and NULL reads as zero. A date read
// from a YYYY-MM-DD string is written back as one (DateOnly), so what the
// running service stored (its usagePeriodStart) survives a write.
type ISOTime struct {
	time.Time
	// DateOnly stores the time as a YYYY-MM-DD date (midnight UTC), as
	// the running service writes usagePeriodStart. Set by [ISODate] and
	// by reading a date.
	DateOnly bool
}

// Stamps are the createdAt and updatedAt the store keeps (Def.Timestamps):
// ISO strings to the millisecond, as the service's toISOString writes them.
var Stamps = table.Timestamps{Created: "createdAt", Updated: "updatedAt", Precision: time.Millisecond}

// CreatedStamp is [Stamps] for the entities that keep only createdAt
// (Source, APIKey).
var CreatedStamp = table.Timestamps{Created: "createdAt", Precision: time.Millisecond}

// SetTime sets t to now in [ISOLayout] (a table.TimeField: the store's
// stamps set it).
func (t *ISOTime) SetTime(now time.Time) { *t = ISO(now) }

// ISO returns t, truncated to the millisecond and in UTC, as an ISOTime.
func ISO(t time.Time) ISOTime {
	if t.IsZero() {
		return ISOTime{}
	}
	return ISOTime{Time: t.UTC().Truncate(time.Millisecond)}
}

// ISODate returns t's UTC date (midnight UTC) as an ISOTime stored as
// YYYY-MM-DD (DateOnly).
func ISODate(t time.Time) ISOTime {
	if t.IsZero() {
		return ISOTime{}
	}
	y, m, d := t.UTC().Date()
	return ISOTime{Time: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), DateOnly: true}
}

// String returns t in [ISOLayout] (YYYY-MM-DD when DateOnly), or "" for
// the zero time.
func (t ISOTime) String() string {
	if t.IsZero() {
		return ""
	}
	if t.DateOnly {
		return t.UTC().Format(time.DateOnly)
	}
	return t.UTC().Format(ISOLayout)
}

// MarshalDynamo encodes t as a string in [ISOLayout]; the zero time is
// left out of the item.
func (t ISOTime) MarshalDynamo() (types.AttributeValue, error) {
	if t.IsZero() {
		return nil, nil
	}
	return &types.AttributeValueMemberS{Value: t.String()}, nil
}

// UnmarshalDynamo decodes an ISO 8601 string; NULL gives the zero time.
func (t *ISOTime) UnmarshalDynamo(av types.AttributeValue) error {
	switch v := av.(type) {
	case *types.AttributeValueMemberNULL:
		*t = ISOTime{}
		return nil
	case *types.AttributeValueMemberS:
		p, err := ParseISO(v.Value)
		if err != nil {
			return err
		}
		*t = p
		return nil
	}
	return fmt.Errorf("ferryhook: ISO time: want a string, got %T", av)
}

// ParseISO parses an RFC 3339 timestamp (as toISOString writes it) or a
// YYYY-MM-DD date (DateOnly), to the millisecond, in UTC.
func ParseISO(s string) (ISOTime, error) {
	if s == "" {
		return ISOTime{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return ISO(t), nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return ISOTime{}, fmt.Errorf("ferryhook: %q is not an ISO 8601 timestamp or date", s)
	}
	return ISODate(t), nil
}

// UnixMillis is an instant as milliseconds since the Unix epoch (receivedAt,
// processedAt, deliveredAt, attemptedAt), stored as a number.
type UnixMillis int64

// Millis returns t as UnixMillis.
func Millis(t time.Time) UnixMillis { return UnixMillis(t.UnixMilli()) }

// Time returns m as a time in UTC.
func (m UnixMillis) Time() time.Time { return time.UnixMilli(int64(m)).UTC() }

// UnixSeconds is an instant as seconds since the Unix epoch (expiresAt),
// stored as a number: the unit DynamoDB's TTL reads.
type UnixSeconds int64

// Time returns s as a time in UTC.
func (s UnixSeconds) Time() time.Time { return time.Unix(int64(s), 0).UTC() }

// JSONText is a JSON document stored as a string attribute (filters,
// transform, retryConfig, headers).
type JSONText string

// Valid reports whether j is empty or well-formed JSON.
func (j JSONText) Valid() bool { return j == "" || json.Valid([]byte(j)) }

// JSONOf encodes v as JSONText.
func JSONOf(v any) (JSONText, error) {
	b, err := json.Marshal(v)
	return JSONText(b), err
}
