// Package tinode holds the entities of the Tinode chat server's storage as
// plain Go types: users (with their push devices), authentication records,
// unique tags, topics, subscriptions and messages, their typed IDs and
// enums ([AccessMode], [AuthLevel], [ObjState], [Platform]), the
// application-defined JSON payloads ([RawJSON]) and the key grammar of the
// single table that replaces Tinode's six DynamoDB tables.
//
// # Mapping
//
// One table (the generic schema of package table: PK, SK, GSI1..GSI5). Ids,
// topic names, tags and auth values are escaped with keys.Escape ('#', '%'
// and control characters become %XX), so any Tinode string is a valid key
// segment. Only GSI1 is used; GSI2..GSI5 stay free.
//
//	| entity (old table)          | PK                        | SK                          | GSI1PK          | GSI1SK                                  | serves                 |
//	|-----------------------------|---------------------------|-----------------------------|-----------------|-----------------------------------------|------------------------|
//	| User (TinodeUsers)          | USER#{id}                 | USER                        | -               | -                                       | TN-1..5, 16, 17, 19, 20|
//	| Device (in User.Devices)    | (inside the user item)    |                             |                 |                                         | TN-16, TN-20           |
//	| UniqueTag (TinodeTagUnique) | UNIQUE#tag#{tag}          | UNIQUE (core guard item)    | -               | -                                       | TN-2, 3, 4, 19         |
//	| AuthRecord (TinodeAuth)     | AUTH#{scheme}#{value}     | AUTH                        | USER#{userid}   | AUTH#{scheme}#{value}                   | TN-6, TN-7, TN-17      |
//	| Topic (TinodeTopics)        | TOPIC#{name}              | TOPIC                       | -               | -                                       | TN-8, TN-12, TN-18     |
//	| Subscription (TinodeSubs.)  | TOPIC#{topic}             | SUB#{user}                  | USER#{user}     | SUBUPD#{Timestamp(UpdatedAt)}#{topic}   | TN-9, TN-10, TN-11     |
//	| Message (TinodeMessages)    | TOPIC#{topic}             | MSG#{SeqId, 10 digits}      | -               | -                                       | TN-12..15, TN-18       |
//
// A topic's partition TOPIC#{name} holds the topic, its subscriptions and its
// messages. Its sort keys order as MSG#... < SUB#... < TOPIC, so one
// descending Query on the partition returns the topic first, then every
// subscription, then the messages newest first (the topic's item SK is TOPIC
// rather than META because META sorts below MSG# and would come last).
// Message sequence numbers are zero-padded to 10 digits (keys.Uint), so
// message 9 sorts before message 10.
//
// A user's subscriptions and auth records share GSI1 partition USER#{id}:
// SUBUPD#... lists subscriptions by UpdatedAt (fixed-width timestamps sort
// by time), AUTH#... lists auth records. Tag uniqueness is held by the core's
// guard items (PK UNIQUE#tag#{escaped tag}), written in the same
// transaction as the user: a guard is the TinodeTagUnique row, its owner
// key is the Source. No access pattern needs a Scan.
//
// # Attributes
//
// Attribute names are Tinode's own: Id, CreatedAt, UpdatedAt, DeletedAt,
// Access{Auth,Anon}, Public, State, LastSeen, UserAgent, SeqId, ClearId,
// Tags, Devices; userid, unique, secret, authLvl, expires for auth records.
// Access modes are stored as numbers, Public, Private, Head and Content as
// native DynamoDB maps, lists, strings and NULL ([RawJSON]), times as
// RFC 3339 strings, and a message's ExpireTime also in the table's TTL
// attribute so expired messages are never returned.
package tn
