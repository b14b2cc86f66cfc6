// Package tableschema takes a [table.Schema] out of the program: it holds
// what deployment and design review need and no request path does, so the
// engine (package table) keeps only the operations on items. The
// singletable command is built on it.
//
// # Deployment files
//
// [CreateTableJSON] and [TTLSpecificationJSON] are the requests `aws
// dynamodb create-table` and `update-time-to-live` take (--cli-input-json);
// [CloudFormation] and [Terraform] are the table as a resource, with the
// same keys, GSIs, billing mode and TTL that [table.Table.Create] makes,
// plus point-in-time recovery. Each is the schema's one definition, golden
// file tested.
//
// # A live table against its schema
//
// [Compare] reads a live table (DescribeTable, DescribeTimeToLive) and
// returns the [Plan] of its differences from the schema; it writes
// nothing. [Apply] makes the changes that need no data moved (create a
// missing table, enable TTL) and reports the others (a missing GSI, a key
// schema) for a human.
//
// # The design
//
// [Workbench] exports the table as an Amazon NoSQL Workbench data model: a
// facet per entity bound to the table, from its declarations, and examples
// from the items the table holds.
package tableschema
