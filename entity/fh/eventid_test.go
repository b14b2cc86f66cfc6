package fh_test

import (
	"testing"
	"time"

	"github.com/singletable/singletable/entity/fh"
)

// A located event ID (issue 22: event by ID in one GetItem) gives back the
// source, receivedAt and bucket it was minted with, validates as an event
// ID, and never mixes with the document's evt_ + nanoid(16).
func TestLocatedEventIDRoundTrip_FH8(t *testing.T) {
	t.Parallel()
	src := fh.SourceIDs.New()
	at := fh.Millis(time.Date(2026, 11, 25, 21, 0, 0, 123e6, time.UTC))
	for _, bucket := range []int{0, 1, 7, fh.MaxEventBucket} {
		id := fh.NewLocatedEventID(src, at, bucket)
		if len(id) != fh.LocatedEventIDLen || id.Validate() != nil {
			t.Fatalf("%q: length %d, validate %v", id, len(id), id.Validate())
		}
		gs, ga, gb, ok := id.Location()
		if !ok || gs != src || ga != at || gb != bucket {
			t.Errorf("%q: Location() = %s %d %d %v, want %s %d %d", id, gs, ga, gb, ok, src, at, bucket)
		}
		if _, err := fh.ParseEventID(string(id)); err != nil {
			t.Errorf("ParseEventID(%q): %v", id, err)
		}
	}
	if a, b := fh.NewLocatedEventID(src, at, 0), fh.NewLocatedEventID(src, at, 0); a == b {
		t.Errorf("two IDs of one source and millisecond are equal: %s", a)
	}
	doc := fh.NewEventID()
	if _, _, _, ok := doc.Location(); ok || doc.Validate() != nil {
		t.Errorf("the document's ID %q: located %v, validate %v", doc, ok, doc.Validate())
	}
	// Out of range: the document's format instead.
	for _, id := range []fh.EventID{fh.NewLocatedEventID("src_bad", at, 0), fh.NewLocatedEventID(src, at, fh.MaxEventBucket+1), fh.NewLocatedEventID(src, -1, 0)} {
		if len(id) != 20 || id.Validate() != nil {
			t.Errorf("%q: want a document-format ID", id)
		}
	}
	// A 46-character ID that is not located (a character outside the
	// alphabet) is refused.
	bad := []byte(fh.NewLocatedEventID(src, at, 0))
	bad[20] = '#'
	if err := fh.EventID(bad).Validate(); err == nil {
		t.Errorf("%q validates", bad)
	}
}
