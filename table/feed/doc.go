// Package feed hears a table's writes: its DynamoDB stream, typed.
//
// A [Router] routes each stream record to the typed handler of its entity
// ([Handle]), as http.ServeMux routes requests: the record is classified
// by the table's declarations ([table.Table.Classify]), decoded into a
// [table.ItemChange] exactly as reads decode items, and handed to the
// handler. The engine's own items (unique guards, counter shards, job and
// feed checkpoints) never reach an entity's handler; a record of no
// declared entity is reported, never dropped silently.
//
// Records come from the Streams API ([FromStreams], [ReadAll], and a
// [Consumer] that follows a table's stream with checkpoints kept in the
// table) or from an AWS Lambda stream event (package
// table/feed/lambdafeed, which alone imports aws-lambda-go).
//
// # Following a stream
//
// A [Consumer] reads every shard of the stream, a closed shard before its
// children, and hands each shard's records in order to a [BatchHandler]
// (a *Router is one). After each batch it writes the shard's checkpoint,
// an item of the table itself (PK _FEED#{name}, SK SHARD#{shardId},
// entity type "_feed"), on a condition that it only moves forward; a
// restart resumes after the last record handled:
//
//	r := feed.NewRouter(tbl)
//	feed.Handle(r, jobs, func(ctx context.Context, c table.ItemChange[Job]) error { ... })
//	c := &feed.Consumer{Table: tbl, Name: "job-queue", Handler: r}
//	err := c.Run(ctx) // nil when ctx ends; else a *table.RecordError or ErrCheckpoint
//
// [Consumer.CatchUp] reads to the current end and returns (tests, batch
// jobs); NoCheckpoint keeps positions in memory only and writes nothing
// (`singletable tail`).
//
// # Delivery: at least once, in order per key
//
// Every record of the stream reaches the handler at least once, and each
// key's records in the order they were written (a key lives in one shard
// at a time, and a shard's children are read only after it). A record may
// reach the handler again after a fault, always with the same
// [table.Record.ID]: handlers are idempotent by design. Key their effects
// by the record's ID (a deduplication ID, a conditional write of "ID
// applied"), or make them conditional on what they change (a version, a
// status transition). How often a record is delivered again is bounded:
// never more than the batch that was in flight (BatchSize records) per
// shard per fault.
//
// The checkpoint writes are records of the stream too. A [Router] skips
// them (or hands them to its Library handler); a batch made only of
// change-feed checkpoint records is not itself checkpointed, so a
// consumer never writes a checkpoint because of its own (or another
// consumer's) checkpoint: a quiet table stays quiet.
//
// # Under faults
//
// What holds under each fault, and the test that shows it against
// DynamoDB Local's real stream (faults it never produces are injected in
// front of it):
//
//	fault                                    what happens                                                 test
//	---------------------------------------  -----------------------------------------------------------  -----------------------------------------------
//	stopped (ctx ends) mid-batch; the        the records it reported are checkpointed (one last write,    TestConsumerRestart/reported
//	  handler reported what it handled         5 s at most); Run returns nil; the next run starts after
//	                                           them: none twice, none skipped
//	killed mid-batch before the handler      the next run delivers that batch again from its first        TestConsumerRestart/killed
//	  reported (a crash)                       record: the records seen of the in-flight batch twice,
//	                                           none skipped
//	a handler's error                        the rest of the batch is handed again Attempts times with    TestConsumerHandlerError
//	                                           backoff; then Run returns it as a *table.RecordError naming
//	                                           the record; the checkpoint is at the last record handled
//	                                           (a handler that handled n records of the batch has those n
//	                                           checkpointed); the next run starts at the failing record
//	a handler's error that clears up         a delay: the record is handed again and the run goes on      TestConsumerHandlerError
//	an expired shard iterator                a new one after the last record handled: nothing skipped,    TestConsumerFaults/expired_iterator
//	  (ExpiredIteratorException)               nothing repeated
//	throttling of GetRecords, GetShard-      the SDK's retries, then the consumer's own: capped, jittered  TestConsumerFaults/*_throttled
//	  Iterator or DescribeStream               exponential backoff (Backoff to MaxBackoff) for as long as
//	  (LimitExceededException, Provisioned-    ctx lasts; nothing skipped, nothing repeated
//	  ThroughputExceeded, ThrottlingException)
//	a GetRecords response lost (the call     the SDK sends the same iterator again and gets the same      TestConsumerFaults/GetRecords_response_lost
//	  answered, the answer dropped)            records: nothing skipped, nothing repeated
//	a checkpoint write throttled             retried as above: nothing repeated                           TestConsumerFaults/checkpoint_write_throttled
//	a checkpoint write's response lost       the SDK sends it again; the condition admits the same        TestConsumerFaults/checkpoint_write_response_lost
//	                                           position: nothing repeated
//	a checkpoint write refused (access,      Run returns ErrCheckpoint; the next run delivers again the   TestConsumerFaults/checkpoint_write_refused
//	  validation)                              batch whose checkpoint was not written
//	a shard split (the shard closes, its     the parent is read to its end and its checkpoint marked      TestConsumerParentShardFirst
//	  children open)                           done before any child is read; a restart skips done shards
//	a checkpoint older than the stream       TrimmedDataAccessException: logged, and reading continues    TestConsumerTrimmedCheckpoint
//	  keeps (down > 24 h on AWS)               at the trim horizon (what DynamoDB deleted is lost)
//	the consumer's own checkpoint records    not checkpointed: two consumers polling a quiet table write  TestConsumerNoCheckpointLoop
//	                                           one checkpoint each, not one per poll
//
// Two consumers with one Name running at once both deliver every record;
// the checkpoint keeps the furthest position (TestConsumerTwoOfOneName). Start (TrimHorizon or
// Latest) applies only while a consumer has no checkpoint at all; with
// Latest, until the first batch of a shard is checkpointed its position
// lives in memory, so a restart before then starts at the latest record
// again.
package feed
