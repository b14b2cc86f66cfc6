package tinode

import (
	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// key returns the key fields builds through e's declaration (the typed
// fields through the templates of entity/tn), or the first error of
// checks: the application's checks, in its field names (a topic's Id is
// "Topic", a credential's User "Id"), or on fields with no own check. A
// key whose fields' own checks are the ones to run is e.CheckedKey's.
func key[T any](e *table.Entity[T], fields T, checks ...error) (table.Key, error) {
	for _, err := range checks {
		if err != nil {
			return table.Key{}, err
		}
	}
	k := e.Key(fields)
	return k, k.Err()
}

func (s *Store) topicKey(name tn.TopicName) (table.Key, error) {
	return key(s.topic, tn.Topic{Id: name}, name.Validate("Topic"))
}

func (s *Store) msgKey(topic tn.TopicName, seq int) (table.Key, error) {
	return key(s.msg, tn.Message{Topic: topic, SeqId: seq}, topic.Validate("Topic"), tn.CheckSeq("SeqId", seq))
}

func (s *Store) delKey(topic tn.TopicName, delID int) (table.Key, error) {
	return key(s.del, tn.DelMessage{Topic: topic, DelId: delID}, topic.Validate("Topic"), tn.CheckSeq("DelId", delID))
}

func (s *Store) credKey(user tn.UserID, method, value string) (table.Key, error) {
	return key(s.cred, tn.Credential{User: user, Method: method, Value: value},
		user.Validate("Id"), tn.CheckKeyValue("Method", method), tn.CheckKeyValue("Value", value))
}

func (s *Store) cacheKey(k string) (table.Key, error) {
	var err error
	if k == "" {
		err = table.Invalid("Key", "empty")
	}
	return key(s.cache, tn.CacheEntry{Key: k}, err)
}

func (s *Store) fileKey(id string) (table.Key, error) {
	var err error
	if id == "" {
		err = table.Invalid("Id", "empty")
	}
	return key(s.file, tn.File{Id: id}, err)
}
