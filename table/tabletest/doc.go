// Package tabletest provides what tests of code built on package table
// need: a DynamoDB Local, clients for it and a fresh table per test, in the
// way net/http/httptest provides servers.
//
// # One DynamoDB Local per test binary
//
// The first call to [Endpoint], [Client], [NewClient] or [NewTable] starts
// a DynamoDB Local that every test of the binary then shares. It is the
// endpoint named by the DYNAMODB_ENDPOINT environment variable if that is
// set; otherwise a container when Docker runs, otherwise the DynamoDB Local
// jar run by the machine's Java 17+, downloaded once into the user cache
// directory (or taken from DYNAMODB_LOCAL_DIR). The backend chosen is
// logged once. If nothing can run it, the test fails, saying what to
// install: tests that need DynamoDB are never skipped.
//
// The instance goes away with the test binary, even one that panics or is
// killed. A TestMain may also stop it explicitly with [Main]:
//
//	func TestMain(m *testing.M) { tabletest.Main(m) }
//
// # A table per test
//
// [NewTable] creates a table of the given schema under a fresh name made
// of the schema's name and the test's, and deletes it when the test ends,
// so tests run in parallel without seeing each other's items:
//
//	func TestOrders(t *testing.T) {
//		t.Parallel()
//		tbl := tabletest.NewTable(t, table.NewSchema("shop"))
//		orders := table.NewEntity(tbl, orderDef)
//		...
//	}
//
// # What is stored
//
// [RawItem] reads an item as DynamoDB holds it, past the library, and
// [Unchanged] checks after each write under test that the attributes an
// item stored (those another writer put there, say) are still stored
// byte for byte; [StoredKeys] pins the keys every entity derives against
// a golden file.
//
// # Injecting faults
//
// DynamoDB Local never throttles, never returns unprocessed items, never
// drops a connection and its GSIs never lag. The ready-made faults put
// middleware or an HTTP client in front of the real DynamoDB Local:
// [Unprocessed] (a fraction of every batch comes back unprocessed),
// [Errors] (the first n requests of an operation fail with a DynamoDB
// error code such as ProvisionedThroughputExceededException, or a network
// error), and [StaleQueries] (every Query gets its first answer again, as
// from a lagging GSI). Open the test's table through a client that has one:
//
//	tbl := tabletest.NewTable(t, schema)
//	throttle := &tabletest.Errors{Op: "BatchWriteItem", Code: "ProvisionedThroughputExceededException", Times: 4}
//	faulty := table.New(tabletest.NewClient(t, throttle.Option()), tbl.Schema())
//
// Any other SDK option function works the same way.
//
// # Hot partitions
//
// DynamoDB Local has no partitions and never throttles. The capacity meter
// that charges each request to the partition keys it touches, the scale
// scenarios and the modeled throttled minute are package
// table/tabletest/capacity, built on this one.
//
// # Benchmarks
//
// [Compare] and [Paired] measure a library call against its hand-written
// aws-sdk-go-v2 equivalent in one run, interleaved so DynamoDB Local's
// warm-up favors neither.
//
// Every client here signs with the same dummy credentials and region,
// because DynamoDB Local keeps a separate database for each pair.
package tabletest
