package ferryhook

import (
	"errors"

	"github.com/singletable/singletable/table"
)

// ErrEmailTaken: another user holds the email address (sign-up or email
// change). It matches [table.ErrUniqueViolation] and
// [table.ErrAlreadyExists].
var ErrEmailTaken error = &matchErr{msg: "ferryhook: email address already taken", is: []error{table.ErrUniqueViolation, table.ErrAlreadyExists}}

// ErrInvalidAPIKey: no API key has this hash, whether it never existed or
// was deleted; both give the same error. It matches [table.ErrNotFound].
var ErrInvalidAPIKey error = &matchErr{msg: "ferryhook: invalid API key", is: []error{table.ErrNotFound}}

// ErrSourcePaused: the source exists but is paused, so it accepts no
// events.
var ErrSourcePaused = errors.New("ferryhook: source is paused")

// matchErr is a sentinel that also matches the table sentinels it refines.
type matchErr struct {
	msg string
	is  []error
}

// Error implements error.
func (e *matchErr) Error() string { return e.msg }

// Is matches the sentinels e refines.
func (e *matchErr) Is(target error) bool {
	for _, t := range e.is {
		if errors.Is(t, target) {
			return true
		}
	}
	return false
}
