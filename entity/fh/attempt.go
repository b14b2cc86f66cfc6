package fh

import (
	"strings"
	"unicode/utf8"

	"github.com/singletable/singletable/table"
)

// Attempt numbers: a delivery is tried at most eight times.
const (
	MinAttempt = 1
	MaxAttempt = 8
)

// MaxResponseBody is how many characters of a response an attempt keeps.
const MaxResponseBody = 1000

// DeliveryAttempt is one try at delivering an event to a connection's
// destination (events table, EVT#{eventId} / ATT#{attemptNumber}).
type DeliveryAttempt struct {
	// EventID is the parent event.
	EventID EventID `dynamo:"eventId"`
	// ConnectionID is the connection that triggered the delivery.
	ConnectionID ConnectionID `dynamo:"connectionId"`
	// AttemptNumber is 1..8.
	AttemptNumber int `dynamo:"attemptNumber"`
	// DestinationURL is the target URL.
	DestinationURL string `dynamo:"destinationUrl"`
	// StatusCode is the HTTP response status, 0 on timeout.
	StatusCode int `dynamo:"statusCode"`
	// ResponseBody is the first [MaxResponseBody] characters of the response.
	ResponseBody string `dynamo:"responseBody"`
	// LatencyMs is the request duration in milliseconds.
	LatencyMs int64 `dynamo:"latencyMs"`
	// Error is the error message if the request failed.
	Error string `dynamo:"error"`
	// AttemptedAt is when the attempt was made (Unix ms).
	AttemptedAt UnixMillis `dynamo:"attemptedAt"`
	// ExpiresAt (Unix seconds) is not in the document: the store sets it
	// to the event's expiresAt so attempts expire with their event.
	ExpiresAt UnixSeconds `dynamo:"expiresAt,omitempty"`
}

// Succeeded reports whether the destination answered 2xx.
func (a *DeliveryAttempt) Succeeded() bool { return a.StatusCode >= 200 && a.StatusCode < 300 }

// Validate checks the rules of a its fields\' types do not hold (its IDs and
// enumerations check themselves on every write: see the Def\'s Required).
func (a *DeliveryAttempt) Validate() error {
	return first(
		checkAttemptNumber(a.AttemptNumber),
		checkURL("destinationUrl", a.DestinationURL),
		checkStatusCode(a.StatusCode),
		checkResponse(a.ResponseBody),
		checkCount("latencyMs", a.LatencyMs),
		checkText("error", a.Error, 4096),
		checkMillis("attemptedAt", a.AttemptedAt, true),
	)
}

func checkAttemptNumber(n int) error {
	if n < MinAttempt || n > MaxAttempt {
		return table.Invalid("attemptNumber", "%d is not 1..8", n)
	}
	return nil
}

func checkStatusCode(c int) error {
	if c != 0 && (c < 100 || c > 599) {
		return table.Invalid("statusCode", "%d is not 0 (timeout) or 100..599", c)
	}
	return nil
}

func checkResponse(s string) error {
	if !utf8.ValidString(s) {
		return table.Invalid("responseBody", "not valid UTF-8")
	}
	if n := utf8.RuneCountInString(s); n > MaxResponseBody {
		return table.Invalid("responseBody", "%d characters, the limit is %d", n, MaxResponseBody)
	}
	return nil
}

// TruncateResponse returns the first [MaxResponseBody] characters of body,
// with invalid UTF-8 replaced, as the document stores it.
func TruncateResponse(body string) string {
	body = strings.ToValidUTF8(body, "\uFFFD")
	r := []rune(body)
	if len(r) > MaxResponseBody {
		r = r[:MaxResponseBody]
	}
	return string(r)
}
