package ferryhook_test

import (
	"context"
	"errors"
	"fmt"

	fh "github.com/singletable/singletable/entity/ferryhook"
	ferryhook "github.com/singletable/singletable/query/ferryhook"
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
