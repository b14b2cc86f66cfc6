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
// DynamoDB limits each partition key value (of the table and of each GSI)
// to 1,000 write and 3,000 read units per second, and DynamoDB Local has
// no partitions. A [Meter] on the client charges every request to the
// partition keys and items it touches, by DynamoDB's capacity rules (item
// sizes, 1 KB and 4 KB rounding, transactions twice, GSI entries from the
// table's key schema), so a test can see the hottest key of an access
// pattern ([Meter.Hottest]) and what a modeled load puts on it. It also
// has a throttling mode, which answers a request on a partition past its
// limit with the error DynamoDB sends:
//
//	meter := tabletest.NewMeter(tabletest.Client(t)) // reads through an unmetered client
//	tbl := table.New(tabletest.NewClient(t, meter.Option()), schema)
//	... calls ...
//	p, u, _ := meter.Hottest() // "table SRC#src_1", 4 WCU
//
// [Scale] holds a scenario's per-key units, scaled to its modeled rate, to
// the target of 800 WCU/s and 2,400 RCU/s. [RunMinute] runs it for a
// modeled minute in the throttling mode, each call at its modeled instant
// and each retry a modeled backoff later, and enforces that every throttle
// is retried or surfaced as table.ErrThrottled once the retry budget is
// spent; the scenario then checks that nothing was lost or counted twice
// (see the model and the contract at [Minute]).
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
