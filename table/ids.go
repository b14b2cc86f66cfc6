package table

import "github.com/singletable/singletable/internal/codec"

// Segment is the rule for a value that becomes one segment of a key: not
// empty, at most MaxBytes bytes, valid UTF-8, no control character, and
// no key delimiter '#' unless Escaped (see [codec.Segment]).
type Segment = codec.Segment

// IDFormat is how the values of one kind of ID look: Prefix and Random
// characters of an alphabet, or one key segment (see [codec.IDFormat]).
type IDFormat = codec.IDFormat

// IDs is one kind of typed ID, declared once with [NewIDs]: the engine
// checks every field of its type on writes and in keys, as it does an
// enumeration's ([NewEnum]); New, Parse and Check serve the callers.
type IDs[T ~string] = codec.IDs[T]

// NewIDs declares the IDs of type T: their format f and the field their
// errors name. A type has one format: NewIDs of another for T panics.
func NewIDs[T ~string](field string, f IDFormat) IDs[T] { return codec.NewIDs[T](field, f) }
