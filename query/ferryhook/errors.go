package ferryhook

import (
	"errors"
	"fmt"
	"strings"

	"github.com/singletable/singletable/entity/fh"
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

// ErrAmbiguousEmail: the email, compared case- and form-insensitively,
// names several users and none of them holds it exactly as given (live
// data the running service wrote as typed). The error is an
// [*AmbiguousEmailError] naming the candidates; no user is returned.
var ErrAmbiguousEmail = errors.New("ferryhook: email matches several users, none exactly")

// AmbiguousEmailError is the error of a lookup by email that found several
// users whose addresses differ only in case or Unicode form, none spelled
// as given. It matches [ErrAmbiguousEmail].
type AmbiguousEmailError struct {
	// Email is the address as given.
	Email string
	// Candidates are the users found, in ID order.
	Candidates []fh.UserID
}

// Error implements error.
func (e *AmbiguousEmailError) Error() string {
	ids := make([]string, len(e.Candidates))
	for i, c := range e.Candidates {
		ids[i] = string(c)
	}
	return fmt.Sprintf("%v: %q is held by %s in other spellings", ErrAmbiguousEmail, e.Email, strings.Join(ids, ", "))
}

// Is reports whether target is [ErrAmbiguousEmail].
func (e *AmbiguousEmailError) Is(target error) bool { return target == ErrAmbiguousEmail }

// ErrInvalidLogin: [Users.Login] refused: no user has the email, the
// password does not match, the user has no password, or the email is
// ambiguous (then the error also matches [ErrAmbiguousEmail]).
var ErrInvalidLogin = errors.New("ferryhook: invalid email or password")
