package fh_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

func field(err error) string {
	var ve *table.ValidationError
	if errors.As(err, &ve) {
		return ve.Field
	}
	return ""
}

func TestValidate(t *testing.T) {
	t.Parallel()
	okUser := fh.User{UserID: fh.UserIDs.New(), Email: "a@example.com", Name: "A", GoogleID: "g", Plan: fh.PlanFree}
	okEvent := fh.Event{EventID: fh.NewEventID(), SourceID: fh.SourceIDs.New(), UserID: fh.UserIDs.New(), Status: fh.EventReceived,
		ReceivedAt: 1700000000000, ExpiresAt: 1700086400}
	okAttempt := fh.DeliveryAttempt{EventID: fh.NewEventID(), ConnectionID: fh.ConnectionIDs.New(), AttemptNumber: 1,
		DestinationURL: "https://x.example", AttemptedAt: 1700000000000}
	cases := []struct {
		name  string
		err   error
		field string
	}{
		{"ok user", okUser.Validate(), ""},
		{"upper-case email (kept as typed, compared folded)", func() error { u := okUser; u.Email = "A@example.com"; return u.Validate() }(), ""},
		{"email with surrounding space", func() error { u := okUser; u.Email = " a@example.com"; return u.Validate() }(), "email"},
		{"email without domain dot", func() error { u := okUser; u.Email = "a@localhost"; return u.Validate() }(), "email"},
		{"negative usage", func() error { u := okUser; u.UsageThisMonth = -1; return u.Validate() }(), "usageThisMonth"},
		{"long name", func() error { u := okUser; u.Name = strings.Repeat("n", fh.MaxNameLen+1); return u.Validate() }(), "name"},
		{"ok event", okEvent.Validate(), ""},
		{"expiry before receipt", func() error { e := okEvent; e.ExpiresAt = 1; return e.Validate() }(), "expiresAt"},
		{"no receivedAt", func() error { e := okEvent; e.ReceivedAt = 0; return e.Validate() }(), "receivedAt"},
		// The status's type checks itself on every write (the engine's field
		// checks), so Validate holds only the rules its fields' types do not.
		{"unknown event status: not Validate's", func() error { e := okEvent; e.Status = "lost"; return e.Validate() }(), ""},
		{"unknown event status: its type's", fh.EventStatuses.Check("lost"), "status"},
		{"received: ok without the stamps", (&fh.Event{SourceID: okEvent.SourceID, Headers: `{"a":"b"}`, Method: "POST"}).ValidateReceived(), ""},
		{"received: bad headers", func() error { e := okEvent; e.Headers = "{"; return e.ValidateReceived() }(), "headers"},
		{"received: bad method", func() error { e := okEvent; e.Method = "post it"; return e.ValidateReceived() }(), "method"},
		{"received: bad source", func() error { e := okEvent; e.SourceID = "src_"; return e.ValidateReceived() }(), "sourceId"},
		{"received: bad body, also in Validate", func() error { e := okEvent; e.Body = "\xff"; return e.Validate() }(), "body"},
		{"ok attempt", okAttempt.Validate(), ""},
		{"long response", func() error { a := okAttempt; a.ResponseBody = strings.Repeat("r", 1001); return a.Validate() }(), "responseBody"},
		{"attempt 9", func() error { a := okAttempt; a.AttemptNumber = 9; return a.Validate() }(), "attemptNumber"},
		{"bad key hash", (&fh.APIKey{KeyID: fh.APIKeyIDs.New(), UserID: fh.UserIDs.New(), Name: "k", KeyHash: "XYZ", KeyPrefix: "fh_", Permissions: fh.PermissionRead}).Validate(), "keyHash"},
	}
	for _, c := range cases {
		if got := field(c.err); got != c.field || (c.field == "") != (c.err == nil) {
			t.Errorf("%s: err = %v, want field %q", c.name, c.err, c.field)
		}
	}
	if got := fh.TruncateResponse(strings.Repeat("é", 1200) + "\xff"); len([]rune(got)) != fh.MaxResponseBody {
		t.Errorf("TruncateResponse kept %d characters", len([]rune(got)))
	}
}
