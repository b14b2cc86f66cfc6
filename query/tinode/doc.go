// Package tinode serves the storage of the Tinode chat server (users,
// auth records, unique tags, topics, subscriptions, messages, push
// devices, tag search) from ONE DynamoDB table, replacing TinodeUsers,
// TinodeAuth, TinodeTagUnique, TinodeTopics, TinodeSubscriptions and
// TinodeMessages. Entities are in package entity/tinode.
//
// # Mapping
//
// Generic schema (table.NewSchema): PK, SK, GSI1PK/GSI1SK (GSI2..5
// unused). {x} segments are keys.Escape'd; SeqIds are 10 zero-padded digits.
//
//	| entity        | PK                    | SK                    | GSI1PK        | GSI1SK                                | catalog IDs                  |
//	|---------------|-----------------------|-----------------------|---------------|---------------------------------------|------------------------------|
//	| User          | USER#{id}             | USER                  |               |                                       | TN-1, 2, 3, 5, 16, 17, 20    |
//	| tag guard     | UNIQUE#tag#{tag}      | UNIQUE                |               |                                       | TN-2, 3, 4, 19 (TagUnique)   |
//	| AuthRecord    | AUTH#{scheme}#{value} | AUTH                  | USER#{userid} | AUTH#{scheme}#{value}                 | TN-6; TN-7, 17 via GSI1      |
//	| Topic         | TOPIC#{name}          | TOPIC                 |               |                                       | TN-8, 12, 18                 |
//	| Subscription  | TOPIC#{topic}         | SUB#{user}            | USER#{user}   | SUBUPD#{Timestamp(UpdatedAt)}#{topic} | TN-9, 11; TN-10, 17 via GSI1 |
//	| Message       | TOPIC#{topic}         | MSG#{seq:10}          |               |                                       | TN-12, 13, 14, 15, 18        |
//
// In a topic partition MSG# < SUB# < TOPIC, so [Topics.Load] reads the
// topic, all its subscriptions and its newest messages with ONE descending
// Query and decodes them with table.Collect. (SK TOPIC rather than META:
// META sorts below MSG# and a newest-first query would reach it last.)
//
// # Access patterns
//
//   - TN-1 [Users.Get], [Users.GetMany] (BatchGetItem)
//   - TN-2 [Users.Create]: user + tag guards in one transaction
//   - TN-3 [Users.AddTags], [Users.RemoveTags], [Users.ResetTags], [Users.Update]
//   - TN-4 [Users.LookupTag], [Users.FindByTag]; TN-5 [Users.Tags]
//   - TN-6 [Auth.Add], [Auth.Get], [Auth.Update], [Auth.Delete]
//   - TN-7 [Auth.ListByUser], [Auth.AllByUser], [Auth.GetByScheme], [Auth.DeleteAllByUser]
//   - TN-8 [Topics.Create], [Topics.Get], [Topics.Update], [Topics.Load]
//   - TN-9 [Subscriptions.Get]; TN-10 [Subscriptions.ListByUser], [Subscriptions.AllByUser]
//   - TN-11 [Subscriptions.ListByTopic], [Subscriptions.AllByTopic]
//   - TN-12 [Messages.Save]: read SeqId n, then one transaction (topic
//     SeqId n -> n+1 on condition SeqId = n, create MSG#{n+1}); retried with
//     jittered backoff, so concurrent senders get 1..N with no gap
//   - TN-13 [Messages.History], [Messages.HistoryAll]
//   - TN-14 [Messages.DeleteForUser] (DeletedFor), [Messages.DeleteForAll] (DeletedAt)
//   - TN-15 expiry: ExpireTime feeds the table's TTL attribute (Def.Expires);
//     Get, History and Load never return an expired message
//   - TN-16 [Users.UpsertDevice], [Users.DeleteDevice]; TN-20 [Users.Devices]
//   - TN-17 [Users.SoftDelete], [Users.Delete]; TN-18 [Topics.SoftDelete], [Topics.Delete]
//   - TN-19 [Users.FindByTags]: BatchGet of tag guards, then of users
//
// Lists return table.Page[T] with an opaque cursor and have an iterator
// form; page size, cursor and order are the core's list options
// (table.Limit, table.After, table.Asc, table.Desc), the selection is
// Tinode's own: a [HistoryFilter] ([SeqRange], ForUser, IncludeDeleted)
// for messages, a [SubFilter] (UpdatedSince, IncludeDeleted) for
// subscriptions. Deleted items are dropped after reading, so a page may be
// shorter than its limit while its cursor continues; the iterators go on.
// Bad input is a *table.ValidationError naming the field, returned before
// any request; errors wrap the table sentinels (table.ErrNotFound,
// table.ErrAlreadyExists, table.ErrUniqueViolation, table.ErrConflict).
//
// Hard deletes (TN-17, TN-18) mark the item deleted first, batch-delete the
// dependent items page by page, and delete the user or topic last, so a
// stopped delete is finished by calling it again. Expired messages are
// left to the table's TTL.
package tinode
