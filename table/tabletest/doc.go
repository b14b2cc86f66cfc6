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
// # Injecting faults
//
// DynamoDB Local never throttles, never returns unprocessed items and
// never loses a transaction race. To test those paths, give [NewClient]
// SDK option functions that put an HTTP client or middleware in front of
// the real DynamoDB Local, and open the test's table through that client:
//
//	tbl := tabletest.NewTable(t, schema)
//	flaky := tabletest.NewClient(t, func(o *dynamodb.Options) {
//		o.HTTPClient = throttleEveryOtherRequest(o.HTTPClient)
//	})
//	faulty := table.New(flaky, tbl.Schema())
//
// Every client here signs with the same dummy credentials and region,
// because DynamoDB Local keeps a separate database for each pair.
package tabletest
