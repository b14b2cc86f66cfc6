package tinode

// TopicSaveAttrs and TopicDeleteAttrs are the attributes Messages.Save
// and Messages.DeleteList read of a topic.
var (
	TopicSaveAttrs   = topicSaveFields.Attrs()
	TopicDeleteAttrs = topicDeleteFields.Attrs()
)
