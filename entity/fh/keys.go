package fh

import (
	"strconv"

	"github.com/singletable/singletable/table"
)

// Key templates, byte for byte as the document writes them: the one
// statement of each key's shape. The store's Defs declare them
// (query/ferryhook), the engine writes items by them, and every key helper
// below builds and parses with them ([table.Template.Key],
// [table.Template.Parse]).
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

// UserKey is USER#{userId} / PROFILE.
func UserKey(id UserID) (table.Key, error) {
	return UserKeys.Key(map[string]string{"userId": string(id)})
}

// SourceKey is USER#{userId} / SRC#{sourceId}.
func SourceKey(user UserID, id SourceID) (table.Key, error) {
	return SourceKeys.Key(map[string]string{"userId": string(user), "sourceId": string(id)})
}

// ConnectionKey is SRC#{sourceId} / CONN#{connectionId}.
func ConnectionKey(source SourceID, id ConnectionID) (table.Key, error) {
	return ConnectionKeys.Key(map[string]string{"sourceId": string(source), "connectionId": string(id)})
}

// APIKeyKey is USER#{userId} / KEY#{keyId}.
func APIKeyKey(user UserID, id APIKeyID) (table.Key, error) {
	return APIKeyKeys.Key(map[string]string{"userId": string(user), "keyId": string(id)})
}

// EventKey is SRC#{sourceId} / EVT#{receivedAt}#{eventId}.
func EventKey(source SourceID, receivedAt UnixMillis, id EventID) (table.Key, error) {
	return EventKeys.Key(map[string]string{"sourceId": string(source), "receivedAt": strconv.FormatInt(int64(receivedAt), 10), "eventId": string(id)})
}

// AttemptKey is EVT#{eventId} / ATT#{attemptNumber}.
func AttemptKey(event EventID, n int) (table.Key, error) {
	if n < MinAttempt || n > MaxAttempt {
		return table.Key{}, &table.ValidationError{Field: "attemptNumber", Reason: "must be 1..8", Key: true}
	}
	return AttemptKeys.Key(map[string]string{"eventId": string(event), "attemptNumber": strconv.Itoa(n)})
}

// ParseSourceKey returns the user and source of a source's key.
func ParseSourceKey(k table.Key) (UserID, SourceID, error) {
	v, err := SourceKeys.Parse(k)
	if err != nil {
		return "", "", err
	}
	return UserID(v["userId"]), SourceID(v["sourceId"]), nil
}

// ParseEventKey returns the source, receivedAt and ID of an event's key.
func ParseEventKey(k table.Key) (SourceID, UnixMillis, EventID, error) {
	v, err := EventKeys.Parse(k)
	if err != nil {
		return "", 0, "", err
	}
	ms, err := strconv.ParseInt(v["receivedAt"], 10, 64)
	if err != nil {
		return "", 0, "", err
	}
	return SourceID(v["sourceId"]), UnixMillis(ms), EventID(v["eventId"]), nil
}

// ParseAttemptKey returns the event and attempt number of an attempt's key.
func ParseAttemptKey(k table.Key) (EventID, int, error) {
	v, err := AttemptKeys.Parse(k)
	if err != nil {
		return "", 0, err
	}
	s := v["attemptNumber"]
	n, err := strconv.Atoi(s)
	if err != nil || n < MinAttempt || n > MaxAttempt || strconv.Itoa(n) != s {
		return "", 0, &table.ValidationError{Field: "attemptNumber", Reason: "not 1..8: " + s, Key: true}
	}
	return EventID(v["eventId"]), n, nil
}
