// Package lambdafeed hears a table's writes in an AWS Lambda function:
// it converts the DynamoDB stream event Lambda delivers (aws-lambda-go's
// [events.DynamoDBEvent]) into [table.Record] values, value for value, and
// routes a whole event through a [feed.Router] with Lambda's partial-batch
// response ([Handle]).
//
// It is a package of its own so that only a program that runs on Lambda
// imports aws-lambda-go: the engine (package table) and package feed do
// not.
//
// # What a converted record holds
//
// Every attribute value becomes the DynamoDB API's (aws-sdk-go-v2's
// types.AttributeValue) as the Streams API's would: a number keeps its
// spelling, a set its order, NULL stays NULL, binary its bytes, lists and
// maps recursively. The record's event ID, operation, sequence number,
// approximate creation time and userIdentity (a TTL deletion is "Service"
// / "dynamodb.amazonaws.com", which makes it [table.Expired]) are kept.
// [table.Record.Shard] is "": a Lambda event names its stream
// (eventSourceARN), not the shard, and the stream's ARN is kept nowhere
// (the function's event source mapping knows it). The region, event
// source, event version and record size are dropped.
//
// # Delivery under faults
//
// Lambda hands a function one shard's records in order and retries a
// failed batch; with the event source mapping's ReportBatchItemFailures
// enabled, [Handle]'s response names the first record that failed, so
// Lambda retries from that record and not the records handled before it.
// Delivery stays at least once: a record handled in an invocation whose
// response was lost comes again with the same [table.Record.ID], which
// handlers use as their idempotency key (see package feed).
package lambdafeed
