// Package ferryhook serves every access pattern of Ferryhook
// (the webhook relay's schema document, catalog FH-1..FH-14) on two tables, ferryhook-main
// and ferryhook-events, built from the generic schema ([MainSchema],
// [EventsSchema]).
//
// # Keys
//
// The keys are declared once, in package entity/fh (fh.UserKeys, ...), and
// the access patterns in this package. docs/patterns/ferryhook.md is
// generated from those declarations
// (`go run ./cmd/singletable doc -app ferryhook`; TestAccessPatternDocs
// fails when it is out of date): every entity's keys, indexes and sparse-
// index conditions, and every pattern's catalog IDs, requests, units and
// hottest key. This doc does not repeat them.
//
// Nor do the docs of the stores' declared fields (Sources.ByUser,
// APIKeys.Delete, ...): a field's requests, units and hottest key are its
// row in docs/patterns/ferryhook.md, generated from its declaration, and
// its errors are its form's ([table.Pattern.Get], [table.Pattern.List],
// [table.Delete], [table.PatchWith]) unless its doc names more.
//
// FH-11, the document's data-access interface, maps operation by operation:
//
//	users.create / getById / getByEmail / update / incrementUsage
//	    Users.Create / ByID.Get / GetByEmail / Update / IncrementUsage
//	sources.create / getById / listByUser / update / delete
//	    Sources.Create / ByID.Get / GetByID / ByUser.List (ByUser.All) / Update / Delete
//	connections.create / listBySource / update / delete
//	    Connections.Create / ByID.Get / BySource.List (BySource.All) / Update / Delete
//	events.create / getById / listBySource / updateStatus
//	    Events.Create / GetByID / ListBySource (table.Every for all pages) / UpdateStatus
//	attempts.create / listByEvent
//	    Attempts.Create / ByEvent.List (ByEvent.All)
//	apiKeys.create / getByHash / listByUser / delete / updateLastUsed
//	    APIKeys.Create / GetByHash / ByUser.List (ByUser.All) / Delete / UpdateLastUsed
//
// Operations the document addresses by a child ID alone (connections.update
// and delete, apiKeys.updateLastUsed) take the parent IDs too: the key
// needs them, and they scope the operation to its owner. Users of another
// user's sources, connections and keys get [table.ErrNotFound] and change
// nothing: sources and keys live under USER#{userId}, and connections carry
// userId, which every user-facing operation checks.
//
// # Lists
//
// Every list (Events.ListBySource and the declared patterns' List:
// Sources.ByUser, Connections.BySource, APIKeys.ByUser, Attempts.ByEvent,
// [table.Pattern]) returns one [table.Page] and takes the core's options: table.Limit (page size,
// default table.DefaultListLimit, at most table.MaxListLimit), table.After
// (the previous page's cursor), table.Asc and table.Desc (overriding the
// pattern's order: events newest first, the others ascending). Its All...
// form iterates over every page with the same options. Connections are
// filtered on userId by DynamoDB (a FilterExpression) and deleted sources
// and connections are left out afterwards, so their pages may hold fewer
// items than the limit.
//
// # Existing deployments
//
// The document's own service (TypeScript, lib-dynamodb) writes the same key
// values under lower-case attribute and index names (pk, sk, gsi1pk ...
// gsi3sk; gsi1 ... gsi3), NULL for unset attributes, emails as the user
// typed them, and hashes API keys with HMAC-SHA256 under an empty key,
// keeping 16 characters of prefix. Open such tables with
// [table.WithLowercaseKeys] on both schemas and [ServiceProfile] on the
// store: its key hashing, "fh_live_" keys (the only ones the service's
// middleware accepts), emails stored as entered (in the attribute and in
// GSI1, so the service's own lookup finds users the library created) and
// compared folded (keys.FoldEmail: case and Unicode form) through the
// email guard, and the attributes the service always writes (an empty
// event body and content type). Items without the library's _type and _v
// attributes read and update normally; values the library's enums do not
// know (a "twilio" provider, a "none" signing algorithm) read, list and
// carry through updates of other fields, and Valid tells them apart.
//
// Users the service wrote have no email guard until they are adopted:
// `go run ./cmd/singletable adopt -app ferryhook -profile service` creates
// the guards (reporting case-variant duplicates the live data holds),
// backfills missing index keys and seals plaintext secrets; until then
// GetByEmail finds them by the address as typed at sign-up (GSI1, confirmed
// by a consistent read), and a sign-up under another case of an unadopted
// address is not detected. [Users.EnsureGuards] adopts one user.
//
// Revocation before adoption: the service's apiKeys.delete revokes a key
// by removing gsi2pk and gsi2sk and leaving the item, and such a key stays
// revoked whenever the adoption job runs (before or after the revocation,
// between its dry run and its run, interrupted and resumed): the APIKey
// Def declares GSI2 with table.Def.ValidWhileIndexed, so adoption neither
// puts a revoked key back in GSI2 (where the service's own getByHash would
// find it again) nor claims its key-hash guard, and its write is
// conditioned on gsi2pk/gsi2sk as it read them. [APIKeys.Authenticate]
// refuses a key whose item lacks them whatever path found it (its guard,
// GSI2, or the item a library key names): every path ends in a strongly
// consistent read of the item itself. A deployment adopted by an earlier
// release may hold revoked keys put back in GSI2: re-revoke the keys the
// service deleted (its logs: "API key deleted") after upgrading.
//
// Signing secrets are an explicit choice: encrypted by default (the
// service must then decrypt before it signs), or stored as the service
// reads them with [SigningSecretsAsStored], whose trade-off its doc states.
//
// # Secrets
//
// Sources' and connections' signingSecret are credentials: they are
// encrypted (table.Def.Secrets, AES-GCM bound to the item's key and the
// attribute) before they reach DynamoDB, so both tables need a
// table.Options.Cipher; a plaintext value written by the existing service
// reads as is and is encrypted on its next write. API keys are never
// stored: only their hash and prefix (FH-6). passwordHash is already a
// bcrypt hash.
//
// # Ingestion
//
// [Store.Ingest] is the ingest handler's path: FH-4 (source by ID), FH-1
// (the owner's plan, for FH-12 retention), then one TransactWriteItems that
// spans both tables: the event, the source's eventCount and lastEventAt
// (on condition that it is still active) and the owner's usageThisMonth.
// The counters therefore count exactly the events stored. The plan's
// monthly event limit holds as in the running service (free: 5,000, then
// [ErrPlanLimit]; paid plans are not refused), in every profile, from the
// usage read at most every Options.StateCheck plus the events the store
// took since: one store never passes it, several by at most the others'
// ingests within StateCheck (and the stream's lag when counts follow the
// stream). See planlimit.go and TestPlanLimit_FH12.
//
// What an ingest costs in write units (issue 44; an event of about 1.8 KB,
// measured by capacity.Meter over every key, table and GSI,
// TestIngestWCU_FH12_FH16 and TestIngestRoutesWCU_FH12_FH16), per profile:
//
//	profile                      WCU per event   requests per event   guarantees
//	document (default)           12              1 transaction        all, immediate; the plan limit exact per store, across stores within StateCheck
//	[ScaledProfile]              4 + 4/k         1/k transaction      as the document's; k events per group commit (6 at k = 2, 4.5 at 8)
//	[StreamCountedProfile]       4.0x            1 PutItem            as bounds: a paused source within Options.StateCheck, counts within the stream's lag, the plan limit within StateCheck + the lag
//	the service's own handler    6               2 (PutItem, UpdateItem)  none: no atomicity, no count per source, a paused source for 5 minutes
//
// The 4 units left in the scaled profile are the event written in a
// transaction (2 units for 1-2 KB, doubled); the stream-counted profile
// writes it alone (2) and keeps its GSI1 entry (2) so the running service
// finds it by ID; with Options.EventsByKeyOnly as well it costs 2.
//
// # Scaled profile
//
// One item takes at most 1,000 write units per second, so in the default
// profile one source takes about 250 ingests per second and one user's
// sources together about 500 (every ingest patches the source and user
// items, and rewrites their GSI3 and GSI1 entries). [ScaledProfile] moves
// the counters into 32 shard items per source and per user (table.Counters:
// PK _CTR#src#{sourceId}#{i} and _CTR#usage#{userId}#{i}, SK SHARD, in no
// GSI), picked by a hash of the event ID, each holding a copy of the
// source's status or the user's plan that the ingest's transaction checks:
// 10,000 ingests per second into one source put about 625 write units per
// second on each shard, and none on the items. Ingest stays one
// TransactWriteItems; state changes write the item and its 32 shards in
// one transaction; eventCount, lastEventAt and usageThisMonth on the items
// become rollups ([Store.RollupJob]), and the exact figures cost one
// BatchGetItem ([Sources.Counts] FH-13, [Users.Usage] FH-14). Its doc says
// what the running service can no longer read correctly next to it.
//
// The events partition SRC#{sourceId} itself (4 write units per ingest,
// sort keys increasing) would still cap one source at about 200 ingests
// per second at the 800-unit target, so the scaled profile also
// write-shards events (Options.EventShards, 64 for new sources): an
// ingest writes its event to one of the source's partitions
// SRC#{sourceId}#{i}, recorded in the event ID's bucket, under the layout
// the source records (eventLayout, copied into its counter shards, which
// the ingest transaction already checks); [Events.ListBySource] merges the
// partitions with one cursor; [Sources.ShardEvents] and [EventReshardJob]
// switch a live source. Ingest stays one request; a list page costs one
// Query per partition. See eventshards.go's contract. The list's cursor
// ("L64b:" then its sealed part) is held to the cursor contract as a
// whole: a layout prefix alone, changed, inflated or taken from another
// source gives table.ErrInvalidCursor before any request.
//
// # Event IDs
//
// Events the library creates get located IDs (fh.NewLocatedEventID): evt_,
// receivedAt, a bucket, the source ID's 16 characters and nanoid(16), 46
// characters in the document's alphabet. [Events.GetByID] and
// [Events.UpdateStatus] read the event's key from such an ID and send one
// request; IDs the running service mints (evt_ + nanoid(16), 20
// characters) take the GSI1 path as before. Events keep their GSI1 entry,
// so the service finds the library's events by ID too (it never checks an
// ID's length), except in a store with Options.EventsByKeyOnly (the
// scaled profile's default since issue 44): the events it ingests are
// marked byKey and left out of GSI1, saving the entry's 2 write units,
// and the service's getById no longer finds them. Such a store still
// reads the service's events (and any other) through GSI1.
//
// # Deletion
//
// The document gives sources and connections a deleted status: Delete sets
// it (a soft delete, so events keep a meaningful sourceId); deleted items
// are never returned and cannot be changed ([table.ErrNotFound]). API keys
// are deleted for real, with their hash guard; a deleted key
// authenticates no more ([ErrInvalidAPIKey], like an unknown key).
//
// # Change feed
//
// Every write of the store can be heard as a typed change of its entity
// (FH-15) from the tables' DynamoDB streams. The document declares no
// stream, so [MainSchema] and [EventsSchema] declare none either; a
// deployment that wants the feed adds
// table.WithStream(types.StreamViewTypeNewAndOldImages) to both
// (tableschema.Apply enables it on live tables). Each table's stream is
// routed by a router of its own, feed.NewRouter(main) and
// feed.NewRouter(events), with handlers registered by Go type
// (feed.HandleType): fh.User, fh.Source, fh.Connection and fh.APIKey on
// the main table, fh.Event and fh.DeliveryAttempt on the events table,
// each bound to one entity. Signing secrets arrive unsealed in the images;
// the email and key-hash guards, the scaled profile's counter shards and
// the rollup job's checkpoints reach the router's Library handler, never
// an entity's (TestEveryWriteHeard_FH15).
package ferryhook
