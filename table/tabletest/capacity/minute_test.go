package capacity_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// hit is an item of one hot partition.
type hit struct {
	ID   string `dynamo:"id"`
	Body string `dynamo:"body"`
}

var hitDef = table.Def[hit]{
	Type:      "Hit",
	Keys:      table.Template{PK: "HOT", SK: "HIT#{id}"},
	IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "HITS#{id:shard4}", SK: "HIT#{id}"}},
}

// minuteFixture returns a metered entity of hits on a client that retries
// as RunMinute expects, and an unmetered one to check what is stored.
func minuteFixture(t *testing.T) (*capacity.Meter, *table.Table, *table.Entity[hit], *table.Entity[hit]) {
	t.Helper()
	tbl := tabletest.NewTable(t, table.NewSchema("minute", table.WithIndexCount(1)))
	m := capacity.NewMeter(tabletest.Client(t))
	metered := table.New(tabletest.NewClient(t, m.Option(), capacity.MinuteRetries()), tbl.Schema(), func(o *table.Options) {
		o.Cipher, o.BatchBackoff = tabletest.Cipher(), time.Microsecond
	})
	m.Learn(metered)
	return m, metered, table.NewEntity(metered, hitDef), table.NewEntity(tbl, hitDef)
}

// TestRunMinuteRetriesEveryThrottle: 1,500 writes/s on one partition key
// (1.5 times its limit) for a modeled 4 s, at scale 0.01 (15 calls a
// modeled second against 10 WCU): the meter refuses what passes the limit
// in each second; single writes are retried by the SDK, transactions by
// the engine, each a modeled backoff later; the calls that run out of
// attempts fail with table.ErrThrottled and store nothing; every call that
// succeeded is stored, once. At 500 writes/s nothing is throttled.
func TestRunMinuteRetriesEveryThrottle(t *testing.T) {
	t.Parallel()
	m, tb, hits, check := minuteFixture(t)
	c := context.Background()
	write := func(prefix string) func(context.Context, int) error {
		return func(ctx context.Context, i int) error {
			h := &hit{ID: fmt.Sprintf("%s%03d", prefix, i), Body: "x"}
			if i%2 == 0 {
				return hits.Create(ctx, h) // one conditional PutItem: the SDK retries
			}
			op, err := hits.PutOp(h)
			if err != nil {
				return err
			}
			return tb.Transact(ctx, op) // a transaction: the engine retries
		}
	}
	res := capacity.RunMinute(t, m, capacity.Minute{Name: "hot", PerSecond: 1500, Seconds: 4, Scale: 0.01, Call: write("h")})
	if res.Calls != 60 || res.Throttles == 0 || res.RetriedBySDK == 0 || res.RetriedByEngine == 0 || res.GivenUp == 0 || res.Failed == 0 {
		t.Errorf("1.5x the limit: %+v, want throttles retried by both and some given up", res)
	}
	if res.Throttled["table HOT"] != res.Throttles {
		t.Errorf("throttled on %v, want all %d on table HOT", res.Throttled, res.Throttles)
	}
	if res.PerSecond.Write < 1000 || res.PerSecond.Write > 1200 {
		t.Errorf("hottest key-second %s at s%d: %s, want the limit, 1,000 WCU, or past it by the last write let in (2 WCU at scale 0.01)", res.Hottest, res.Second, res.PerSecond)
	}
	for i := range res.Calls {
		_, err := check.Get(c, table.Key{PK: "HOT", SK: fmt.Sprintf("HIT#h%03d", i)})
		if failed := res.Errors[i] != nil; failed != errors.Is(err, table.ErrNotFound) {
			t.Errorf("call %d: error %v, read back: %v", i, res.Errors[i], err)
		}
	}
	stored := 0
	for _, err := range check.ListAll(c, table.Query{PK: "HOT"}) {
		if err != nil {
			t.Fatal(err)
		}
		stored++
	}
	if stored != res.Calls-res.Failed {
		t.Errorf("%d stored, want %d calls - %d failed", stored, res.Calls, res.Failed)
	}

	cold := capacity.RunMinute(t, m, capacity.Minute{Name: "cold", PerSecond: 500, Seconds: 4, Scale: 0.01, Call: write("c")})
	if cold.Throttles != 0 || cold.Failed != 0 || cold.Calls != 20 {
		t.Errorf("half the limit: %+v, want nothing throttled", cold)
	}
}

// TestRunMinuteCatchesASwallowedThrottle: a call that drops a throttled
// request (sent once, never retried) and reports success, or fails
// otherwise than by throttling, fails the run.
func TestRunMinuteCatchesASwallowedThrottle(t *testing.T) {
	t.Parallel()
	m, _, _, _ := minuteFixture(t)
	tbl := tabletest.NewTable(t, table.NewSchema("minute", table.WithIndexCount(1)))
	client := tabletest.NewClient(t, m.Option(), capacity.MinuteRetries(), func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
	name := tbl.Name()
	r := &recorder{TB: t}
	capacity.RunMinute(r, m, capacity.Minute{Name: "swallow", PerSecond: 3000, Seconds: 1, Scale: 0.01, Call: func(ctx context.Context, i int) error {
		_, _ = client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: item("HOT", fmt.Sprint(i), "", 100)})
		if i == 29 {
			return errors.New("boom")
		}
		return nil // drops the error
	}})
	all := strings.Join(r.errors, "\n")
	if !strings.Contains(all, "a throttle was swallowed") || !strings.Contains(all, "call 29 failed, not by throttling: boom") {
		t.Errorf("errors: %s", all)
	}
}
