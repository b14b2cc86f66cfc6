package feed_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/tabletest"
)

// benchJob is a job as ListBackup stores one: the fields a queue handler
// reads, with their attribute names.
type benchJob struct {
	JobID      string            `dynamo:"jobId" dynamodbav:"jobId"`
	AccountID  string            `dynamo:"accountId" dynamodbav:"accountId"`
	SourceID   string            `dynamo:"sourceId" dynamodbav:"sourceId"`
	Type       string            `dynamo:"type" dynamodbav:"type"`
	SubType    string            `dynamo:"subType" dynamodbav:"subType"`
	Status     string            `dynamo:"status" dynamodbav:"status"`
	Priority   string            `dynamo:"priority" dynamodbav:"priority"`
	Progress   int64             `dynamo:"progress" dynamodbav:"progress"`
	RetryCount int64             `dynamo:"retryCount" dynamodbav:"retryCount"`
	MaxRetries int64             `dynamo:"maxRetries" dynamodbav:"maxRetries"`
	CreatedAt  int64             `dynamo:"createdAt" dynamodbav:"createdAt"`
	UpdatedAt  int64             `dynamo:"updatedAt" dynamodbav:"updatedAt"`
	Config     map[string]string `dynamo:"config" dynamodbav:"config"`
}

// rawRecords reads every record of t's stream as the Streams API returns
// them (the input of both sides of the benchmark).
func rawRecords(tb testing.TB, t *table.Table) []st.Record {
	tb.Helper()
	ctx := context.Background()
	arn, err := feed.StreamARN(ctx, t)
	if err != nil {
		tb.Fatal(err)
	}
	sc := feed.StreamsClient(t.Client())
	shards, err := feed.Shards(ctx, sc, arn)
	if err != nil {
		tb.Fatal(err)
	}
	var out []st.Record
	for _, s := range shards {
		it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: &arn, ShardId: s.ShardId, ShardIteratorType: st.ShardIteratorTypeTrimHorizon})
		if err != nil {
			tb.Fatal(err)
		}
		for iter := it.ShardIterator; iter != nil; {
			page, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
			if err != nil {
				tb.Fatal(err)
			}
			if len(page.Records) == 0 {
				break
			}
			out = append(out, page.Records...)
			iter = page.NextShardIterator
		}
	}
	return out
}

// handStreamsValue is the conversion every Go service on the Streams API
// writes by hand: the Streams API's attribute values into the DynamoDB
// API's, so that attributevalue can decode them.
func handStreamsValue(v st.AttributeValue) types.AttributeValue {
	switch v := v.(type) {
	case *st.AttributeValueMemberS:
		return &types.AttributeValueMemberS{Value: v.Value}
	case *st.AttributeValueMemberN:
		return &types.AttributeValueMemberN{Value: v.Value}
	case *st.AttributeValueMemberB:
		return &types.AttributeValueMemberB{Value: v.Value}
	case *st.AttributeValueMemberBOOL:
		return &types.AttributeValueMemberBOOL{Value: v.Value}
	case *st.AttributeValueMemberNULL:
		return &types.AttributeValueMemberNULL{Value: v.Value}
	case *st.AttributeValueMemberSS:
		return &types.AttributeValueMemberSS{Value: v.Value}
	case *st.AttributeValueMemberNS:
		return &types.AttributeValueMemberNS{Value: v.Value}
	case *st.AttributeValueMemberBS:
		return &types.AttributeValueMemberBS{Value: v.Value}
	case *st.AttributeValueMemberL:
		l := make([]types.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = handStreamsValue(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	case *st.AttributeValueMemberM:
		return &types.AttributeValueMemberM{Value: handStreamsItem(v.Value)}
	}
	return nil
}

func handStreamsItem(m map[string]st.AttributeValue) map[string]types.AttributeValue {
	if m == nil {
		return nil
	}
	out := make(map[string]types.AttributeValue, len(m))
	for k, v := range m {
		out[k] = handStreamsValue(v)
	}
	return out
}

// BenchmarkRouteRecords decodes and routes real stream records (500 jobs
// created, then each modified: 1,000 records, and the engine's own
// records, if any) two ways in one run: the library (FromStreams, then
// Router.Route to a typed handler: classification, both images decoded,
// changed fields) and by hand with the SDK (the attribute values
// converted, the type attribute checked, both images decoded with
// attributevalue.UnmarshalMap). It reports records per second and client
// CPU per record of each, and their ratios ([pairedCPU]).
func BenchmarkRouteRecords(b *testing.B) {
	tbl := tabletest.NewTable(b, table.NewSchema("feedbench", table.WithStream(types.StreamViewTypeNewAndOldImages)))
	jobs := table.NewEntity(tbl, table.Def[benchJob]{Type: "Job", Keys: table.Template{PK: "JOB#{jobId}", SK: "JOB"},
		IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "ACCOUNT#{accountId}", SK: "JOB#{createdAt}#{jobId}"}}})
	ctx := context.Background()
	const n = 500
	for i := range n {
		j := benchJob{JobID: fmt.Sprintf("job-%04d", i), AccountID: "acct-1", SourceID: "src-1", Type: "backup", SubType: "full",
			Status: "pending", Priority: "normal", MaxRetries: 3, CreatedAt: time.Now().Unix(), UpdatedAt: time.Now().Unix(),
			Config: map[string]string{"destination": "s3://bucket/path", "compression": "gzip"}}
		if err := jobs.Create(ctx, &j); err != nil {
			b.Fatal(err)
		}
		if _, err := jobs.Update(ctx, jobs.Key(j), func(j *benchJob) error { j.Status, j.Progress = "running", 10; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	recs := rawRecords(b, tbl)
	if len(recs) < 2*n {
		b.Fatalf("%d records, want at least %d", len(recs), 2*n)
	}
	var seen int
	r := feed.NewRouter(tbl)
	feed.Handle(r, jobs, func(_ context.Context, c table.ItemChange[benchJob]) error {
		if c.New != nil && c.New.JobID != "" {
			seen++
		}
		return nil
	})
	lib := func() error {
		for _, raw := range recs {
			rec, err := feed.FromStreams("shard", raw)
			if err != nil {
				return err
			}
			if err := r.Route(ctx, rec); err != nil {
				return err
			}
		}
		return nil
	}
	hand := func() error {
		for _, raw := range recs {
			d := raw.Dynamodb
			img := handStreamsItem(d.NewImage)
			old := handStreamsItem(d.OldImage)
			if ty, ok := img["_type"].(*types.AttributeValueMemberS); !ok || ty.Value != "Job" {
				continue
			}
			var nw, was benchJob
			if err := attributevalue.UnmarshalMap(img, &nw); err != nil {
				return err
			}
			if old != nil {
				if err := attributevalue.UnmarshalMap(old, &was); err != nil {
					return err
				}
			}
			if nw.JobID != "" && aws.ToString(raw.EventID) != "" {
				seen++
			}
		}
		return nil
	}
	pairedCPU(b, len(recs), lib, hand)
}

// pairedCPU is tabletest.Paired with the client's CPU time: every
// iteration runs lib and hand back to back, alternating which goes first,
// and it reports each side's records per second of wall time and CPU
// nanoseconds per record (tabletest.SelfCPU: user and system time of this process, GC
// included: both sides are pure client work, DynamoDB Local runs in
// another process), and the ratios (lib-over-hand throughput, 1.0 is as
// fast; lib-over-hand CPU, 1.0 is as much).
func pairedCPU(b *testing.B, records int, lib, hand func() error) {
	b.Helper()
	var wall, cpu [2]time.Duration
	n := 0
	for b.Loop() {
		order := [2]int{0, 1}
		if n%2 == 1 {
			order = [2]int{1, 0}
		}
		n++
		for _, side := range order {
			f := lib
			if side == 1 {
				f = hand
			}
			c0, t0 := tabletest.SelfCPU(), time.Now()
			if err := f(); err != nil {
				b.Fatal(err)
			}
			wall[side] += time.Since(t0)
			cpu[side] += tabletest.SelfCPU() - c0
		}
	}
	if n == 0 || wall[0] == 0 || cpu[0] == 0 {
		return
	}
	recs := float64(n * records)
	b.ReportMetric(recs/wall[0].Seconds(), "lib-records/s")
	b.ReportMetric(recs/wall[1].Seconds(), "hand-records/s")
	b.ReportMetric(float64(cpu[0].Nanoseconds())/recs, "lib-cpu-ns/record")
	b.ReportMetric(float64(cpu[1].Nanoseconds())/recs, "hand-cpu-ns/record")
	b.ReportMetric(float64(wall[1])/float64(wall[0]), "lib/hand-throughput")
	b.ReportMetric(float64(cpu[0])/float64(cpu[1]), "lib/hand-cpu")
	b.ReportMetric(float64(records), "records/op")
}
