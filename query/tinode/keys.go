package tinode

import (
	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// Keys of the items the store's methods name, built by the entities'
// declarations (the typed fields through the templates of entity/tn),
// after the IDs' own checks, which name the field.

func (s *Store) userKey(id tn.UserID) (table.Key, error) {
	if err := id.Validate("Id"); err != nil {
		return table.Key{}, err
	}
	k := s.user.Key(tn.User{Id: id})
	return k, k.Err()
}

func (s *Store) topicKey(name tn.TopicName) (table.Key, error) {
	if err := name.Validate("Topic"); err != nil {
		return table.Key{}, err
	}
	k := s.topic.Key(tn.Topic{Id: name})
	return k, k.Err()
}

func (s *Store) subKey(topic tn.TopicName, user tn.UserID) (table.Key, error) {
	if err := topic.Validate("Topic"); err != nil {
		return table.Key{}, err
	}
	if err := user.Validate("User"); err != nil {
		return table.Key{}, err
	}
	k := s.sub.Key(tn.Subscription{Topic: topic, User: user})
	return k, k.Err()
}

func (s *Store) msgKey(topic tn.TopicName, seq int) (table.Key, error) {
	if err := topic.Validate("Topic"); err != nil {
		return table.Key{}, err
	}
	if _, err := tn.MessageSK(seq); err != nil {
		return table.Key{}, err
	}
	k := s.msg.Key(tn.Message{Topic: topic, SeqId: seq})
	return k, k.Err()
}

func (s *Store) authKey(u tn.AuthUnique) (table.Key, error) {
	if err := u.Validate("unique"); err != nil {
		return table.Key{}, err
	}
	k := s.auth.Key(tn.AuthRecord{Unique: u})
	return k, k.Err()
}

func (s *Store) delKey(topic tn.TopicName, delID int) (table.Key, error) {
	if err := topic.Validate("Topic"); err != nil {
		return table.Key{}, err
	}
	if _, err := tn.DelLogSK(delID); err != nil {
		return table.Key{}, err
	}
	k := s.del.Key(tn.DelMessage{Topic: topic, DelId: delID})
	return k, k.Err()
}

func (s *Store) credKey(user tn.UserID, method, value string) (table.Key, error) {
	if err := user.Validate("Id"); err != nil {
		return table.Key{}, err
	}
	if err := tn.CheckKeyValue("Method", method); err != nil {
		return table.Key{}, err
	}
	if err := tn.CheckKeyValue("Value", value); err != nil {
		return table.Key{}, err
	}
	k := s.cred.Key(tn.Credential{User: user, Method: method, Value: value})
	return k, k.Err()
}
