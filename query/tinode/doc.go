// Package tinode serves the storage of the Tinode chat server (users,
// auth records, unique tags, topics, subscriptions, messages, push
// devices, tag search, and what today's Tinode adds: the deletion log and
// credentials) from ONE DynamoDB table, replacing TinodeUsers,
// TinodeAuth, TinodeTagUnique, TinodeTopics, TinodeSubscriptions and
// TinodeMessages (and today's dellog and credentials tables). Entities are
// in package entity/tn.
//
// # Mapping
//
// Generic schema (table.NewSchema): PK, SK, GSI1PK/GSI1SK, GSI2PK/GSI2SK
// (GSI3..5 unused). {x} segments are keys.Escape'd; SeqIds and DelIds are
// 10 zero-padded digits.
//
// The keys are declared once, in package entity/tn (tn.UserKeys, ...), and
// the access patterns in this package. docs/patterns/tinode.md is
// generated from those declarations
// (`go run ./cmd/singletable doc -app tinode`; TestAccessPatternDocs fails
// when it is out of date): every entity's keys, indexes and sparse-index
// conditions, and every pattern's catalog IDs, requests, units and hottest
// key. This doc does not repeat them.
//
// Nor do the docs of the stores' declared fields (Users.ByID,
// Topics.ChangeOwner, ...): a field's requests, units and hottest key are
// its row in docs/patterns/tinode.md, generated from its declaration, and
// its errors are its form's ([table.Pattern.Get], [table.Pattern.List],
// [table.Create], [table.Update], [table.UpdateWith], [table.PatchWith],
// [table.Delete]) unless its doc names more.
//
// In a topic partition DEL# < MSG# < SUB# < TOPIC, so [Topics.Load] reads
// the topic, all its subscriptions and its newest messages with ONE
// descending Query (SK from MSG# to TOPIC, the deletion log below left
// out) and decodes them with table.Collect. (SK TOPIC rather than META:
// META sorts below MSG# and a newest-first query would reach it last.)
//
// # Access patterns
//
//   - TN-1 Users.ByID.Get (declared), [Users.GetMany] (BatchGetItem)
//   - TN-2 [Users.Create]: user + tag guards in one transaction
//   - TN-3 [Users.AddTags], [Users.RemoveTags], [Users.ResetTags], [Users.Update]
//   - TN-4 [Users.LookupTag], [Users.FindByTag]; TN-5 [Users.Tags]
//   - TN-6 [Auth.Add], Auth.ByUnique.Get (declared), [Auth.Update], [Auth.Delete]
//   - TN-7 Auth.ByUser.List and .All (declared), [Auth.GetByScheme], [Auth.DeleteAllByUser]
//   - TN-8 [Topics.Create], Topics.ByName.Get (declared), [Topics.Update], [Topics.Load]
//   - TN-9 Subscriptions.ByTopicUser.Get (declared); TN-10 Subscriptions.ByUser.List and .All (declared)
//   - TN-11 Subscriptions.ByTopic.List and .All (declared)
//   - TN-12 [Messages.Save]: read SeqId n, then one transaction (topic
//     SeqId n -> n+1 on condition SeqId = n, create MSG#{n+1}); retried with
//     jittered backoff, so concurrent senders get 1..N with no gap
//   - TN-13 [Messages.History] (table.Every for all pages)
//   - TN-14 [Messages.DeleteForUser] (DeletedFor), [Messages.DeleteForAll] (DeletedAt)
//   - TN-15 expiry: ExpireTime feeds the table's TTL attribute (Def.Expires);
//     Get, History and Load never return an expired message
//   - TN-16 [Users.UpsertDevice], [Users.DeleteDevice]; TN-20 [Users.Devices]
//   - TN-17 [Users.SoftDelete], [Users.Delete]; TN-18 [Topics.SoftDelete], [Topics.Delete]
//   - TN-19 [Users.FindByTags], [Topics.FindByTags]: BatchGet of tag
//     guards, then of users or topics
//   - TN-21 [Subscriptions.UnreadCount]: per page of subscriptions one
//     BatchGetItem of their topics
//   - TN-22 Topics.Owned.List and .All (declared): GSI1 USER#{owner} / OWNS#
//   - TN-23 [Subscriptions.TopicsOfUser], [Subscriptions.UsersOfTopic]:
//     a page and one BatchGetItem, 2 requests per page
//   - TN-24 Topic.SubCnt, kept in the transaction of every subscribe
//     ([Subscriptions.Create], [Subscriptions.Share], [Topics.Create],
//     [Topics.CreateP2P]) and unsubscribe ([Subscriptions.SoftDelete],
//     [Subscriptions.Delete])
//   - TN-25 [Subscriptions.Share]; TN-26 [Topics.CreateP2P]
//   - TN-27 [Messages.DeleteList], [Messages.FinishDeletes]; TN-28
//     [Messages.Deletions]
//   - TN-29 [Auth.DeleteScheme], [Auth.Update]
//   - TN-30 [Credentials]: Upsert, GetActive, List, Confirm, Fail, Delete,
//     UserByCred, Unvalidated
//   - TN-31 [Files.Start], [Files.Finish], Files.ByID.Get (declared); TN-32 [Files.Link],
//     [Files.Links], [Files.Unlink]; TN-33 [Files.DeleteUnused]
//   - TN-34 [Cache.ByKey], [Cache.Upsert], [Cache.Delete]; TN-35 [Cache.Expire]
//   - TN-36 [Meta.Init], [Meta.Version], [Meta.Upgrade]
//   - TN-37 [Subscriptions.Channels]; TN-38 [Topics.ChangeOwner]
//   - TN-39 every write heard as a typed change of its entity, from the
//     table's stream (declare one: tinode.md has none, so the schema adds
//     table.WithStream(types.StreamViewTypeNewAndOldImages)): route
//     feed.NewRouter(s.Table()) with feed.HandleType per Go type. Each of
//     the eleven entities is bound to one Go type (a message in any
//     partition of a sharded topic is a tn.Message; the topic item, which
//     carries the messages' layout, a tn.Topic), and the tag and
//     credential guards reach the router's Library handler, never an
//     entity's (TestEveryWriteHeard_TN39)
//
// # Declared access patterns
//
// A pattern that is one read of one entity is a declaration, not a
// method: an exported field of its aggregate holding a [table.Pattern]
// (Users.ByID, Auth.ByUnique, Auth.ByUser, Topics.ByName, Topics.Owned,
// Subscriptions.ByTopicUser, Files.ByID), declared once with its catalog
// ID, index and input checks. Its reads take the entity's type with the
// fields the key needs set, and build the key through the entity's
// templates:
//
//	u, err := s.Users.ByID.Get(ctx, tn.User{Id: id})
//	sub, err := s.Subs.ByTopicUser.Get(ctx, tn.Subscription{Topic: topic, User: user})
//	for t, err := range s.Topics.Owned.All(ctx, tn.Topic{Owner: user}) { ... }
//
// Each read is one call of its catalog ID for table.Options.Tracer, named
// after its place ("tinode.Users.ByID.Get"), and a missing or bad field is
// a *table.ValidationError naming it, before any request. The methods that
// remain do more than one request or carry a rule of the application
// (tags, subscription filters, message layouts, deletions); they compose
// the same entities and keys.
//
// # Tags
//
// By default (tinode.md) every tag, of a user or of a topic, has one
// holder in the whole table: its guard UNIQUE#tag#{tag} is written in the
// holder's transaction. Today's Tinode only needs one tag per (holder,
// tag) and global uniqueness for some namespaces such as "alias:": set
// Options.SharedTags and Options.UniqueTagNamespaces, and the other tags
// become lookup entries (table.Unique.Shared), one per holder, kept in
// the same transactions and found with one Query per tag.
//
// # Large channels: the sharded messages profile
//
// One topic's messages all in TOPIC#{name} take at most 1,000 write units
// per second (about 500 messages per second, each written in a
// transaction). Options.MessageShards = N selects the sharded profile
// (issue 22): topics created by the store put message seq in
// TOPIC#{name}#{seq mod N} and record their layout on the topic item
// (MsgLayout); [Messages.Reshard] and [ReshardJob] switch a live topic,
// new messages going to the new layout at once and old ones staying where
// they are. Measured (TestScale_TN12_OneTopic, 1,000 Save/s from 100
// senders, N = 4): 500 WCU/s on the hottest message partition and 40 WCU/s
// + 20 RCU/s on the topic item, against 2,040 WCU/s on TOPIC#{name} in
// tinode.md's layout. Read costs in the sharded profile: Get and Import
// one consistent GetItem of the topic more (Get still one GetItem of the
// message); History and Load one Query per partition the topic's layout
// used, sent at once (N, or N+1 for a topic that was unsharded before),
// plus the topic read; Save is unchanged (2 transactions per 100
// concurrent messages). What tinode.md's own service (and a store in the
// default profile) can no longer read: the messages a sharded topic
// writes to TOPIC#{name}#{n}; it still reads the topic, its
// subscriptions and the messages of the topic's unsharded epochs.
// Servers that number and write messages themselves under a layout they
// keep a while (Tinode's, through adapters/tinode, with
// [Messages.ImportAt]) run Options.ServerNumbered: a switch then starts
// past the newest stored message and only appends epochs, so what such a
// server writes before it reads the new layout is still found (issue 43).
//
// Lists return table.Page[T] with an opaque cursor; a declared pattern's
// All, or table.Every over a page read, iterates over every page. Page
// size, cursor and order are the core's list options (table.Limit,
// table.After, table.Asc, table.Desc), the selection is Tinode's own: a
// [HistoryFilter] (Topic, [SeqRange], ForUser, IncludeDeleted) for
// messages, the fields of a tn.Subscription (User and UpdatedAt, or Topic)
// and table.IncludeHidden for subscriptions. Deleted items are dropped
// after reading, so a page may be shorter than its limit while its cursor
// continues; the iterators go on.
// A sharded topic's history cursor ("L4:" then its sealed part) is
// authenticated as a whole: a layout prefix alone, changed, inflated or
// taken from another topic gives table.ErrInvalidCursor before any
// request.
// Bad input is a *table.ValidationError naming the field, returned before
// any request; errors wrap the table sentinels (table.ErrNotFound,
// table.ErrAlreadyExists, table.ErrUniqueViolation, table.ErrConflict).
//
// Hard deletes (TN-17, TN-18) mark the item deleted first, delete the
// dependent items page by page (a user's subscriptions one transaction
// each, so their topics' SubCnt stays exact), and delete the user or topic
// last, so a stopped delete is finished by calling it again. Timestamps
// come from the table's clock (table.Options.Now), to the millisecond as
// Tinode keeps them (tn.Precision); CreatedAt and UpdatedAt are declared
// (tn.Stamps), so the engine sets them. Expired messages are
// left to the table's TTL.
package tinode
