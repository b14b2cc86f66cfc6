// Package capacity is the test kit's capacity meter: what requests cost on
// DynamoDB's per-partition limits, which DynamoDB Local does not have. It
// is used with package tabletest (DynamoDB Local, a table per test,
// faults), whose clients it is installed on.
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
//	meter := capacity.NewMeter(tabletest.Client(t)) // reads through an unmetered client
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
// [SustainedRate] turns the units one call puts on a key into the calls per
// second that key takes; [KeyShape] and [Meter.Learn] name keys by their
// shapes and templates, and [SpreadID] spreads modeled IDs over shards.
package capacity
