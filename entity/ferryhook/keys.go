package ferryhook

import (
	"strconv"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// Key patterns, byte for byte as the document writes them. Each builds
// with Build and parses back with Parse.
var (
	// UserPK is USER#{userId}: a user's partition (profile, sources, keys).
	UserPK = keys.NewPattern[keys.PK]("USER", "userId")
	// ProfileSK is PROFILE, the user item's sort key.
	ProfileSK = keys.NewPattern[keys.SK]("PROFILE")
	// EmailGSI1PK is EMAIL#{email} (GSI1 partition of a user).
	EmailGSI1PK = keys.NewPattern[keys.PK]("EMAIL", "email")
	// UserGSI1SK is USER (GSI1 sort key of a user).
	UserGSI1SK = keys.NewPattern[keys.SK]("USER")
	// SourceSK is SRC#{sourceId}: a source under its user.
	SourceSK = keys.NewPattern[keys.SK]("SRC", "sourceId")
	// SourceIDGSI3PK is SRCID#{sourceId} (GSI3 partition of a source).
	SourceIDGSI3PK = keys.NewPattern[keys.PK]("SRCID", "sourceId")
	// SourceGSI3SK is SOURCE (GSI3 sort key of a source).
	SourceGSI3SK = keys.NewPattern[keys.SK]("SOURCE")
	// SourcePK is SRC#{sourceId}: a source's connections (main table) and
	// events (events table).
	SourcePK = keys.NewPattern[keys.PK]("SRC", "sourceId")
	// ConnectionSK is CONN#{connectionId}.
	ConnectionSK = keys.NewPattern[keys.SK]("CONN", "connectionId")
	// APIKeySK is KEY#{keyId}: an API key under its user.
	APIKeySK = keys.NewPattern[keys.SK]("KEY", "keyId")
	// KeyHashGSI2PK is KEYHASH#{keyHash} (GSI2 partition of an API key).
	KeyHashGSI2PK = keys.NewPattern[keys.PK]("KEYHASH", "keyHash")
	// APIKeyGSI2SK is KEY (GSI2 sort key of an API key).
	APIKeyGSI2SK = keys.NewPattern[keys.SK]("KEY")
	// EventSK is EVT#{receivedAt}#{eventId}, receivedAt in 13-digit Unix
	// milliseconds so that byte order is time order.
	EventSK = keys.NewPattern[keys.SK]("EVT", "receivedAt", "eventId")
	// EventIDGSI1PK is EVTID#{eventId} (GSI1 partition of an event).
	EventIDGSI1PK = keys.NewPattern[keys.PK]("EVTID", "eventId")
	// EventGSI1SK is EVENT (GSI1 sort key of an event).
	EventGSI1SK = keys.NewPattern[keys.SK]("EVENT")
	// EventPK is EVT#{eventId}: an event's delivery attempts.
	EventPK = keys.NewPattern[keys.PK]("EVT", "eventId")
	// AttemptSK is ATT#{attemptNumber}, the number unpadded (1..8).
	AttemptSK = keys.NewPattern[keys.SK]("ATT", "attemptNumber")
)

func key(pk keys.PK, sk keys.SK, err error) (table.Key, error) {
	if err != nil {
		return table.Key{}, err
	}
	return table.Key{PK: string(pk), SK: string(sk)}, nil
}

func build2(pa keys.Pattern[keys.PK], a string, pb keys.Pattern[keys.SK], b ...string) (table.Key, error) {
	pk, err := pa.Build(a)
	if err != nil {
		return table.Key{}, err
	}
	sk, err := pb.Build(b...)
	return key(pk, sk, err)
}

// UserKey is USER#{userId} / PROFILE.
func UserKey(id UserID) (table.Key, error) {
	return build2(UserPK, string(id), ProfileSK)
}

// SourceKey is USER#{userId} / SRC#{sourceId}.
func SourceKey(user UserID, id SourceID) (table.Key, error) {
	return build2(UserPK, string(user), SourceSK, string(id))
}

// ConnectionKey is SRC#{sourceId} / CONN#{connectionId}.
func ConnectionKey(source SourceID, id ConnectionID) (table.Key, error) {
	return build2(SourcePK, string(source), ConnectionSK, string(id))
}

// APIKeyKey is USER#{userId} / KEY#{keyId}.
func APIKeyKey(user UserID, id APIKeyID) (table.Key, error) {
	return build2(UserPK, string(user), APIKeySK, string(id))
}

// EventKey is SRC#{sourceId} / EVT#{receivedAt}#{eventId}.
func EventKey(source SourceID, receivedAt UnixMillis, id EventID) (table.Key, error) {
	ms, err := keys.UnixMilli(receivedAt.Time())
	if err != nil {
		return table.Key{}, err
	}
	return build2(SourcePK, string(source), EventSK, ms, string(id))
}

// AttemptKey is EVT#{eventId} / ATT#{attemptNumber}.
func AttemptKey(event EventID, n int) (table.Key, error) {
	if n < MinAttempt || n > MaxAttempt {
		return table.Key{}, &table.ValidationError{Field: "attemptNumber", Reason: "must be 1..8", Key: true}
	}
	return build2(EventPK, string(event), AttemptSK, strconv.Itoa(n))
}

// ParseSourceKey returns the user and source of a source's key.
func ParseSourceKey(k table.Key) (UserID, SourceID, error) {
	u, err := UserPK.Parse(keys.PK(k.PK))
	if err != nil {
		return "", "", err
	}
	s, err := SourceSK.Parse(keys.SK(k.SK))
	if err != nil {
		return "", "", err
	}
	return UserID(u[0]), SourceID(s[0]), nil
}

// ParseEventKey returns the source, receivedAt and ID of an event's key.
func ParseEventKey(k table.Key) (SourceID, UnixMillis, EventID, error) {
	s, err := SourcePK.Parse(keys.PK(k.PK))
	if err != nil {
		return "", 0, "", err
	}
	v, err := EventSK.Parse(keys.SK(k.SK))
	if err != nil {
		return "", 0, "", err
	}
	at, err := keys.ParseUnixMilli(v[0])
	if err != nil {
		return "", 0, "", err
	}
	return SourceID(s[0]), Millis(at), EventID(v[1]), nil
}

// ParseAttemptKey returns the event and attempt number of an attempt's key.
func ParseAttemptKey(k table.Key) (EventID, int, error) {
	e, err := EventPK.Parse(keys.PK(k.PK))
	if err != nil {
		return "", 0, err
	}
	v, err := AttemptSK.Parse(keys.SK(k.SK))
	if err != nil {
		return "", 0, err
	}
	n, err := strconv.Atoi(v[0])
	if err != nil || n < MinAttempt || n > MaxAttempt || strconv.Itoa(n) != v[0] {
		return "", 0, &table.ValidationError{Field: "attemptNumber", Reason: "not 1..8: " + v[0], Key: true}
	}
	return EventID(e[0]), n, nil
}
