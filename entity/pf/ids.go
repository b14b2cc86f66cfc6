package pf

import (
	"time"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// MaxIDBytes bounds user and organization IDs, so that every key built
// from them stays far below DynamoDB's limits.
const MaxIDBytes = 256

// UserID identifies a user (the document's userId).
type UserID string

// OrgID identifies an organization (the document's organizationId).
type OrgID string

// The ID types, declared once (table.NewIDs): an ID is one key segment
// (non-empty, at most [MaxIDBytes], valid UTF-8, no control character and
// no '#', the key delimiter), checked by the engine on every write and in
// keys, naming the attribute; UserIDs.Check(id) names the field given here.
var (
	UserIDs = table.NewIDs[UserID]("userId", idFormat)
	OrgIDs  = table.NewIDs[OrgID]("organizationId", idFormat)
)

var idFormat = table.IDFormat{Segment: table.Segment{MaxBytes: MaxIDBytes}}

// Date is a calendar day, YYYY-MM-DD, as the document writes dates in
// metrics and billing keys.
type Date string

// ParseDate returns s as a Date if it is exactly YYYY-MM-DD and a real day
// ("2024-1-5" and "2024-02-30" are refused with a *table.ValidationError).
func ParseDate(s string) (Date, error) {
	d := Date(s)
	return d, d.Validate("date")
}

// DateOf returns the day of t in UTC.
func DateOf(t time.Time) Date { return Date(keys.MustDate(t)) }

// Validate checks that d is exactly YYYY-MM-DD and a real day.
func (d Date) Validate(field string) error {
	if _, err := keys.ParseDate(string(d)); err != nil {
		return &table.ValidationError{Field: field, Reason: "not a YYYY-MM-DD date: " + quote(string(d)), Key: true}
	}
	return nil
}

// Time returns midnight UTC of d (the zero time if d is not valid).
func (d Date) Time() time.Time {
	t, _ := keys.ParseDate(string(d))
	return t
}

// AddDays returns the date n days after d (before, for negative n).
func (d Date) AddDays(n int) Date { return DateOf(d.Time().AddDate(0, 0, n)) }

// String returns d as written.
func (d Date) String() string { return string(d) }

func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return `"` + s + `"`
}

// Stamp returns now as the entities store timestamps: UTC, millisecond
// precision, like the document's JavaScript writers (toISOString).
func Stamp(now time.Time) time.Time { return now.UTC().Truncate(time.Millisecond) }

// Stamps are the createdAt and updatedAt the store keeps (Def.Timestamps):
// a create sets both, every other write updatedAt, to the millisecond as
// [Stamp] gives them.
var Stamps = table.Timestamps{Created: "createdAt", Updated: "updatedAt", Precision: time.Millisecond}

// UpdatedStamp is [Stamps] for the entities that keep only updatedAt
// (preferences and settings).
var UpdatedStamp = table.Timestamps{Updated: "updatedAt", Precision: time.Millisecond}

// CreatedStamp is [Stamps] for the entities that keep only createdAt
// (metrics snapshots).
var CreatedStamp = table.Timestamps{Created: "createdAt", Precision: time.Millisecond}
