package tinode

import (
	"context"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// TopicSaveAttrs and TopicDeleteAttrs are the attributes Messages.Save
// and Messages.DeleteList read of a topic.
var (
	TopicSaveAttrs   = topicSaveFields.Attrs()
	TopicDeleteAttrs = topicDeleteFields.Attrs()
)

// PeekTopicForSave and PeekTopicForDelete are the reads of a topic
// Messages.Save and Messages.DeleteList send.
func PeekTopicForSave(ctx context.Context, s *Store, k table.Key) error {
	_, err := s.topic.Peek(ctx, k, topicSaveFields)
	return err
}

func PeekTopicForDelete(ctx context.Context, s *Store, k table.Key) error {
	_, err := s.topic.Peek(ctx, k, topicDeleteFields)
	return err
}

// UserKey, TopicKey and CredKey are the keys the store builds through its
// entities' declarations.
func UserKey(s *Store, id tn.UserID) (table.Key, error) { return s.user.CheckedKey(tn.User{Id: id}) }

func TopicKey(s *Store, name tn.TopicName) (table.Key, error) { return s.topicKey(name) }

func CredKey(s *Store, user tn.UserID, method, value string) (table.Key, error) {
	return s.credKey(user, method, value)
}

// MessageKey is the key of message seq the store builds.
func MessageKey(s *Store, topic tn.TopicName, seq int) (table.Key, error) {
	return s.msgKey(topic, seq)
}
