package ferryhook_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// manualClock is a table clock (table.Options.Now) that moves only when
// told to; safe for concurrent use.
type manualClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// serviceSet writes attribute attr = value on the item at k directly, as
// the running service's own UpdateItem does: the item only, never the
// library's counter shards.
func serviceSet(t *testing.T, main *table.Table, k table.Key, attr, value string) {
	t.Helper()
	_, err := main.Client().UpdateItem(ctx(t), &dynamodb.UpdateItemInput{
		TableName: aws.String(main.Name()),
		Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK},
		},
		UpdateExpression:          aws.String("SET #a = :v"),
		ExpressionAttributeNames:  map[string]string{"#a": attr},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberS{Value: value}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// In the scaled profile the ingest transaction checks the counter shards'
// copies of the source's status and the owner's plan. The running service
// pauses a source, or changes a plan, on the item alone (FH-11, FH-12):
// within Options.StateCheck an ingesting store reads the items again,
// copies the change into the shards (a rollup), and refuses the paused
// source; from then on every store refuses it, even one that trusts what
// it remembers for an hour, by its own transaction. A plan changed by
// the service gives the next events the new plan's retention. Within
// StateCheck a steady-state ingest is still one request; the re-read
// costs one BatchGetItem.
func TestScaledIngestSeesForeignState_FH11_FH12(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, ferryhook.ScaledProfile())
	u := mustUser(t, f.store, "foreign@example.com")
	src := mustSource(t, f.store, u.UserID, "paused by the service")
	other := mustSource(t, f.store, u.UserID, "still active")

	rc := &tabletest.RequestCounter{}
	client := tabletest.NewClient(t, rc.Option())
	// The watchful store runs on a clock of its own (table.Options.Now),
	// moved by hand: on the wall clock the steady-state ingest below had
	// to follow the re-read within StateCheck, which a slow request under
	// go test -race on a loaded machine can miss (a second re-read, 2
	// requests), and the sleeps had to outlast StateCheck.
	clk := &manualClock{t: time.Now()}
	withClock := func(o *table.Options) { o.Cipher, o.Now = tabletest.Cipher(), clk.Now }
	const check = 2 * time.Second
	watchful := ferryhook.New(table.New(client, f.main.Schema(), withClock), table.New(client, f.events.Schema(), withClock),
		ferryhook.ScaledProfile(), func(o *ferryhook.Options) { o.StateCheck = check })
	trusting := scaledStore(t, f) // StateCheck: an hour
	for _, s := range []*ferryhook.Store{watchful, trusting} {
		for _, id := range []fh.SourceID{src.SourceID, other.SourceID} {
			if _, err := ingestOnce(ctx(t), s, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	rc.Reset()
	if _, err := ingestOnce(ctx(t), watchful, other.SourceID); err != nil {
		t.Fatal(err)
	}
	if rc.Total() != 1 {
		t.Errorf("a steady-state ingest within StateCheck took %d requests (%v), want 1", rc.Total(), rc.Ops())
	}

	// The service pauses the source on its item.
	sk, _ := ferryhook.SourceKey(u.UserID, src.SourceID)
	serviceSet(t, f.main, sk, "status", string(fh.StatusPaused))
	clk.Advance(check) // StateCheck has passed: the next ingest reads the items again
	rc.Reset()
	_, err := ingestOnce(ctx(t), watchful, src.SourceID)
	if !errors.Is(err, ferryhook.ErrSourcePaused) {
		t.Fatalf("ingest after the service paused the source: %v, want ErrSourcePaused", err)
	}
	if rc.Of("TransactWriteItems") > 1 {
		t.Errorf("the re-read sent %d transactions (%v), want at most the rollup's", rc.Of("TransactWriteItems"), rc.Ops())
	}
	// The shards now hold the pause: the trusting store is refused by its
	// own transaction.
	if _, err := ingestOnce(ctx(t), trusting, src.SourceID); !errors.Is(err, ferryhook.ErrSourcePaused) {
		t.Errorf("a store that remembers the source active: %v, want ErrSourcePaused (the shards' copy)", err)
	}
	n := storedEvents(t, f.store, src.SourceID)
	counts, err := f.store.Sources.Counts(ctx(t), u.UserID, src.SourceID)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 || counts.EventCount != 2 {
		t.Errorf("%d events stored, counted %d; want the 2 before the pause", n, counts.EventCount)
	}

	// The service's billing webhook moves the user to team.
	uk, _ := ferryhook.UserKey(u.UserID)
	serviceSet(t, f.main, uk, "plan", string(fh.PlanTeam))
	clk.Advance(check) // StateCheck has passed: the next ingest reads the items again
	ev, err := ingestOnce(ctx(t), watchful, other.SourceID)
	if err != nil {
		t.Fatal(err)
	}
	if want := fh.PlanTeam.ExpiresAt(ev.ReceivedAt); ev.ExpiresAt != want {
		t.Errorf("an event after the plan change expires at %v, want the team plan's %v", ev.ExpiresAt, want)
	}
	ev, err = ingestOnce(ctx(t), trusting, other.SourceID)
	if err != nil {
		t.Fatal(err)
	}
	if want := fh.PlanTeam.ExpiresAt(ev.ReceivedAt); ev.ExpiresAt != want {
		t.Errorf("the trusting store's event expires at %v, want the team plan's %v (its plan copy was refused, then read again)", ev.ExpiresAt, want)
	}
}
