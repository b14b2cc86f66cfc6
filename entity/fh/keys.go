package fh

import "github.com/singletable/singletable/table"

// Key templates, byte for byte as the document writes them: the one
// statement of each key's shape. The store's Defs declare them
// (query/ferryhook), and the engine builds, writes and parses every key by
// them from the entities' typed fields (table.Entity.Key,
// table.Entity.Partition).
var (
	// UserKeys: a user's item, in the user's partition (profile, sources,
	// keys).
	UserKeys = table.Template{PK: "USER#{userId}", SK: "PROFILE"}
	// UserEmailIndex: a user in GSI1, by email.
	UserEmailIndex = table.Template{PK: "EMAIL#{email}", SK: "USER"}
	// SourceKeys: a source under its user.
	SourceKeys = table.Template{PK: "USER#{userId}", SK: "SRC#{sourceId}"}
	// SourceIDIndex: a source in GSI3, by its ID.
	SourceIDIndex = table.Template{PK: "SRCID#{sourceId}", SK: "SOURCE"}
	// ConnectionKeys: a connection in its source's partition.
	ConnectionKeys = table.Template{PK: "SRC#{sourceId}", SK: "CONN#{connectionId}"}
	// APIKeyKeys: an API key under its user.
	APIKeyKeys = table.Template{PK: "USER#{userId}", SK: "KEY#{keyId}"}
	// APIKeyHashIndex: an API key in GSI2, by its hash.
	APIKeyHashIndex = table.Template{PK: "KEYHASH#{keyHash}", SK: "KEY"}
	// EventKeys: an event in its source's partition (events table),
	// receivedAt in 13-digit Unix milliseconds so that byte order is time
	// order.
	EventKeys = table.Template{PK: "SRC#{sourceId}", SK: "EVT#{receivedAt:ms}#{eventId}"}
	// EventIDIndex: an event in GSI1, by its ID.
	EventIDIndex = table.Template{PK: "EVTID#{eventId}", SK: "EVENT"}
	// AttemptKeys: a delivery attempt in its event's partition, the
	// number unpadded (1..8).
	AttemptKeys = table.Template{PK: "EVT#{eventId}", SK: "ATT#{attemptNumber}"}
)
