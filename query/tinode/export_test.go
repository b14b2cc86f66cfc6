package tinode

import (
	"context"

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
