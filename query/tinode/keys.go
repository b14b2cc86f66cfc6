package tinode

import (
	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// The keys of the store's reads by caller input, with checks beyond the
// key fields' own ([table.Entity.CheckedKey]): in the application's field
// names (a topic's Id is "Topic", a credential's User "Id"), or on fields
// with no check of their own.

func (s *Store) topicKey(name tn.TopicName) (table.Key, error) {
	return s.topic.CheckedKey(tn.Topic{Id: name}, tn.TopicNames.Check(name))
}

func (s *Store) msgKey(topic tn.TopicName, seq int) (table.Key, error) {
	return s.msg.CheckedKey(tn.Message{Topic: topic, SeqId: seq}, tn.CheckSeq("SeqId", seq))
}

func (s *Store) delKey(topic tn.TopicName, delID int) (table.Key, error) {
	return s.del.CheckedKey(tn.DelMessage{Topic: topic, DelId: delID}, tn.CheckSeq("DelId", delID))
}

func (s *Store) credKey(user tn.UserID, method, value string) (table.Key, error) {
	return s.cred.CheckedKey(tn.Credential{User: user, Method: method, Value: value},
		tn.UserIDs.Check(user), tn.CheckKeyValue("Method", method), tn.CheckKeyValue("Value", value))
}
