package codec

import (
	"crypto/rand"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/singletable/singletable/keys"
)

// Segment is the rule for a value that becomes one segment of a key (an
// ID, a topic name, a credential's value), declared once per kind of
// value an application keys by: not empty, at most MaxBytes bytes, valid
// UTF-8, no control character, and no key delimiter '#' unless Escaped.
// An application bounds its IDs tighter than DynamoDB's key limits so
// that every key built from them stays below those limits; an ID type
// declares it as its format ([IDFormat]):
//
//	var UserIDs = table.NewIDs[UserID]("userId", table.IDFormat{Segment: table.Segment{MaxBytes: 128}})
//
// A Segment is a value, safe for concurrent use.
type Segment struct {
	// MaxBytes bounds the value's length in bytes (0: [keys.MaxSKBytes]).
	MaxBytes int
	// Escaped accepts the delimiter: the value is escaped ([keys.Escape],
	// a template's ":esc") before it becomes a segment.
	Escaped bool
}

// Check returns nil if v can be the segment, else a *[ValidationError]
// naming field, with Key set and [Segment.Reason] as its reason.
func (s Segment) Check(field, v string) error {
	if r := s.Reason(v); r != "" {
		return &ValidationError{Field: field, Reason: r, Key: true}
	}
	return nil
}

// Reason says why v cannot be the segment: "empty", "longer than N
// bytes", "not valid UTF-8", "contains the key delimiter '#'" or
// "contains a control character"; "" if it can.
func (s Segment) Reason(v string) string {
	max := s.MaxBytes
	if max == 0 {
		max = keys.MaxSKBytes
	}
	switch {
	case v == "":
		return "empty"
	case len(v) > max:
		return fmt.Sprintf("longer than %d bytes", max)
	case !utf8.ValidString(v):
		return "not valid UTF-8"
	case !s.Escaped && strings.Contains(v, keys.Delimiter):
		return "contains the key delimiter '#'"
	case strings.IndexFunc(v, unicode.IsControl) >= 0:
		return "contains a control character"
	}
	return ""
}

// NanoidAlphabet is nanoid's URL alphabet, A-Za-z0-9_- (64 characters):
// the alphabet of an [IDFormat] that names none.
const NanoidAlphabet = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"

var inNanoid = func() (t [256]bool) {
	for i := range len(NanoidAlphabet) {
		t[NanoidAlphabet[i]] = true
	}
	return t
}()

// IDFormat is how the values of one kind of ID look. With Random set, an
// ID is Prefix followed by Random characters of Alphabet ("usr_" and 16
// characters of nanoid's alphabet), which [IDFormat.New] draws from
// crypto/rand; without, an ID is any value that can be one key segment
// under Segment's bounds (IDs minted elsewhere, such as UUIDs). An
// IDFormat is a value, safe for concurrent use.
type IDFormat struct {
	// Segment bounds an ID that has no random part (Random 0).
	Segment Segment
	// Prefix starts every ID (with Random only).
	Prefix string
	// Random is the number of random characters after Prefix.
	Random int
	// Alphabet holds the characters of the random part, at most 256
	// distinct bytes ("": [NanoidAlphabet]).
	Alphabet string
}

// New returns a fresh ID: Prefix and Random characters of the alphabet
// drawn uniformly from crypto/rand. It panics for a format with no
// random part (its IDs are minted elsewhere).
func (f IDFormat) New() string {
	if f.Random <= 0 {
		panic(fmt.Sprintf("table: IDFormat.New: %+v has no random part", f))
	}
	a := f.Alphabet
	if a == "" {
		a = NanoidAlphabet
	}
	b := make([]byte, len(f.Prefix)+f.Random)
	n := copy(b, f.Prefix)
	// The largest multiple of len(a) that a byte holds: a byte above it
	// is drawn again, so that no character is more likely than another
	// (none is refused for a power of two such as 64). The random bytes
	// are read where the characters go: each is replaced at or before
	// its own place.
	limit := 256 - 256%len(a)
	for n < len(b) {
		_, _ = rand.Read(b[n:]) // never fails (crypto/rand)
		for _, r := range b[n:] {
			if int(r) < limit {
				b[n] = a[int(r)%len(a)]
				n++
			}
		}
	}
	return string(b)
}

// Check returns nil if v is an ID of the format, else a
// *[ValidationError] naming field: "%q is not PREFIX followed by N
// characters", "%q holds 'c', outside A-Za-z0-9_-", or a [Segment]'s
// reason (with Key set) for a format with no random part.
func (f IDFormat) Check(field, v string) error {
	if f.Random <= 0 {
		return f.Segment.Check(field, v)
	}
	if len(v) != len(f.Prefix)+f.Random || !strings.HasPrefix(v, f.Prefix) {
		return &ValidationError{Field: field, Reason: fmt.Sprintf("%q is not %s followed by %d characters", v, f.Prefix, f.Random)}
	}
	for i := len(f.Prefix); i < len(v); i++ {
		if f.Alphabet == "" && !inNanoid[v[i]] || f.Alphabet != "" && strings.IndexByte(f.Alphabet, v[i]) < 0 {
			return &ValidationError{Field: field, Reason: fmt.Sprintf("%q holds %q, outside %s", v, v[i], f.alphabetName())}
		}
	}
	return nil
}

// alphabetName names the alphabet in errors.
func (f IDFormat) alphabetName() string {
	if f.Alphabet == "" || f.Alphabet == NanoidAlphabet {
		return "A-Za-z0-9_-"
	}
	return "the alphabet " + strconv.Quote(f.Alphabet)
}

// IDs is one kind of typed ID, declared once: its string type, its format
// and the field its errors name. It gives what each ID type needs (a
// check, a parse, a fresh ID) so that an entity package declares
//
//	type UserID string
//	var UserIDs = table.NewIDs[UserID]("userId", table.IDFormat{Prefix: "usr_", Random: 16})
//
// and writes nothing else for it: the engine knows the format of every
// field of type UserID. A value outside it is refused where a value is
// written or asked for: a write that sets such a field (the item's field
// checks, named by the attribute), a patch, a key field of a declared
// read or of table.Entity.CheckedKey. An IDs is immutable and safe for
// concurrent use.
type IDs[T ~string] struct {
	field  string
	format IDFormat
}

// NewIDs declares the IDs of type T: their format f, and field, the name
// their errors give when no attribute names them. A type has one format:
// NewIDs of another format for T panics, as does a Prefix without Random
// or an alphabet longer than 256 bytes.
func NewIDs[T ~string](field string, f IDFormat) IDs[T] {
	if f.Prefix != "" && f.Random <= 0 || len(f.Alphabet) > 256 {
		panic(fmt.Sprintf("table: NewIDs[%v]: bad format %+v (a Prefix needs Random; at most 256 characters)", reflect.TypeFor[T](), f))
	}
	desc := fmt.Sprintf("%+v", f)
	prev, loaded := ids.LoadOrStore(reflect.TypeFor[T](), idEntry{desc, f.Check})
	if loaded && prev.(idEntry).format != desc {
		panic(fmt.Sprintf("table: NewIDs for %v declared twice, with formats %s and %s", reflect.TypeFor[T](), prev.(idEntry).format, desc))
	}
	return IDs[T]{field: field, format: f}
}

// ids are the ID types declared with NewIDs, by type.
var ids sync.Map // reflect.Type -> idEntry

type idEntry struct {
	format string
	check  func(field, v string) error
}

// IDCheck returns the check of t's declared IDs, or nil when t has none.
func IDCheck(t reflect.Type) func(field, v string) error {
	if e, ok := ids.Load(t); ok {
		return e.(idEntry).check
	}
	return nil
}

// DeclaredCheck returns the check a type declared with table.NewEnum or
// table.NewIDs gives its values (called with the field's name), or nil.
func DeclaredCheck(t reflect.Type) func(field, v string) error {
	if check := EnumCheck(t); check != nil {
		return check
	}
	return IDCheck(t)
}

// Field returns the field its errors name ([IDs.Check]).
func (x IDs[T]) Field() string { return x.field }

// Format returns the IDs' format.
func (x IDs[T]) Format() IDFormat { return x.format }

// New returns a fresh random ID ([IDFormat.New]; it panics for a format
// with no random part).
func (x IDs[T]) New() T { return T(x.format.New()) }

// Parse returns s as a T if it is an ID of the format, else a
// *[ValidationError] naming the field.
func (x IDs[T]) Parse(s string) (T, error) { return T(s), x.format.Check(x.field, s) }

// Valid reports whether v is an ID of the format.
func (x IDs[T]) Valid(v T) bool { return x.format.Check(x.field, string(v)) == nil }

// Check returns nil if v is an ID of the format, else a
// *[ValidationError] naming the field.
func (x IDs[T]) Check(v T) error { return x.format.Check(x.field, string(v)) }

// CheckField is Check naming field instead (an ID under another name: a
// topic's owner, a parent account).
func (x IDs[T]) CheckField(field string, v T) error { return x.format.Check(field, string(v)) }
