// Package keys is the key grammar of a single-table DynamoDB design: the
// delimiter, DynamoDB's key size limits, reversible escaping, and sortable
// encodings of numbers and times, each with a parser.
//
// # Keys are declared, not built here
//
// In a single table every entity shares the attributes PK and SK, so a key
// is the only thing telling a user from an organization or an event. A
// key's shape is stated once, in its entity's declaration
// (table.Template, such as "USER#{userId}" or "EVT#{receivedAt}#{eventId}"),
// and built and parsed from it (table.Entity.Key, table.Template.Parse);
// this package holds the grammar those templates are made of. The format
// is the plain one used by existing documents, so keys such as ATT#3,
// EVT#1700000000000#evt_abc or GLOBAL#2024-01-31 are read and written byte
// for byte.
//
// # Why the delimiter is rejected
//
// All keys use one [Delimiter], "#". A segment value that contained it would
// make keys ambiguous: under T#{a}#{b} the values ("x#", "y") and ("x", "#y")
// would both give T#x##y, and a user id "42#EVT" could reach into another
// entity's key space. So a template refuses any segment value that is
// empty, not valid UTF-8, or holds a control character or the delimiter,
// and keys longer than DynamoDB's limits ([MaxPKBytes], [MaxSKBytes],
// counted in bytes, not runes). All errors of the package match
// [ErrInvalidKey] with [errors.Is].
//
// Values that may legitimately contain '#', such as free-form tags, go
// through [Escape] first (a template's ":esc" transform); it
// percent-encodes '%', '#' and control characters, is reversed by
// [Unescape], and keeps distinct tuples distinct.
//
// # Sortable encodings
//
// DynamoDB orders sort keys by their UTF-8 bytes, so a number or time in a
// segment sorts correctly only if its encoding preserves order: "10" sorts
// before "9", and RFC 3339 with trimmed fractions sorts "…:00Z" after
// "…:00.5Z". The encodings here have fixed width, so byte order is value
// order, and a strict parser each:
//
//   - [Uint] / [ParseUint]: zero-padded decimal of a chosen width.
//   - [Int] / [ParseInt]: signed, 20 digits in offset binary.
//   - [UnixMilli] / [ParseUnixMilli]: 13-digit milliseconds since the epoch,
//     as in EVT#1700000000000#evt_abc.
//   - [Date] / [ParseDate]: YYYY-MM-DD in UTC.
//   - [Timestamp] / [ParseTimestamp]: UTC with always nine fractional digits.
//
// The encoders return an error for a value out of range, as Go's
// convention has it; [MustUint], [MustUnixMilli], [MustDate] and
// [MustTimestamp] panic instead, for values the program made itself.
//
// # Cost
//
// [Escape] of a value with nothing to escape does not allocate; the
// encoders allocate once (the string they return).
package keys
