// Package keys is the key grammar of a single-table DynamoDB design: typed
// partition and sort keys, composite keys built from a literal prefix and
// named segments, reversible escaping, and sortable encodings of numbers and
// times, each with a parser.
//
// # Typed keys
//
// In a single table every entity shares the attributes PK and SK, so a key
// is the only thing telling a user from an organization or an event. Loose
// strings make it easy to query USER#42 with a sort key meant for another
// entity, to pass a sort key as a partition key, or to spell a prefix two
// ways. This package gives keys distinct types, [PK] and [SK] (and any
// ~string type of your own for GSI keys), and builds them only through a
// [Pattern] declared once:
//
//	var (
//		UserPK  = keys.NewPattern[keys.PK]("USER", "userId")                 // USER#{userId}
//		EventSK = keys.NewPattern[keys.SK]("EVT", "receivedAt", "eventId")   // EVT#{receivedAt}#{eventId}
//		Profile = keys.NewPattern[keys.SK]("PROFILE")                        // PROFILE
//	)
//
//	pk, err := UserPK.Build(string(userID))
//	sk, err := EventSK.Build(keys.MustUnixMilli(at), eventID)
//
// Every builder has a parser: [Pattern.Parse] returns the segment values,
// [Pattern.Segment] one of them without allocating, [Pattern.Matches] tells
// whether a key belongs to the pattern. The format is the plain one used by
// existing documents, so keys such as ATT#3, EVT#1700000000000#evt_abc or
// GLOBAL#2024-01-31 are read and written byte for byte.
//
// # Why the delimiter is rejected
//
// All keys use one [Delimiter], "#". A segment value that contained it would
// make keys ambiguous: under T#{a}#{b} the values ("x#", "y") and ("x", "#y")
// would both give T#x##y, and a user id "42#EVT" could reach into another
// entity's key space. So [Pattern.Build] rejects, with a
// *[SegmentError] naming the segment, any value that is empty, not valid
// UTF-8, holds a control character or the delimiter, and keys longer than
// DynamoDB's limits ([MaxPKBytes], [MaxSKBytes], counted in bytes, not
// runes) give a *[LengthError]. All errors of the package match
// [ErrInvalidKey] with [errors.Is].
//
// Values that may legitimately contain '#', such as free-form tags, go
// through [Escape] first; it percent-encodes '%', '#' and control
// characters, is reversed by [Unescape], and keeps distinct tuples distinct.
//
// # Why begins_with ends at a boundary
//
// A Query with SK begins_with "TOPIC#1" also returns TOPIC#10, TOPIC#11 and
// so on. [Pattern.Prefix] therefore always ends with the delimiter:
// Prefix("1") is "TOPIC#1#", which matches exactly the keys whose first
// segment is 1, and Prefix() is "TOPIC#", every key of the pattern.
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
// Building a key allocates once (the key); parsing allocates only the
// returned slice, whose elements share the key's memory; [Pattern.Segment],
// [Pattern.Matches] and [Escape] of a value with nothing to escape do not
// allocate.
package keys
