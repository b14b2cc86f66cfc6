// Command ferryhook walks Ferryhook's data layer through a real flow
// against DynamoDB (DynamoDB Local unless DYNAMODB_ENDPOINT is set): sign
// up, create a source and a connection, create and use an API key, ingest
// events, record delivery attempts, and page through the newest events,
// printing each access pattern with its catalog ID and its result.
//
//	go run ./examples/ferryhook
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/internal/exampleenv"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := run(ctx); err != nil {
		log.Fatal(err)
	}
}

func step(id, what string, result any) { fmt.Printf("%-6s %-50s %v\n", id, what, result) }

func run(ctx context.Context) error {
	client, keep, stop, err := exampleenv.Open(ctx)
	if err != nil {
		return err
	}
	defer stop()

	// Signing secrets are encrypted before they reach DynamoDB (the tables
	// get exampleenv's cipher).
	main, dropMain, err := exampleenv.Table(ctx, client, keep, ferryhook.MainSchema(ferryhook.DefaultMainTable))
	if err != nil {
		return err
	}
	defer dropMain()
	events, dropEvents, err := exampleenv.Table(ctx, client, keep, ferryhook.EventsSchema(ferryhook.DefaultEventsTable))
	if err != nil {
		return err
	}
	defer dropEvents()
	fmt.Fprintf(os.Stderr, "tables %s and %s\n", main.Name(), events.Name())
	s := ferryhook.New(main, events)

	u, err := s.Users.Create(ctx, ferryhook.CreateUserInput{Email: " Ada@Example.com ", Name: "Ada", GitHubID: "583231", Plan: fh.PlanStarter})
	if err != nil {
		return err
	}
	step("FH-11", "users.create", fmt.Sprintf("%s <%s> plan %s", u.UserID, u.Email, u.Plan))
	_, err = s.Users.Create(ctx, ferryhook.CreateUserInput{Email: "ada@example.com", Name: "Eve", GitHubID: "1"})
	step("FH-2", "users.create with a taken email", errors.Is(err, ferryhook.ErrEmailTaken))
	if got, err := s.Users.ByID.Get(ctx, fh.User{UserID: u.UserID}); err == nil {
		step("FH-1", "users.getById", got.Name)
	} else {
		return err
	}
	if got, err := s.Users.GetByEmail(ctx, "ADA@example.com"); err == nil {
		step("FH-2", "users.getByEmail (GSI1 EMAIL#)", got.UserID)
	} else {
		return err
	}

	src, err := s.Sources.Create(ctx, u.UserID, ferryhook.CreateSourceInput{Name: "Stripe Prod", Provider: fh.ProviderStripe, SigningSecret: "whsec_stripe"})
	if err != nil {
		return err
	}
	step("FH-11", "sources.create", fmt.Sprintf("%s %q %s", src.SourceID, src.Name, src.SigningAlgorithm))
	if p, err := s.Sources.ByUser.List(ctx, fh.Source{UserID: u.UserID}); err == nil {
		step("FH-3", "sources.listByUser (SK begins_with SRC#)", len(p.Items))
	} else {
		return err
	}
	if got, err := s.Sources.GetByID(ctx, src.SourceID); err == nil {
		step("FH-4", "sources.getById (GSI3 SRCID#)", got.UserID)
	} else {
		return err
	}

	conn, err := s.Connections.Create(ctx, u.UserID, src.SourceID, ferryhook.CreateConnectionInput{
		Name: "Billing service", DestinationURL: "https://billing.example.com/webhooks/stripe", Filters: `[{"type":"invoice.*"}]`})
	if err != nil {
		return err
	}
	step("FH-11", "connections.create", conn.ConnectionID)
	if p, err := s.Connections.BySource.List(ctx, fh.Connection{UserID: u.UserID, SourceID: src.SourceID}); err == nil {
		step("FH-5", "connections.listBySource (SK begins_with CONN#)", len(p.Items))
	} else {
		return err
	}

	key, err := s.APIKeys.Create(ctx, u.UserID, ferryhook.CreateAPIKeyInput{Name: "CI", Permissions: fh.PermissionWrite})
	if err != nil {
		return err
	}
	step("FH-11", "apiKeys.create (plaintext shown once)", key.APIKey.KeyPrefix+"…")
	who, err := s.APIKeys.Authenticate(ctx, key.Key)
	if err != nil {
		return err
	}
	step("FH-6", "authenticate API key (GSI2 KEYHASH#)", fmt.Sprintf("%s may write: %v", who.UserID, who.Permissions.Allows(fh.PermissionWrite)))
	if _, err := s.APIKeys.UpdateLastUsed(ctx, ferryhook.APIKeyRef{User: who.UserID, Key: who.KeyID}); err != nil {
		return err
	}
	if p, err := s.APIKeys.ByUser.List(ctx, fh.APIKey{UserID: u.UserID}); err == nil {
		step("FH-10", "apiKeys.listByUser (SK begins_with KEY#)", fmt.Sprintf("%d key(s), last used %s", len(p.Items), p.Items[0].LastUsedAt))
	} else {
		return err
	}

	var last fh.Event
	for i := range 7 {
		ev, err := s.Ingest(ctx, src.SourceID, ferryhook.IngestRequest{
			Headers: `{"content-type":["application/json"]}`, Body: fmt.Sprintf(`{"type":"invoice.paid","n":%d}`, i),
			SourceIP: "203.0.113.7", ContentType: "application/json", Method: "POST"})
		if err != nil {
			return err
		}
		last = ev
	}
	step("FH-12", "ingest x7: expiresAt = receivedAt + 7 days", last.ExpiresAt.Time().Sub(last.ReceivedAt.Time()).Round(time.Hour))
	gotSrc, _ := s.Sources.GetByID(ctx, src.SourceID)
	gotUser, _ := s.Users.ByID.Get(ctx, fh.User{UserID: u.UserID})
	step("FH-11", "counters (eventCount, usageThisMonth)", fmt.Sprintf("%d, %d", gotSrc.EventCount, gotUser.UsageThisMonth))

	if _, err := s.Events.UpdateStatus(ctx, last.EventID, fh.EventProcessing); err != nil {
		return err
	}
	for n, code := range []int{503, 200} {
		a, err := s.Attempts.Create(ctx, last.EventID, n+1, ferryhook.CreateAttemptInput{
			ConnectionID: conn.ConnectionID, DestinationURL: conn.DestinationURL, StatusCode: code,
			Latency: 85 * time.Millisecond, ExpiresAt: last.ExpiresAt})
		if err != nil {
			return err
		}
		if _, err := s.Connections.RecordDelivery(ctx, src.SourceID, conn.ConnectionID, a.Succeeded()); err != nil {
			return err
		}
	}
	done, err := s.Events.UpdateStatus(ctx, last.EventID, fh.EventDelivered)
	if err != nil {
		return err
	}
	step("FH-11", "events.updateStatus", done.Status)
	if got, err := s.Events.GetByID(ctx, last.EventID); err == nil {
		step("FH-8", "events.getById (GSI1 EVTID#)", fmt.Sprintf("%s %s", got.EventID, got.Status))
	} else {
		return err
	}
	if p, err := s.Attempts.ByEvent.List(ctx, fh.DeliveryAttempt{EventID: last.EventID}); err == nil {
		for _, a := range p.Items {
			step("FH-9", fmt.Sprintf("attempts.listByEvent #%d", a.AttemptNumber), a.StatusCode)
		}
	} else {
		return err
	}

	cursor := ""
	for page := 1; ; page++ {
		p, err := s.Events.ListBySource(ctx, src.SourceID, table.Limit(3), table.After(cursor))
		if err != nil {
			return err
		}
		var bodies []string
		for _, ev := range p.Items {
			bodies = append(bodies, ev.Body)
		}
		step("FH-7", fmt.Sprintf("events.listBySource newest first, page %d", page), bodies)
		if cursor = p.Cursor; cursor == "" {
			break
		}
	}
	mallory, err := s.Users.Create(ctx, ferryhook.CreateUserInput{Email: "mallory@example.com", Name: "Mallory", GoogleID: "g1"})
	if err != nil {
		return err
	}
	err = s.Sources.Delete(ctx, mallory.UserID, src.SourceID)
	step("FH-11", "sources.delete by another user", errors.Is(err, table.ErrNotFound))
	if err := s.APIKeys.Delete(ctx, ferryhook.APIKeyRef{User: u.UserID, Key: key.APIKey.KeyID}); err != nil {
		return err
	}
	_, err = s.APIKeys.Authenticate(ctx, key.Key)
	step("FH-11", "apiKeys.delete, then authenticate", errors.Is(err, ferryhook.ErrInvalidAPIKey))
	return nil
}
