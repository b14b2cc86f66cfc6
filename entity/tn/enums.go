package tn

import (
	"fmt"

	"github.com/singletable/singletable/table"
)

// AuthLevel is the authentication level of an auth record, stored as
// Tinode's number (authLvl).
type AuthLevel int

// Tinode's authentication levels.
const (
	LevelNone AuthLevel = 0
	LevelAnon AuthLevel = 10
	LevelAuth AuthLevel = 20
	LevelRoot AuthLevel = 30
)

// Valid reports whether l is one of the defined levels.
func (l AuthLevel) Valid() bool {
	switch l {
	case LevelNone, LevelAnon, LevelAuth, LevelRoot:
		return true
	}
	return false
}

// String returns "", "anon", "auth" or "root" as Tinode writes them.
func (l AuthLevel) String() string {
	switch l {
	case LevelNone:
		return ""
	case LevelAnon:
		return "anon"
	case LevelAuth:
		return "auth"
	case LevelRoot:
		return "root"
	}
	return fmt.Sprintf("AuthLevel(%d)", int(l))
}

// ObjState is the state of a user, topic or subscription, stored as
// Tinode's number.
type ObjState int

// Tinode's object states.
const (
	StateOK        ObjState = 0
	StateSuspended ObjState = 10
	StateDeleted   ObjState = 20
	StateUndefined ObjState = 30
)

// Valid reports whether s is one of the defined states.
func (s ObjState) Valid() bool {
	switch s {
	case StateOK, StateSuspended, StateDeleted, StateUndefined:
		return true
	}
	return false
}

// String returns "ok", "susp", "del" or "undef" as Tinode writes them.
func (s ObjState) String() string {
	switch s {
	case StateOK:
		return "ok"
	case StateSuspended:
		return "susp"
	case StateDeleted:
		return "del"
	case StateUndefined:
		return "undef"
	}
	return fmt.Sprintf("ObjState(%d)", int(s))
}

// Platform is a push device's platform.
type Platform string

// The platforms push notifications are sent to.
const (
	PlatformIOS     Platform = "ios"
	PlatformAndroid Platform = "android"
	PlatformWeb     Platform = "web"
)

// Platforms are the platforms push notifications are sent to.
var Platforms = table.NewEnum("platform", PlatformIOS, PlatformAndroid, PlatformWeb)

// invalid returns a *table.ValidationError for a non-key field.
func invalid(field, format string, args ...any) error {
	return table.Invalid(field, format, args...)
}
