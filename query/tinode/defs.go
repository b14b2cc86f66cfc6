package tinode

import (
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// Entity type names (the table's entity-type attribute).
const (
	TypeUser         = "TinodeUser"
	TypeAuth         = "TinodeAuth"
	TypeTopic        = "TinodeTopic"
	TypeSubscription = "TinodeSubscription"
	TypeMessage      = "TinodeMessage"
	TypeDelMessage   = "TinodeDelMessage"
	TypeCredential   = "TinodeCredential"
)

// userDef: a user, whose tags are guarded (or entered) by the store's
// tag rule (Options.SharedTags).
func userDef(tags tn.TagRule) table.Def[tn.User] {
	return table.Def[tn.User]{
		Type: TypeUser,
		Keys: tn.UserKeys,
		// Custom uniques: whether a tag is exclusive or shared follows
		// the store's tag rule, not the item's fields.
		CustomUniques: &table.CustomUniques[tn.User]{From: []string{"Tags"}, Uniques: func(u *tn.User) []table.Unique { return tags.Uniques(u.Tags) }},
		Timestamps:    tn.Stamps,
	}
}

var authDef = table.Def[tn.AuthRecord]{
	Type: TypeAuth,
	// unique is "scheme:value", stored as two escaped key segments.
	Keys: tn.AuthKeys,
	// A user's auth records (TN-6).
	IndexKeys: map[table.Index]table.Template{
		table.GSI1: tn.AuthByUserIndex,
	},
	Required: []string{"userid"},
}

// topicDef: a topic, whose tags share the tag guards (or entries) with
// user tags, by the same rule.
func topicDef(tags tn.TagRule) table.Def[tn.Topic] {
	return table.Def[tn.Topic]{
		Type: TypeTopic,
		Keys: tn.TopicKeys,
		// A group topic is listed under its owner (TN-22); a topic without
		// one (p2p) is not (sparse).
		IndexKeys: map[table.Index]table.Template{
			table.GSI1: tn.TopicOwnerIndex,
		},
		CustomUniques: &table.CustomUniques[tn.Topic]{From: []string{"Tags"}, Uniques: func(t *tn.Topic) []table.Unique { return tags.Uniques(t.Tags) }},
		Timestamps:    tn.Stamps,
	}
}

var subDef = table.Def[tn.Subscription]{
	Type: TypeSubscription,
	Keys: tn.SubscriptionKeys,
	// A user's subscriptions by update time (TN-7, TN-21, TN-23).
	IndexKeys: map[table.Index]table.Template{
		table.GSI1: tn.SubscriptionUpdatedIndex,
		// A channel reader with notifications on (TN-37), sparse: every
		// write recomputes ChanReader (Touch); a soft-deleted one stays
		// and is dropped on read.
		table.GSI2: tn.ChannelReaderIndex,
	},
	Timestamps: tn.Stamps,
	Touch: func(s *tn.Subscription, _ time.Time, _ bool) {
		if s.Id == "" {
			s.Id = tn.SubscriptionID(s.Topic, s.User)
		}
		s.ChanReader = s.IsChannelReader()
	},
	Version: func(s *tn.Subscription) *int64 { return &s.Version },
	// Id is Topic and User joined (SubscriptionID): it follows the key,
	// which never changes.
	Fixed: []string{"Id"},
}

var delDef = table.Def[tn.DelMessage]{
	Type: TypeDelMessage,
	Keys: tn.DelKeys,
}

var credDef = table.Def[tn.Credential]{
	Type: TypeCredential,
	Keys: tn.CredKeys,
	// Unvalidated credentials are listed by age in a sparse GSI2 (TN-30):
	// confirming or deleting one takes it out in the same write.
	IndexKeys: map[table.Index]table.Template{
		table.GSI2: tn.CredUnvalidatedIndex,
	},
	// A validated credential is unique among validated credentials, a
	// custom unique: the guard exists only while Done is set and DeletedAt
	// is not, and its value joins two escaped fields with ':' as Tinode's
	// adapter stores it; no UniqueOn entry states either.
	CustomUniques: &table.CustomUniques[tn.Credential]{
		From: []string{"Method", "Value", "Done", "DeletedAt"},
		Uniques: func(c *tn.Credential) []table.Unique {
			if !c.Done || c.DeletedAt != nil {
				return nil
			}
			return []table.Unique{tn.CredUnique(c.Method, c.Value)}
		},
	},
	Timestamps: tn.Stamps,
}

var msgDef = table.Def[tn.Message]{
	Type:       TypeMessage,
	Keys:       tn.MessageKeys,
	TTL:        table.TTL{From: "ExpireTime"}, // epoch seconds, 0: never
	Timestamps: tn.Stamps,
	Version:    func(m *tn.Message) *int64 { return &m.Version },
}

// Entity type names of what today's Tinode adds beyond tinode.md.
const (
	TypeFile      = "TinodeFile"
	TypeFileLink  = "TinodeFileLink"
	TypeCache     = "TinodeCache"
	TypeDBVersion = "TinodeDBVersion"
)

// fileDef: an upload record (TN-31). A file nothing links to is in the
// sparse GSI2 partition FILEUNUSED by UpdatedAt (TN-33): linking it takes
// it out in the same write that raises UseCount. Every upload puts, moves
// and removes its entry there (4 WCU), so the partition is split in shards
// FILEUNUSED#{n} by a hash of the file's ID (Options.IndexShards; with 1,
// FILEUNUSED itself).
func fileDef(shards int) table.Def[tn.File] {
	return table.Def[tn.File]{
		Type: TypeFile,
		Keys: tn.FileKeys,
		IndexKeys: map[table.Index]table.Template{
			table.GSI2: tn.FileUnusedIndex.WithShards(shards),
		},
		Timestamps: tn.Stamps,
		Version:    func(f *tn.File) *int64 { return &f.Version },
	}
}

// linkDef: a file link, in its owner's partition (TN-32).
var linkDef = table.Def[tn.FileLink]{
	Type:       TypeFileLink,
	Keys:       tn.FileLinkKeys,
	Timestamps: tn.CreatedStamp,
}

// cacheDef: the persistent cache, one partition ordered by key, so that a
// key prefix is a begins_with condition (TN-34, TN-35).
var cacheDef = table.Def[tn.CacheEntry]{
	Type: TypeCache,
	Keys: tn.CacheKeys,
}

// versionDef: the one item recording the data layout's version (TN-36).
var versionDef = table.Def[tn.DBVersion]{
	Type:       TypeDBVersion,
	Keys:       tn.DBVersionKeys,
	Timestamps: tn.Stamps,
}
