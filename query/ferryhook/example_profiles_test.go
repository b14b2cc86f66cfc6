package ferryhook_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/tabletest"
)

// The cheapest ingest (issue 44): in the stream-counted profile each
// ingest is one PutItem of the event (FH-12), and a consumer of the events
// table's stream adds each batch's events to the source's and the owner's
// counters exactly once (FH-16, Store.CountsHandler). The free plan's
// monthly limit, here 3 events (Options.PlanLimit; the service's own is
// 5,000), refuses the ingest past it with ErrPlanLimit before anything is
// sent. It runs against DynamoDB Local.
func ExampleStreamCountedProfile() {
	t, done := tabletest.ForExample("ExampleStreamCounted")
	defer done()
	ctx := context.Background()
	main := tabletest.NewTable(t, ferryhook.MainSchema(ferryhook.DefaultMainTable))
	events := tabletest.NewTable(t, ferryhook.EventsSchema(ferryhook.DefaultEventsTable, table.WithStream(types.StreamViewTypeNewAndOldImages)))
	s := ferryhook.New(main, events, ferryhook.StreamCountedProfile(), func(o *ferryhook.Options) {
		o.PlanLimit = func(p fh.Plan) int64 {
			if p == fh.PlanFree {
				return 3
			}
			return 0 // paid plans: overage billed, never refused
		}
	})

	u, err := s.Users.Create(ctx, ferryhook.CreateUserInput{Email: "ops@example.com", Name: "Ops", GitHubID: "7", Plan: fh.PlanFree})
	if err != nil {
		panic(err)
	}
	src, err := s.Sources.Create(ctx, u.UserID, ferryhook.CreateSourceInput{Name: "Stripe Prod", Provider: fh.ProviderStripe})
	if err != nil {
		panic(err)
	}
	for i := range 4 {
		_, err := s.Ingest(ctx, src.SourceID, ferryhook.IngestRequest{Body: fmt.Sprintf(`{"n":%d}`, i), Method: "POST"})
		var limit *ferryhook.PlanLimitError
		switch {
		case errors.As(err, &limit):
			fmt.Println("event", i+1, "refused:", errors.Is(err, ferryhook.ErrPlanLimit), "limit", limit.Limit)
		case err != nil:
			panic(err)
		}
	}

	// The counts follow the stream: one consumer, checkpoints in the table.
	c := &feed.Consumer{Table: events, Name: "ferryhook-counts", Handler: s.CountsHandler()}
	if err := c.CatchUp(ctx); err != nil {
		panic(err)
	}
	counts, err := s.Sources.Counts(ctx, u.UserID, src.SourceID)
	if err != nil {
		panic(err)
	}
	usage, err := s.Users.Usage(ctx, u.UserID)
	if err != nil {
		panic(err)
	}
	fmt.Println("counted:", counts.EventCount, "usage:", usage)
	// Output:
	// event 4 refused: true limit 3
	// counted: 3 usage: 3
}
