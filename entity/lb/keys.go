package lb

import (
	"time"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// Constant sort keys.
const (
	SKProfile = "PROFILE"
	SKTeam    = "TEAM"
	SKSource  = "SOURCE"
	SKOAuth   = "OAUTH"
	SKJob     = "JOB"
	SKConn    = "CONN"
	SKState   = "STATE"
	SKRToken  = "RTOKEN"
	SKAPIKey  = "APIKEY"
	SKWebhook = "WEBHOOK"
	SKPlan    = "PLAN"
)

// Primary-key patterns (see the mapping table in query/listbackup).
var (
	UserPK         = keys.NewPattern[keys.PK]("USER", "userId")
	AccountPK      = keys.NewPattern[keys.PK]("ACCOUNT", "accountId")
	TeamPK         = keys.NewPattern[keys.PK]("TEAM", "teamId")
	SourcePK       = keys.NewPattern[keys.PK]("SOURCE", "sourceId")
	ActivityPK     = keys.NewPattern[keys.PK]("ACTIVITY", "accountId")
	JobPK          = keys.NewPattern[keys.PK]("JOB", "jobId")
	ConnectionPK   = keys.NewPattern[keys.PK]("CONN", "connectionId")
	OAuthStatePK   = keys.NewPattern[keys.PK]("OAUTHSTATE", "state")
	RefreshTokenPK = keys.NewPattern[keys.PK]("RTOKEN", "hash")
	TagsPK         = keys.NewPattern[keys.PK]("TAGS", "accountId", "resourceType")
	NotificationPK = keys.NewPattern[keys.PK]("NOTIF", "userId")
	APIKeyPK       = keys.NewPattern[keys.PK]("APIKEY", "apiKeyId")
	WebhookPK      = keys.NewPattern[keys.PK]("WEBHOOK", "webhookId")
	PlanPK         = keys.NewPattern[keys.PK]("PLAN", "planId")

	MemberSK   = keys.NewPattern[keys.SK]("MEMBER", "accountId")
	UsageSK    = keys.NewPattern[keys.SK]("USAGE", "metricDate")
	ScheduleSK = keys.NewPattern[keys.SK]("SCHED", "scheduleId")
	RunSK      = keys.NewPattern[keys.SK]("RUN", "startedAt", "syncId")
	EventSK    = keys.NewPattern[keys.SK]("EVT", "createdAt", "eventId")
	NotifSK    = keys.NewPattern[keys.SK]("N", "createdAt", "notificationId")
	TagSK      = keys.NewPattern[keys.SK]("TAG", "tagKey", "tagValue")
)

// TimeKey returns t as a sortable key segment (keys.Timestamp), or a
// *table.ValidationError naming field.
func TimeKey(field string, t time.Time) (string, error) {
	if t.IsZero() {
		return "", &table.ValidationError{Field: field, Reason: "required", Key: true}
	}
	s, err := keys.Timestamp(t)
	if err != nil {
		return "", &table.ValidationError{Field: field, Reason: err.Error(), Key: true}
	}
	return s, nil
}

func build[K ~string](p keys.Pattern[K], vals ...string) (string, error) {
	k, err := p.Build(vals...)
	return string(k), err
}

func key(pk string, err error, sk string) (table.Key, error) {
	if err != nil {
		return table.Key{}, err
	}
	return table.Key{PK: pk, SK: sk}, nil
}

// UserKey is USER#{userId} / PROFILE.
func UserKey(id UserID) (table.Key, error) {
	if err := id.Validate("userId"); err != nil {
		return table.Key{}, err
	}
	pk, err := build(UserPK, string(id))
	return key(pk, err, SKProfile)
}

// MembershipKey is USER#{userId} / MEMBER#{accountId}.
func MembershipKey(u UserID, a AccountID) (table.Key, error) {
	if err := first(u.Validate("userId"), a.Validate("accountId")); err != nil {
		return table.Key{}, err
	}
	pk, err := build(UserPK, string(u))
	sk, err2 := build(MemberSK, string(a))
	return key(pk, first(err, err2), sk)
}

// AccountKey is ACCOUNT#{accountId} / PROFILE.
func AccountKey(id AccountID) (table.Key, error) {
	if err := id.Validate("accountId"); err != nil {
		return table.Key{}, err
	}
	pk, err := build(AccountPK, string(id))
	return key(pk, err, SKProfile)
}

// UsageKey is ACCOUNT#{accountId} / USAGE#{metricDate}.
func UsageKey(a AccountID, d Date) (table.Key, error) {
	if err := first(a.Validate("accountId"), d.Validate("metricDate")); err != nil {
		return table.Key{}, err
	}
	pk, err := build(AccountPK, string(a))
	sk, err2 := build(UsageSK, string(d))
	return key(pk, first(err, err2), sk)
}

// TeamKey is TEAM#{teamId} / TEAM.
func TeamKey(id TeamID) (table.Key, error) {
	if err := id.Validate("teamId"); err != nil {
		return table.Key{}, err
	}
	pk, err := build(TeamPK, string(id))
	return key(pk, err, SKTeam)
}

// SourceKey is SOURCE#{sourceId} / SOURCE.
func SourceKey(id SourceID) (table.Key, error) {
	if err := id.Validate("sourceId"); err != nil {
		return table.Key{}, err
	}
	pk, err := build(SourcePK, string(id))
	return key(pk, err, SKSource)
}

// OAuthTokenKey is SOURCE#{sourceId} / OAUTH.
func OAuthTokenKey(id SourceID) (table.Key, error) {
	k, err := SourceKey(id)
	k.SK = SKOAuth
	return k, err
}

// ScheduleKey is SOURCE#{sourceId} / SCHED#{scheduleId}.
func ScheduleKey(src SourceID, id ScheduleID) (table.Key, error) {
	if err := first(src.Validate("sourceId"), id.Validate("scheduleId")); err != nil {
		return table.Key{}, err
	}
	pk, err := build(SourcePK, string(src))
	sk, err2 := build(ScheduleSK, string(id))
	return key(pk, first(err, err2), sk)
}

// RunKey is SOURCE#{sourceId} / RUN#{startedAt}#{syncId}.
func RunKey(src SourceID, startedAt time.Time, id SyncID) (table.Key, error) {
	ts, err := TimeKey("startedAt", startedAt)
	if err := first(src.Validate("sourceId"), id.Validate("syncId"), err); err != nil {
		return table.Key{}, err
	}
	pk, err := build(SourcePK, string(src))
	sk, err2 := build(RunSK, ts, string(id))
	return key(pk, first(err, err2), sk)
}

// ActivityKey is ACTIVITY#{accountId} / EVT#{createdAt}#{eventId}.
func ActivityKey(a AccountID, createdAt time.Time, id EventID) (table.Key, error) {
	ts, err := TimeKey("createdAt", createdAt)
	if err := first(a.Validate("accountId"), id.Validate("eventId"), err); err != nil {
		return table.Key{}, err
	}
	pk, err := build(ActivityPK, string(a))
	sk, err2 := build(EventSK, ts, string(id))
	return key(pk, first(err, err2), sk)
}

// JobKey is JOB#{jobId} / JOB.
func JobKey(id JobID) (table.Key, error) {
	if err := id.Validate("jobId"); err != nil {
		return table.Key{}, err
	}
	pk, err := build(JobPK, string(id))
	return key(pk, err, SKJob)
}

// ConnectionKey is CONN#{connectionId} / CONN.
func ConnectionKey(id ConnectionID) (table.Key, error) {
	if err := id.Validate("connectionId"); err != nil {
		return table.Key{}, err
	}
	pk, err := build(ConnectionPK, string(id))
	return key(pk, err, SKConn)
}

// OAuthStateKey is OAUTHSTATE#{state} / STATE.
func OAuthStateKey(state string) (table.Key, error) {
	if err := CheckID("state", state); err != nil {
		return table.Key{}, err
	}
	pk, err := build(OAuthStatePK, state)
	return key(pk, err, SKState)
}

// RefreshTokenKey is RTOKEN#{sha256 hex} / RTOKEN.
func RefreshTokenKey(hash string) (table.Key, error) {
	if err := CheckHash("refreshToken", hash); err != nil {
		return table.Key{}, err
	}
	pk, err := build(RefreshTokenPK, hash)
	return key(pk, err, SKRToken)
}

// TagsPartition is TAGS#{accountId}#{resourceType}.
func TagsPartition(a AccountID, rt ResourceType) (string, error) {
	if err := first(a.Validate("accountId"), rt.Check("resourceType")); err != nil {
		return "", err
	}
	return build(TagsPK, string(a), string(rt))
}

// TagKeyOf is TAGS#{accountId}#{resourceType} / TAG#{escaped tagKey}#{escaped tagValue}.
func TagKeyOf(a AccountID, rt ResourceType, tagKey, tagValue string) (table.Key, error) {
	if err := first(CheckTagPart("tagKey", tagKey), CheckTagPart("tagValue", tagValue)); err != nil {
		return table.Key{}, err
	}
	pk, err := TagsPartition(a, rt)
	if err != nil {
		return table.Key{}, err
	}
	sk, err := build(TagSK, keys.Escape(tagKey), keys.Escape(tagValue))
	return key(pk, err, sk)
}

// NotificationKey is NOTIF#{userId} / N#{createdAt}#{notificationId}.
func NotificationKey(u UserID, createdAt time.Time, id NotificationID) (table.Key, error) {
	ts, err := TimeKey("createdAt", createdAt)
	if err := first(u.Validate("userId"), id.Validate("notificationId"), err); err != nil {
		return table.Key{}, err
	}
	pk, err := build(NotificationPK, string(u))
	sk, err2 := build(NotifSK, ts, string(id))
	return key(pk, first(err, err2), sk)
}

// APIKeyKey is APIKEY#{apiKeyId} / APIKEY.
func APIKeyKey(id APIKeyID) (table.Key, error) {
	if err := id.Validate("apiKeyId"); err != nil {
		return table.Key{}, err
	}
	pk, err := build(APIKeyPK, string(id))
	return key(pk, err, SKAPIKey)
}

// WebhookKey is WEBHOOK#{webhookId} / WEBHOOK.
func WebhookKey(id WebhookID) (table.Key, error) {
	if err := id.Validate("webhookId"); err != nil {
		return table.Key{}, err
	}
	pk, err := build(WebhookPK, string(id))
	return key(pk, err, SKWebhook)
}

// PlanKey is PLAN#{planId} / PLAN.
func PlanKey(id PlanID) (table.Key, error) {
	if err := id.Validate("planId"); err != nil {
		return table.Key{}, err
	}
	pk, err := build(PlanPK, string(id))
	return key(pk, err, SKPlan)
}

// ParseUserKey returns the userId of a user or membership key.
func ParseUserKey(k table.Key) (UserID, error) {
	v, err := UserPK.Parse(keys.PK(k.PK))
	if err != nil {
		return "", err
	}
	return UserID(v[0]), nil
}

// ParseAccountKey returns the accountId of an account or usage key.
func ParseAccountKey(k table.Key) (AccountID, error) {
	v, err := AccountPK.Parse(keys.PK(k.PK))
	if err != nil {
		return "", err
	}
	return AccountID(v[0]), nil
}

// ParseSourceKey returns the sourceId of a source-partition key (source,
// OAuth tokens, schedules, runs).
func ParseSourceKey(k table.Key) (SourceID, error) {
	v, err := SourcePK.Parse(keys.PK(k.PK))
	if err != nil {
		return "", err
	}
	return SourceID(v[0]), nil
}

// ParseTagKey returns the parts of a tag's key.
func ParseTagKey(k table.Key) (AccountID, ResourceType, string, string, error) {
	p, err := TagsPK.Parse(keys.PK(k.PK))
	if err != nil {
		return "", "", "", "", err
	}
	s, err := TagSK.Parse(keys.SK(k.SK))
	if err != nil {
		return "", "", "", "", err
	}
	tk, err := keys.Unescape(s[0])
	if err != nil {
		return "", "", "", "", err
	}
	tv, err := keys.Unescape(s[1])
	return AccountID(p[0]), ResourceType(p[1]), tk, tv, err
}

// ParseActivityKey returns the parts of an activity's key.
func ParseActivityKey(k table.Key) (AccountID, time.Time, EventID, error) {
	p, err := ActivityPK.Parse(keys.PK(k.PK))
	if err != nil {
		return "", time.Time{}, "", err
	}
	s, err := EventSK.Parse(keys.SK(k.SK))
	if err != nil {
		return "", time.Time{}, "", err
	}
	t, err := keys.ParseTimestamp(s[0])
	return AccountID(p[0]), t, EventID(s[1]), err
}
