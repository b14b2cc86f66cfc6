// Package podcastflow serves every access pattern of PodcastFlow Pro
// (its schema document's access patterns, catalog PF-1 ... PF-14) on one table,
// podcastflow-pro by default, with the generic schema of [table.NewSchema].
// The entities themselves (typed IDs, enums, validation, the document's key
// formats) are in package entity/pf.
//
// # Mapping
//
// Primary keys are the document's, byte for byte; items written in that
// format by another service (no _type or _v attribute) are read as they
// are. GSI keys are this library's design (the document's GSIs key on the
// raw attributes organizationId, role and status; ours prefix them so that
// no two uses of one overloaded index can share a partition).
//
// The keys are declared once, in package entity/pf (pf.UserProfileKeys,
// ...), and the access patterns in this package.
// docs/patterns/podcastflow.md is generated from those declarations
// (`go run ./cmd/singletable doc -app podcastflow`; TestAccessPatternDocs
// fails when it is out of date): every entity's keys, indexes and sparse-
// index conditions, and every pattern's catalog IDs, requests, units and
// hottest key. This doc does not repeat them. A sharded index partition
// ({n}) is FNV-1a(ID) mod Options.IndexShards (default 4), with no segment
// for one shard.
//
// # Declared access patterns
//
// A pattern that is one read of one entity is a declaration, not a
// method: an exported field of its aggregate holding a [table.Pattern]
// (Users.ByOrganization, Billing.Records, ...), declared once with its
// catalog ID, index, order and input checks. Its reads take the entity's
// type with the fields the key needs set, and build the key through the
// entity's templates:
//
//	u, err := s.Users.Profile.Get(ctx, pf.UserProfile{UserID: id})
//	page, err := s.Users.ByOrganization.List(ctx, pf.UserProfile{OrganizationID: org}, table.Limit(50))
//	for r, err := range s.Billing.Records.All(ctx, pf.BillingRecord{OrganizationID: org}) { ... }
//	days, err := s.Analytics.GlobalMetrics.Between(ctx, pf.GlobalMetrics{Date: from}, pf.GlobalMetrics{Date: to})
//
// Each read is one call of its catalog ID for table.Options.Tracer, named
// after its place ("podcastflow.Users.ByOrganization.List"), and a missing
// or bad field is a *table.ValidationError naming it, before any request.
// The methods that remain do more than one request or carry a rule of the
// application (creates with their defaults and checks, updates, deletes,
// the collections of PF-3, PF-5 and PF-14); they compose the same
// entities and keys.
//
// A declared field, read or write, is documented once: its requests,
// units and hottest key are in docs/patterns/podcastflow.md, generated
// from its declaration, and its errors are its form's (the methods of
// [table.Pattern], [table.Create], [table.Put], [table.Upsert],
// [table.BatchPut], [table.Update], [table.UpdateWith], [table.Rewrite],
// [table.ByUnique]) unless its doc names more.
//
// # Lists
//
// Every list returns one page ([table.Page]) and has an iterator form
// (All, AllBetween, AllOfType) over every item, page by page; both take
// the core's list options: table.Limit (page size, default
// table.DefaultListLimit, at most table.MaxListLimit), table.After (the
// cursor of a previous page), table.Asc and table.Desc. Each pattern
// lists in ascending sort-key order by default: by ID for users and
// organizations, oldest date first for metrics and billing records;
// table.Desc gives newest first. A bad page size is a
// *table.ValidationError for field "limit", sent before any request; a
// cursor from another pattern is table.ErrInvalidCursor.
//
// # Design notes
//
// No Scan. The document lists users and organizations with a Scan and a
// filter; that reads the whole table (every metric and billing record) for
// one page. Here every user is also in partition USERS of GSI4 and every
// organization in partition ORGS, sorted by ID, so PF-4 and PF-6 are one
// Query per page. The cost is a hot partition: every write of a user
// (including lastLogin) rewrites its GSI4 entry, and all of them land in
// one partition key, whose hard limit is about 1,000 writes/s (DynamoDB
// does not split a key whose items all change). So the key is sharded:
// USERS#{n}, n = FNV-1a(userId) mod N (the template segment
// {userId:shard4}, see table.Shard), and a list merges the N Queries of a
// page, sent at once, at the cost of the one-request-per-page rule: N
// requests per page (Options.IndexShards, default 4; 1 keeps the
// unsharded keys and one request). GSI2 (ROLE#{role}) and GSI3
// (STATUS#{status}) have the same shape by the document's own design (few
// distinct values, all users behind them) and are sharded the same way;
// billing statuses, written once a month per organization, are not. These
// GSI keys are the library's (the document's service keys its indexes on
// raw attributes), so the service reads nothing of them; items written
// under another shard count move with the adoption job.
//
// Index entries are never stale: [table.Entity.Update] recomputes them, so
// changing a user's role, organization or status, an organization's status
// or a billing record's status moves the entries in the same write. The
// engine knows the fields they derive from by the declared templates: a
// [table.Entity.Patch] that sets every field of an index key moves it, one
// that sets part of one is refused.
//
// Emails are unique (lower-cased) although the document does not say so: a
// login platform cannot tell two accounts with one email apart. A guard
// item is written in the same transaction as the user; [Users.GetByEmail]
// reads it. Creating a user checks, in the same transaction, that its
// organization exists. Master users may have no organization; every other
// role needs one.
//
// The analytics partition ANALYTICS holds the global metrics and the daily
// metrics of every organization. It is written once a day per organization
// (batched), so its throughput is not a concern, and there is no LSI, so
// no 10 GB item-collection limit.
//
// Items written by the existing service carry no GSI keys (its GSIs key on
// raw attributes). They are read by key as they are, and [Users.Reindex],
// [Organizations.Reindex] and [Billing.ReindexRecord] rewrite one through
// the library so that it joins the indexes.
package podcastflow
