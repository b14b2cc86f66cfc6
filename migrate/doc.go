// Package migrate copies a deployment kept in many tables (one per entity,
// the layout most services start from) into a single table, through the
// entities of package table, and verifies the copy.
//
// A [Manifest] (JSON, [ReadManifest]) describes the legacy layout as data:
// its tables (<stack>-<table>), their key attributes, indexes and expiry,
// the entity name each table's items become, how an item is made ready for
// it (renames, value mappings, defaults, composed and split attributes,
// epoch times), a [Tree] whose paths are rebuilt from the parent chain, and
// the tables left out (transient, or expected empty). [Targets] say where
// each entity name goes ([Into] an entity). [Run] migrates, [Verify]
// checks the copy; [CreateLayout] makes a layout's empty tables for a
// rehearsal; [Survey] and [Detect] measure a deployment against one or more
// manifests. ListBackup (query/listbackup) is the worked example: two
// manifests of its own, 27 targets, and Store.Migrate passing them.
//
// # Contract
//
//   - Read only: the legacy tables are scanned (a parallel Scan per table,
//     the one place a Scan is right) and never written.
//   - Written as the library writes: every item is created through its
//     entity ([table.Entity.ImportMany]), with its keys, index keys, unique
//     guards and version, never over an existing item; the attributes keep
//     their names (after the manifest's renames), IDs keep their stored
//     forms, and a secret found in plaintext is sealed on the way in
//     (under the entity's attribute: ListBackup's connection's
//     credentials.access_token becomes credentials.accessToken, sealed).
//   - What the live system holds is kept: a value an enum lacks (a plan
//     "pro" another writer stored as the client sent it) is copied as
//     stored, read back as itself, carried through updates of other
//     fields, and listed in [TableResult].Kept; it is never a reason to
//     leave an item behind. Every other check still applies.
//   - Empty values: a top-level NULL or empty string reads as absent (the
//     AWS SDKs' marshallers write an empty string or a nil pointer as
//     NULL). Inside a map, a NULL member (a nil pointer field of a nested
//     struct) may be left out of the copy: a struct field cannot tell it
//     from absent, and verification counts NULL, "" and absent as the
//     same. Attributes the entity does not know are kept whole
//     ([table.Extra]), and so are the members of a map its struct does not
//     model, at any depth (the struct's own table.Extra); inside a map the
//     entity declares secret those members are sealed like the rest.
//   - Trees: a table whose manifest declares a [Tree] has every path
//     rebuilt from the parent chain, not copied (ListBackup's accounts:
//     its handlers stored a child's path with two IDs run together). Each
//     path changed is listed in [TableResult].Repairs; where the chain is
//     broken (a parent not in the table, a loop) the stored path is kept.
//   - Resumable: each table's scan saves its position after every page in
//     a checkpoint item of the single table (_JOB#migrate-<table>), with
//     what the page kept and repaired ([table.JobNote]); run again with
//     Resume, a migration continues after the last page done, and its
//     report lists what the whole migration kept and repaired.
//   - Idempotent: an item already migrated is left as it is and counted
//     unchanged, so a resumed run and a second run change nothing twice.
//   - Honest: a legacy item that cannot be migrated (a duplicate unique
//     value, a value that fails validation) is counted as a conflict and
//     listed with its legacy key, and the others go on; an item past the
//     expiry it holds ([TTL]) is counted and listed, not copied; DryRun
//     decodes, validates and encodes every item and writes nothing but
//     checkpoints.
//   - Verifiable: [Verify] scans the legacy tables again and finds every
//     item through its entity's key in the single table, comparing it
//     field by field after the same rules (renames, value mappings,
//     rebuilt paths) and with its secrets unsealed, so a correct migration
//     verifies with no difference; what it reports is a real difference.
//   - Refused before any request: options without a Stack or a Manifest,
//     or naming an entity without a target, are a *table.ValidationError.
package migrate
