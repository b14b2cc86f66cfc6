package keys

// Delimiter separates the literal prefix and the segments of a composite key,
// as in USER#42 or EVT#1700000000000#evt_abc. It is the only delimiter of
// the key grammar and is never allowed inside a segment value.
const Delimiter = "#"

// DynamoDB's size limits for key attribute values, in bytes of UTF-8.
const (
	// MaxPKBytes is the longest partition key DynamoDB accepts.
	MaxPKBytes = 2048
	// MaxSKBytes is the longest sort key DynamoDB accepts.
	MaxSKBytes = 1024
)
