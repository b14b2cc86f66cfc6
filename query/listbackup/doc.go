// Package listbackup serves every access pattern of ListBackup
// (the v2 schema document, canonical, plus the additions of the core
// document; catalog LB-1..LB-68), and of the entities ListBackup's own code
// writes that the documents lack (LB-69..LB-83: source groups, team
// members, labels, MFA codes, the platform catalog, in-app notifications)
// on ONE table built from
// the generic schema ([Schema]: table.NewSchema, GSI1..GSI5, TTL attribute
// "ttl"). It replaces the 13 tables of v2 and the 6 extra tables of core.
//
// # Keys
//
// The keys are declared once, in package entity/lb (lb.UserKeys,
// lb.AccountChildrenIndex, ...), and the access patterns in this package.
// docs/patterns/listbackup.md is generated from those declarations
// (`go run ./cmd/singletable doc -app listbackup`; TestAccessPatternDocs
// fails when it is out of date): every entity's keys, indexes and sparse-
// index conditions, and every pattern's catalog IDs, requests, units and
// hottest key. This doc does not repeat them.
//
// Times in keys are keys.Timestamp (UTC, nine fractional digits, so byte
// order is time order); dates keys.Date; free-form values (tag keys and
// values, account paths) pass through keys.Escape. GSIs not listed for an
// entity do not hold it (sparse).
//
// Five GSIs suffice (at most three per entity), so the schema keeps the
// default table.NewSchema count. Every GSI partition-key prefix belongs to
// one entity type, so a query never meets another type's items.
//
// # Design notes
//
// LB-8 subtree. The document's accountPath index holds the path as a
// partition key, which DynamoDB can only match exactly. Here the first
// segment of the path (the root of the tree) is the GSI3 partition and the
// escaped path is the sort key, so begins_with(PATH#/root/sub/) returns the
// account at /root/sub/ and every account below it in one Query. Paths
// start and end with '/', so a prefix ends at a segment boundary
// (/root/sub/ does not match /root/subsidiary/).
//
// LB-22 and LB-46 retention. The document points the TTL at the event time
// (activities' timestamp), which would expire items at once. The schema's
// TTL attribute ("ttl") holds the expiry: createdAt + 90 days for
// activities, createdAt + 30 days for notifications (whose expiresAt
// attribute carries the same value). Reads never return an item past it,
// even before DynamoDB deletes it.
//
// LB-48 due schedules. The core document's nextRunAt index is keyed by the
// exact timestamp, which cannot answer nextRunAt <= now. Active schedules
// are written to GSI1 partition SCHED#DUE, sorted by nextRunAt, so one
// Query with SK < keys.MustTimestamp(now + 1ns) returns the due ones, oldest
// first; inactive schedules are not in the index. One partition key
// sustains about 1,000 writes per second, and a day's schedules due at
// midnight move about 3,300 index entries a second when they run, so the
// partition is sharded: SCHED#DUE#{n}, n = FNV-1a(scheduleId) mod N (the
// template segment {scheduleId:shard8}, see table.Shard; N is
// Options.IndexShards, default 8, and 1 keeps SCHED#DUE). Due merges the N
// Queries of a page, sent at once; a scheduler worker may own some shards
// (DueInShards). RUNS#{status} (LB-51) is sharded the same way by syncId.
// These GSI keys are the library's, not the document's; items written
// under another shard count move with the adoption job.
//
// LB-60 rollup. GSI1 partition USAGE#{metricDate} holds the day's metrics
// of every account, sorted by account.
//
// LB-62 active plans. Active plans are in GSI1 partition PLANS#active,
// sorted by price; inactive ones are left out (sparse), so no Scan.
//
// LB-57 webhooks by event type. A webhook subscribes to a list of event
// types, and one item holds one key per GSI. The active webhooks of an
// account (GSI1, at most the plan's webhook limit) are read with one
// Query filtered server-side with contains(events, eventType)
// (table.Query.FilterContains), so a page may hold fewer items than its
// limit; the cursor still continues correctly.
//
// LB-56 active webhooks. The core document indexes webhooks on
// accountId with isActive as the sort key. DynamoDB cannot create that
// index: key attributes (table and index keys alike) must be of type S, N
// or B, and isActive is a boolean. Here a webhook is written to GSI1
// (HOOKS#{accountId} / ACTIVE#{webhookId}) only while isActive is true,
// so the sparse index holds exactly the active webhooks and one Query
// with no filter lists them; deactivating or deleting a webhook removes
// its entry in the same write. API keys take the other road for their
// status (LB-53): all of an account's keys are in GSI2 and a status is a
// server-side filter, because revoked keys are still listed.
//
// LB-20, LB-21 scope. The documents' resourceType and eventType indexes
// span all accounts. Both are scoped to the account here (ACTRES#,
// ACTEVT#): an activity feed never crosses tenants, and the partitions
// stay small.
//
// LB-51 runs by status. As in the document, a status is one partition
// (RUNS#failed), sorted by startedAt; the hot "completed" partition is
// the price of answering "recent failures" with one Query.
//
// # Updates, deletes and moves (LB-63..LB-68)
//
// Updates (Accounts, Teams, Sources, Connections, Tags, Webhooks) are
// table.Entity.Update: one consistent GetItem and one conditional
// UpdateItem of the changed attributes, retried on a lost race; the
// fields an item's identity or tenant derive from cannot change through
// them (an account's place in the tree changes only by Accounts.Move).
//
// Soft deletes. The core document asks for status fields instead of hard
// deletes. Accounts (status terminated), sources (disconnected),
// connections (revoked, tokens dropped) and webhooks (isActive false) are
// soft-deleted: deletedAt is stamped and the item leaves every GSI in the
// same write, so no list returns it, and Get, Update and Delete treat it as
// missing (table.ErrNotFound); the item stays in the table. Teams, tags and
// memberships have no status in either document and are deleted for real;
// a tag's attachments live in the tag item and go with it.
//
// Account moves (LB-63). The subtree index (GSI3) is keyed by path, so
// moving an account rewrites the path of every descendant. Accounts.Move
// marks the account first, rewrites the descendants page by page, each
// write conditioned on the descendant's old path, and updates the account
// and clears the mark last; calling it again after an interruption
// finishes the move. Its doc comment says what readers see meanwhile.
//
// Erasure (LB-68). Users.Erase sweeps the user's memberships (and team
// places), refresh tokens, API keys (GSI3 APIKEYUSER#{userId}) and
// notifications, 100 per Query page and deleted by BatchWriteItem, and
// deletes the user item with its email and username guards last, so a
// rerun after an interruption finishes the job.
//
// # Secrets and hashes
//
// mfaSecret, source credentials (credentials.encryptedData), connection
// credentials (credentials.accessToken, credentials.refreshToken,
// credentials.apiKey), OAuth tokens (tokens.accessToken,
// tokens.refreshToken) and webhook signing secrets are table.Def.Secrets:
// encrypted with table.Options.Cipher before they reach DynamoDB, bound
// to the item's key and attribute. So is every member of those
// credentials and tokens maps that no field models (Secrets
// "credentials.*", "tokens.*": the rest of a provider's token response,
// an id_token, kept in the struct's Extra and read back unsealed).
// API keys (LB-52) and refresh tokens (LB-34) are stored only as the
// SHA-256 hex of their plaintext; the plaintext comes from crypto/rand and
// is returned once, at creation.
//
// # Refresh token rotation (LB-36, LB-37)
//
// [RefreshTokens.Rotate] reads the presented token (one consistent
// GetItem) and writes one transaction: the old token gets rotatedAt and
// replacedBy on condition that its version is the one read (so it was
// neither rotated nor revoked since), the new token of the same family is
// created, and the family item RTFAM#{family} counts the rotation on
// condition that it is not revoked. Presenting a token that was already
// rotated is reuse (RFC 9700): the family item is marked revoked, one
// strongly consistent fact every later rotation checks, then its tokens
// are marked as cleanup, and [ErrTokenReused] is returned, which matches
// table.ErrConflict. A rotation that commits during the revocation, a
// token a lagging GSI2 does not list, or one a failed cleanup left
// unmarked can therefore never rotate again.
//
// # Tenant scoping
//
// [Store.ForAccount] returns an [AccountScope]: the Sources, Jobs,
// Connections, Webhooks, APIKeys, Teams and Tags of one account. Its
// by-ID methods reach only that account's items: every read drops, and
// every write conditions away (in the same request), an item whose
// accountId is another account's, so a leaked or guessed ID gives
// table.ErrNotFound and changes nothing; list cursors are sealed with the
// scope, so a cursor minted for another account is refused. Hand request
// handlers the scope, never the Store (whose fields stay unscoped for
// back-office jobs).
//
// # Lists
//
// Every ListX method returns one page (table.Page) and takes the core's
// list options (opts ...table.ListOption): table.Limit (page size,
// table.DefaultListLimit if unset, at most table.MaxListLimit),
// table.After (the cursor of the previous page), and table.Asc or
// table.Desc, which override the pattern's default order, given on each
// method (feeds such as activities, an account's jobs, notifications and
// sync runs are newest first). Each AllX method iterates over every page
// of its ListX (table.Pages). Runs by status also take a [TimeRange]
// (see [Between]), an explicit parameter before the options; the declared
// activity and account-notification reads take their range as two bounds
// (Pattern.Between).
// A bad limit is a *table.ValidationError for "limit", refused before any
// request.
//
// # Declared access patterns
//
// A pattern that is one read of one entity is a declaration, not a
// method: an exported field of its aggregate holding a [table.Pattern]
// (Users.ByID, Inbox.ByStatus, Usage.Range, ...), declared once with its
// catalog ID, index, order and input checks. Its reads take the entity's
// type with the fields the key needs set and build the key through the
// entity's templates:
//
//	u, err := s.Users.ByID.Get(ctx, lb.User{UserID: id})
//	page, err := s.Inbox.ByStatus.List(ctx, lb.InboxNotification{UserID: u, Status: lb.InboxUnread}, table.Limit(20))
//	for m, err := range s.Usage.Range.AllBetween(ctx, lb.UsageMetrics{AccountID: a, MetricDate: from}, lb.UsageMetrics{AccountID: a, MetricDate: to}) { ... }
//
// Each read is one call of its catalog ID for table.Options.Tracer, named
// after its place ("listbackup.Inbox.ByStatus.List"), and a missing or
// bad field is a *table.ValidationError naming it, before any request. A
// declared List has its All (every page) and a declared Between its
// AllBetween. The methods that remain send more than one request, carry a
// rule of the application, read an account-scoped view ([Store.ForAccount])
// or narrow a sort key by a field or a [TimeRange].
//
// A declared field, read or write, is documented once: its requests,
// units and hottest key are in docs/patterns/listbackup.md, generated
// from its declaration, and its errors are its form's (the methods of
// [table.Pattern], [table.Create], [table.Put], [table.Update],
// [table.UpdateWith], [table.Apply], [table.SoftDelete],
// [table.PatchWith], [table.Delete], [table.ByUnique]) unless its doc
// names more.
//
// # Requests per pattern
//
// Reads are one GetItem or one Query page. LB-2 and LB-3 read the guard,
// then the user (two GetItems, both strongly consistent). Writes that
// change an indexed attribute (LB-41 attach/detach, LB-45 mark read,
// LB-49 record a run, LB-54 revoke) use table.Entity.Update: one
// consistent GetItem and one conditional write, retried on a lost race.
// Counters (LB-61) are one UpdateItem; the first count of a day creates
// the day's item first.
//
// # Conflicting attribute types
//
// Where the documents give one attribute two types, v2 wins and the
// difference is noted on the field: createdAt/updatedAt of accounts and
// users are ISO 8601 strings (core: epoch numbers); a source's syncStatus
// is v2's object, whose state also accepts core's values; core's
// platformId mirrors v2's platform. Attributes that exist only in core
// keep core's types (epoch seconds for its timestamps).
//
// # The job queue on the stream (LB-84, LB-85)
//
// ListBackup's job queue lived on its jobs table's stream (its
// jobs/queue handler). On the single table the stream carries every
// entity, guard and checkpoint, so [Schema] declares a NEW_AND_OLD_IMAGES
// stream and [JobQueueHandler] hears only the Job entity's typed changes
// on a table/feed Router (feed.HandleType hears any other entity's by its
// Go type on the store's Table, LB-85). It
// routes as the legacy handler: a created job goes to the queue of its
// type ([QueueOf]: sync, backup, export, analytics, maintenance, alert;
// none for import and migration, as before), message group sourceId else
// accountId, deduplication ID the job's ID, attributes JobType, Priority,
// SourceId, AccountId and SubType when set; running -> failed sends it
// again while retries remain; pending -> running, running -> completed,
// -> cancelled, other transitions and a removal send nothing; a
// bookkeeping-only rewrite or one that changes no status is ignored. The
// service supplies the queue ([JobQueue]: an SQS FIFO client in
// ListBackup's deployment). The legacy handler's four flaws are fixed:
//
//  1. No empty attribute. SQS refuses an empty attribute value, and
//     jobs/create writes no priority, so every message of a job it
//     created was refused. Priority is the job's, else "medium" (what
//     [Jobs.Create] gives a job without one); SourceId is left out for
//     an account-wide job.
//  2. Bounded re-queues. The legacy count was hard-coded to 0. A failed
//     job is sent again only while its retryCount < maxRetries
//     ([DefaultMaxRetries], the legacy constant, for a migrated job of
//     ListBackup's code whose maxRetries is 0). No ListBackup code writes
//     retryCount, so the handler does: it increments it in the table,
//     conditioned on the count the record shows, and only then sends, so
//     the worker the retry reaches, and its next failure, see the new
//     count.
//  3. A deduplication ID per attempt: {jobId}#retry-{n} for the n-th
//     re-queue (the legacy handler reused jobId, so a second failure
//     within SQS's five-minute window was dropped). A record delivered
//     again yields the same ID as its first delivery (n comes from the
//     record's image and the count is not made twice).
//  4. A failed send is an error, so the consumer retries the batch and
//     the stream delivers the record again (the legacy handler logged it
//     and reported success).
//
// The guarantee: every created job of a queued type, and every failure
// with retries left, is sent at least once; a repeat caused by a fault (a
// retried batch, a consumer stopped before its checkpoint) carries the
// first send's deduplication ID, so the FIFO queue keeps one message per
// attempt when the repeat comes within its five-minute window. Migrating
// jobs into the table writes INSERT records too: start the handler's
// consumer at feed.Latest after a migration unless the migrated jobs are
// to be queued again.
package listbackup
