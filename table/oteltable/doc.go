// Package oteltable traces and measures a [table.Table] with
// OpenTelemetry: one option, off unless given, that costs nothing when
// absent.
//
// # Wiring
//
// Give the table your providers, once, when the store is built:
//
//	tbl := table.New(client, schema, oteltable.Option(tracerProvider, meterProvider))
//
// Option(nil, nil) does nothing (a table exactly as without it). Otherwise
// the option sets Options.Tracer (the calls of store methods, see
// [table.Table.Call]) and adds aws-sdk-go-v2 middleware to a copy of the
// client that only this table uses (Options.ClientOptions). Use the same
// returned option for every table of a store: they share instruments.
//
// # Spans
//
// A store method that reports its access pattern with [table.Table.Call]
// gets one span named by the method
// ("ferryhook.APIKeys.Authenticate") with these attributes:
//
//   - singletable.pattern: the catalog ID ("FH-6");
//   - singletable.method: the method;
//   - singletable.requests, singletable.retries, singletable.capacity_units:
//     what its DynamoDB requests sent, retried and consumed;
//   - singletable.error.kind ([ErrorKind]) and an error status when it fails.
//
// Under it, each DynamoDB request (one SDK call) is a client span
// "DynamoDB.<Operation>" with db.system.name, db.operation.name,
// aws.dynamodb.table_names, aws.dynamodb.consistent_read, the pattern,
// singletable.capacity_units (as DynamoDB reported it),
// singletable.retries, and one "attempt" event per attempt (with the
// attempt's error kind when it failed: a throttle shows as throttled
// attempts then a successful one). A request refused by its condition is
// flagged singletable.condition_failed=true with kind condition_failed.
// Requests outside any call (a table's Create, an entity used directly)
// are spans of their own, under whatever span the context holds.
//
// # Metrics
//
// All counters carry singletable.pattern ("" outside a call):
//
//   - singletable.calls, singletable.call.duration (s): per pattern and method;
//   - singletable.call.errors: per pattern, method and singletable.error.kind
//     (not_found, already_exists, conflict, condition_failed, throttled,
//     validation, transaction_canceled, partial_item, canceled, timeout,
//     other);
//   - singletable.requests, singletable.request.retries,
//     singletable.request.errors: per pattern and db.operation.name;
//   - singletable.capacity: capacity units per pattern, operation and table.
//
// # Consumed capacity
//
// With the option on, every request that asks for no consumed capacity
// asks for TOTAL (or INDEXES, [Options].Capacity); without it nothing is
// asked. DynamoDB reports capacity only with a successful response: a
// write refused by its condition consumed a write unit but shows 0.
//
// # Cost
//
// Without the option, or with Option(nil, nil), a store call costs what
// it did: [table.Table.Call] returns its context unchanged and allocates
// nothing (BenchmarkOtelCallOff, BenchmarkOtelGet none vs off). The
// numbers are in docs/observability.md.
package oteltable
