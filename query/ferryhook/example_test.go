package ferryhook_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// A webhook's way through the store: sign-up, a source, an API key, one
// ingested event, read back newest first. It runs against DynamoDB Local.
func Example() {
	t, done := tabletest.ForExample("ExampleFerryhook")
	defer done()
	ctx := context.Background()
	main := tabletest.NewTable(t, ferryhook.MainSchema(ferryhook.DefaultMainTable))
	events := tabletest.NewTable(t, ferryhook.EventsSchema(ferryhook.DefaultEventsTable))
	s := ferryhook.New(main, events)

	u, err := s.Users.Create(ctx, ferryhook.CreateUserInput{Email: "Ada@Example.com", Name: "Ada", GitHubID: "42", Plan: fh.PlanPro})
	if err != nil {
		panic(err)
	}
	src, err := s.Sources.Create(ctx, u.UserID, ferryhook.CreateSourceInput{Name: "Stripe Prod", Provider: fh.ProviderStripe})
	if err != nil {
		panic(err)
	}
	key, err := s.APIKeys.Create(ctx, u.UserID, ferryhook.CreateAPIKeyInput{Name: "CI", Permissions: fh.PermissionWrite})
	if err != nil {
		panic(err)
	}
	who, err := s.APIKeys.Authenticate(ctx, key.Key) // FH-6
	if err != nil {
		panic(err)
	}
	ev, err := s.Ingest(ctx, src.SourceID, ferryhook.IngestRequest{Body: `{"type":"invoice.paid"}`, Method: "POST"})
	if err != nil {
		panic(err)
	}
	page, err := s.Events.ListBySource(ctx, src.SourceID, table.Limit(10)) // FH-7
	if err != nil {
		panic(err)
	}
	_, err = s.Users.Create(ctx, ferryhook.CreateUserInput{Email: "ada@example.com", Name: "Eve", GitHubID: "7"})

	fmt.Println("email stored as", u.Email)
	fmt.Println("key authenticates its owner:", who.UserID == u.UserID, who.Permissions)
	fmt.Println("pro plan keeps events", fh.PlanPro.Retention(), ev.ExpiresAt == fh.PlanPro.ExpiresAt(ev.ReceivedAt))
	fmt.Println("events listed:", len(page.Items), page.Items[0].Body)
	fmt.Println("second sign-up:", errors.Is(err, ferryhook.ErrEmailTaken))
	// Output:
	// email stored as ada@example.com
	// key authenticates its owner: true write
	// pro plan keeps events 720h0m0s true
	// events listed: 1 {"type":"invoice.paid"}
	// second sign-up: true
}

// The scaled profile: counters in 32 shards per source and per user, and a
// source's events over 64 partitions. A source created with one partition
// is switched live to 8 (issue 22); events ingested before and after are
// listed together, newest first, and read by ID with one GetItem. It runs
// against DynamoDB Local.
func ExampleSources_ShardEvents() {
	t, done := tabletest.ForExample("ExampleShardEvents")
	defer done()
	ctx := context.Background()
	main := tabletest.NewTable(t, ferryhook.MainSchema(ferryhook.DefaultMainTable))
	events := tabletest.NewTable(t, ferryhook.EventsSchema(ferryhook.DefaultEventsTable))
	s := ferryhook.New(main, events, ferryhook.ScaledProfile(), func(o *ferryhook.Options) {
		o.EventShards = 1 // new sources start in SRC#{sourceId}, switchable
	})

	u, err := s.Users.Create(ctx, ferryhook.CreateUserInput{Email: "ops@example.com", Name: "Ops", GitHubID: "9"})
	if err != nil {
		panic(err)
	}
	src, err := s.Sources.Create(ctx, u.UserID, ferryhook.CreateSourceInput{Name: "Stripe Prod", Provider: fh.ProviderStripe})
	if err != nil {
		panic(err)
	}
	ingest := func(body string) fh.Event {
		ev, err := s.Ingest(ctx, src.SourceID, ferryhook.IngestRequest{Body: body, Method: "POST"})
		if err != nil {
			panic(err)
		}
		return ev
	}
	before := ingest(`{"n":1}`)
	layout, err := s.Sources.ShardEvents(ctx, u.UserID, src.SourceID, 8) // a live switch
	if err != nil {
		panic(err)
	}
	after := ingest(`{"n":2}`)
	page, err := s.Events.ListBySource(ctx, src.SourceID, table.Limit(10)) // FH-7: every partition, merged
	if err != nil {
		panic(err)
	}
	got, err := s.Events.GetByID(ctx, after.EventID) // FH-8: one GetItem, the ID holds the partition
	if err != nil {
		panic(err)
	}
	counts, err := s.Sources.Counts(ctx, u.UserID, src.SourceID) // FH-13: exact, from the shards
	if err != nil {
		panic(err)
	}
	_, _, b0, _ := before.EventID.Location()
	_, _, b1, _ := after.EventID.Location()

	fmt.Println("partitions now:", layout.Shards())
	fmt.Println("first event in SRC#{sourceId}:", b0 == 0, "second in one of the 8:", b1 >= 1 && b1 <= 8)
	fmt.Println("listed newest first:", len(page.Items), page.Items[0].Body, page.Items[1].Body)
	fmt.Println("read by ID:", got.Body)
	fmt.Println("counted:", counts.EventCount)
	// Output:
	// partitions now: 8
	// first event in SRC#{sourceId}: true second in one of the 8: true
	// listed newest first: 2 {"n":2} {"n":1}
	// read by ID: {"n":2}
	// counted: 2
}
