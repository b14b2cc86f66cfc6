package tinode

import (
	"time"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// Key patterns of the single table (see the package documentation). Every
// variable segment is escaped with keys.Escape before it is built.
var (
	// UserPK is the user's partition, also GSI1's partition of the user's
	// subscriptions and auth records: USER#{userId}.
	UserPK = keys.NewPattern[keys.PK]("USER", "userId")
	// UserSK is the user item's sort key: USER.
	UserSK = keys.NewPattern[keys.SK]("USER")
	// TopicPK is a topic's partition: TOPIC#{topic}.
	TopicPK = keys.NewPattern[keys.PK]("TOPIC", "topic")
	// TopicSK is the topic item's sort key: TOPIC (sorts above SUB# and MSG#).
	TopicSK = keys.NewPattern[keys.SK]("TOPIC")
	// SubSK is a subscription's sort key in its topic: SUB#{userId}.
	SubSK = keys.NewPattern[keys.SK]("SUB", "userId")
	// MsgSK is a message's sort key: MSG#{seqId, 10 digits}.
	MsgSK = keys.NewPattern[keys.SK]("MSG", "seqId")
	// SubUpdatedSK is a subscription's GSI1 sort key:
	// SUBUPD#{Timestamp(UpdatedAt)}#{topic}.
	SubUpdatedSK = keys.NewPattern[keys.SK]("SUBUPD", "updatedAt", "topic")
	// AuthPK is an auth record's partition: AUTH#{scheme}#{value}.
	AuthPK = keys.NewPattern[keys.PK]("AUTH", "scheme", "value")
	// AuthSK is the auth record's sort key: AUTH.
	AuthSK = keys.NewPattern[keys.SK]("AUTH")
	// AuthByUserSK is an auth record's GSI1 sort key: AUTH#{scheme}#{value}.
	AuthByUserSK = keys.NewPattern[keys.SK]("AUTH", "scheme", "value")
)

// TagUniqueName is the name of the unique value a tag guard holds.
const TagUniqueName = "tag"

// UserKey returns the user item's key: USER#{id} / USER.
func UserKey(id UserID) (table.Key, error) {
	if err := id.Validate("Id"); err != nil {
		return table.Key{}, err
	}
	pk, err := UserPK.Build(keys.Escape(string(id)))
	if err != nil {
		return table.Key{}, err
	}
	return table.Key{PK: string(pk), SK: string(UserSK.MustBuild())}, nil
}

// UserIDFromKey parses the user id back from a user item's key.
func UserIDFromKey(k table.Key) (UserID, error) {
	segs, err := UserPK.Parse(keys.PK(k.PK))
	if err != nil {
		return "", err
	}
	id, err := keys.Unescape(segs[0])
	return UserID(id), err
}

// TopicKey returns the topic item's key: TOPIC#{name} / TOPIC.
func TopicKey(name TopicName) (table.Key, error) {
	pk, err := topicPK(name)
	return table.Key{PK: pk, SK: string(TopicSK.MustBuild())}, err
}

// TopicPartition returns the topic's partition key TOPIC#{name}.
func TopicPartition(name TopicName) (string, error) { return topicPK(name) }

func topicPK(name TopicName) (string, error) {
	if err := name.Validate("Topic"); err != nil {
		return "", err
	}
	pk, err := TopicPK.Build(keys.Escape(string(name)))
	return string(pk), err
}

// SubscriptionKey returns a subscription's key: TOPIC#{topic} / SUB#{user}.
func SubscriptionKey(topic TopicName, user UserID) (table.Key, error) {
	pk, err := topicPK(topic)
	if err != nil {
		return table.Key{}, err
	}
	if err := user.Validate("User"); err != nil {
		return table.Key{}, err
	}
	sk, err := SubSK.Build(keys.Escape(string(user)))
	return table.Key{PK: pk, SK: string(sk)}, err
}

// SubscriptionPrefix is the sort-key prefix of a topic's subscriptions: SUB#.
func SubscriptionPrefix() string { return string(must(SubSK.Prefix())) }

// SubscriptionsUpdatedSince returns the GSI1 sort-key bounds of subscriptions
// updated at or after since (zero: all): SUBUPD#{Timestamp(since)} to
// SUBUPD$ ('$' follows '#', so it bounds every SUBUPD# key).
func SubscriptionsUpdatedSince(since time.Time) (lo, hi string, err error) {
	prefix := string(must(SubUpdatedSK.Prefix()))
	lo = prefix
	if !since.IsZero() {
		ts, err := keys.Timestamp(since)
		if err != nil {
			return "", "", err
		}
		lo = prefix + ts
	}
	return lo, SubUpdatedSK.Literal() + "$", nil
}

// MessageKey returns a message's key: TOPIC#{topic} / MSG#{seq, 10 digits}.
func MessageKey(topic TopicName, seq int) (table.Key, error) {
	pk, err := topicPK(topic)
	if err != nil {
		return table.Key{}, err
	}
	sk, err := MessageSK(seq)
	return table.Key{PK: pk, SK: sk}, err
}

// MessageSK returns the sort key of message seq: MSG#{seq, 10 digits}.
func MessageSK(seq int) (string, error) {
	if seq < 1 || seq > MaxSeqId {
		return "", invalidKey("SeqId", "%d is outside 1..%d", seq, MaxSeqId)
	}
	sk, err := MsgSK.Build(keys.MustUint(uint64(seq), SeqWidth))
	return string(sk), err
}

// AuthKey returns an auth record's key: AUTH#{scheme}#{value} / AUTH.
func AuthKey(u AuthUnique) (table.Key, error) {
	if err := u.Validate("unique"); err != nil {
		return table.Key{}, err
	}
	s, v := u.Split()
	pk, err := AuthPK.Build(keys.Escape(s), keys.Escape(v))
	return table.Key{PK: string(pk), SK: string(AuthSK.MustBuild())}, err
}

// AuthByUser returns an auth record's GSI1 key:
// USER#{userid} / AUTH#{scheme}#{value}.
func AuthByUser(a *AuthRecord) (table.IndexKey, error) {
	pk, err := UserPK.Build(keys.Escape(string(a.UserID)))
	if err != nil {
		return table.IndexKey{}, err
	}
	s, v := a.Unique.Split()
	sk, err := AuthByUserSK.Build(keys.Escape(s), keys.Escape(v))
	return table.IndexKey{PK: string(pk), SK: string(sk)}, err
}

// AuthByUserPrefix returns the GSI1 sort-key prefix of a user's auth
// records: AUTH# for all, AUTH#{scheme}# for one scheme.
func AuthByUserPrefix(scheme string) (string, error) {
	if scheme == "" {
		return string(must(AuthByUserSK.Prefix())), nil
	}
	p, err := AuthByUserSK.Prefix(keys.Escape(scheme))
	return string(p), err
}

// TagUnique returns the unique value a tag's guard holds (the tag, escaped).
func TagUnique(tag string) table.Unique {
	return table.Unique{Name: TagUniqueName, Value: keys.Escape(tag)}
}

// TagFromUnique reverses [TagUnique].
func TagFromUnique(u table.Unique) (string, error) { return keys.Unescape(u.Value) }

func must[K ~string](k K, err error) K {
	if err != nil {
		panic(err)
	}
	return k
}

// SubscriptionsPrefixGSI is the GSI1 sort-key prefix of a user's
// subscriptions: SUBUPD#.
func SubscriptionsPrefixGSI() string { return string(must(SubUpdatedSK.Prefix())) }

// MustSeq returns seq as the 10 digits of a message sort key; it panics
// outside 1..MaxSeqId (use MessageSK for input).
func MustSeq(seq int) string { return keys.MustUint(uint64(seq), SeqWidth) }

// Key patterns of the entities today's Tinode adds to tinode.md's six
// tables.
var (
	// TopicOwnerSK is a group topic's GSI1 sort key under its owner's
	// partition USER#{owner}: OWNS#{topic} (TN-22).
	TopicOwnerSK = keys.NewPattern[keys.SK]("OWNS", "topic")
	// DelSK is a deletion-log entry's sort key in its topic's partition:
	// DEL#{delId, 10 digits} (TN-27, TN-28).
	DelSK = keys.NewPattern[keys.SK]("DEL", "delId")
	// CredSK is a credential's sort key in its user's partition:
	// CRED#{method}#{value} (TN-30).
	CredSK = keys.NewPattern[keys.SK]("CRED", "method", "value")
	// CredUnvalidatedPK is the GSI2 partition of unvalidated credentials:
	// CREDUNV (sparse: a credential leaves it when confirmed or deleted).
	CredUnvalidatedPK = keys.NewPattern[keys.PK]("CREDUNV")
	// CredUnvalidatedSK is an unvalidated credential's GSI2 sort key:
	// CREDUNV#{Timestamp(UpdatedAt)}#{user}#{method}.
	CredUnvalidatedSK = keys.NewPattern[keys.SK]("CREDUNV", "updatedAt", "user", "method")
)

// CredUniqueName is the name of the unique value a validated credential's
// guard holds ("{method}:{value}").
const CredUniqueName = "cred"

// TopicOwnerPrefix is the GSI1 sort-key prefix of the topics a user owns:
// OWNS#.
func TopicOwnerPrefix() string { return string(must(TopicOwnerSK.Prefix())) }

// DelKey returns a deletion-log entry's key: TOPIC#{topic} / DEL#{delId}.
func DelKey(topic TopicName, delID int) (table.Key, error) {
	pk, err := topicPK(topic)
	if err != nil {
		return table.Key{}, err
	}
	sk, err := DelLogSK(delID)
	return table.Key{PK: pk, SK: sk}, err
}

// DelLogSK returns the sort key of deletion delID: DEL#{delId, 10 digits}.
func DelLogSK(delID int) (string, error) {
	if delID < 1 || delID > MaxSeqId {
		return "", invalidKey("DelId", "%d is outside 1..%d", delID, MaxSeqId)
	}
	sk, err := DelSK.Build(keys.MustUint(uint64(delID), SeqWidth))
	return string(sk), err
}

// CredKey returns a credential's key: USER#{user} / CRED#{method}#{value}.
func CredKey(user UserID, method, value string) (table.Key, error) {
	k, err := UserKey(user)
	if err != nil {
		return table.Key{}, err
	}
	if err := checkID("Method", method); err != nil {
		return table.Key{}, err
	}
	if err := checkID("Value", value); err != nil {
		return table.Key{}, err
	}
	sk, err := CredSK.Build(keys.Escape(method), keys.Escape(value))
	return table.Key{PK: k.PK, SK: string(sk)}, err
}

// CredPrefix returns the sort-key prefix of a user's credentials: CRED#
// for all, CRED#{method}# for one method.
func CredPrefix(method string) (string, error) {
	if method == "" {
		return string(must(CredSK.Prefix())), nil
	}
	p, err := CredSK.Prefix(keys.Escape(method))
	return string(p), err
}

// CredUnique returns the unique value a validated credential's guard
// holds: {method}:{value}.
func CredUnique(method, value string) table.Unique {
	return table.Unique{Name: CredUniqueName, Value: keys.Escape(method) + ":" + keys.Escape(value)}
}

// CredUnvalidatedBefore returns the GSI2 sort-key bounds of credentials
// last updated before t: CREDUNV# up to CREDUNV#{Timestamp(t)} (exclusive
// in effect: a timestamp key sorts below its own extensions).
func CredUnvalidatedBefore(t time.Time) (lo, hi string, err error) {
	ts, err := keys.Timestamp(t)
	if err != nil {
		return "", "", err
	}
	p := string(must(CredUnvalidatedSK.Prefix()))
	return p, p + ts, nil
}

// TopicNameFromKey parses the topic name back from a topic item's key,
// and false if k is not a topic item's key.
func TopicNameFromKey(k table.Key) (TopicName, bool) {
	if k.SK != string(TopicSK.MustBuild()) {
		return "", false
	}
	segs, err := TopicPK.Parse(keys.PK(k.PK))
	if err != nil {
		return "", false
	}
	name, err := keys.Unescape(segs[0])
	return TopicName(name), err == nil
}
