package ferryhook_test

import (
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// FH-8 by a located ID (one the library minted) is one strongly
// consistent GetItem, and so is UpdateStatus one UpdateItem; an ID in the
// running service's format (evt_ + nanoid(16)) takes the GSI1 path; a
// located ID with no event behind it is ErrNotFound (issue 22).
func TestEventByLocatedID_FH8(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	u := mustUser(t, f.store, "located@example.com")
	src := mustSource(t, f.store, u.UserID, "stripe")
	rc := &tabletest.RequestCounter{}
	client := tabletest.NewClient(t, rc.Option())
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	s := ferryhook.New(table.New(client, f.main.Schema(), withCipher), table.New(client, f.events.Schema(), withCipher))

	ev, err := s.Events.Create(ctx(t), eventInput(src, time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, ok := ev.EventID.Location(); !ok {
		t.Fatalf("the library minted %q, not a located ID", ev.EventID)
	}
	rc.Reset()
	got, err := s.Events.GetByID(ctx(t), ev.EventID)
	if err != nil || got.EventID != ev.EventID {
		t.Fatalf("GetByID: %v, %v", got.EventID, err)
	}
	if _, err := s.Events.UpdateStatus(ctx(t), ev.EventID, fh.EventDelivered); err != nil {
		t.Fatal(err)
	}
	if rc.Total() != 2 || rc.Of("GetItem") != 1 || rc.Of("UpdateItem") != 1 {
		t.Errorf("GetByID and UpdateStatus of a located ID: %d requests (%d GetItem, %d UpdateItem), want 1 each", rc.Total(), rc.Of("GetItem"), rc.Of("UpdateItem"))
	}

	// An event the service wrote, under its 20-character ID.
	svc := ev
	svc.EventID = fh.NewEventID()
	k, err := ferryhook.EventKey(svc.SourceID, svc.ReceivedAt, svc.EventID)
	if err != nil {
		t.Fatal(err)
	}
	item, err := attributevalue.MarshalMap(map[string]any{"PK": k.PK, "SK": k.SK, "GSI1PK": "EVTID#" + string(svc.EventID), "GSI1SK": "EVENT",
		"eventId": string(svc.EventID), "sourceId": string(svc.SourceID), "userId": string(svc.UserID), "status": "received",
		"body": "{}", "receivedAt": int64(svc.ReceivedAt), "expiresAt": svc.ExpiresAt})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.events.Client().PutItem(ctx(t), &dynamodb.PutItemInput{TableName: aws.String(f.events.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	rc.Reset()
	if got, err := s.Events.GetByID(ctx(t), svc.EventID); err != nil || got.EventID != svc.EventID {
		t.Fatalf("GetByID of the service's ID: %v, %v", got.EventID, err)
	}
	if rc.Total() != 2 || rc.Of("Query") != 1 {
		t.Errorf("GetByID of the service's ID: %d requests (%d Query), want GSI1 + GetItem", rc.Total(), rc.Of("Query"))
	}
	missing := fh.NewLocatedEventID(src.SourceID, ev.ReceivedAt, 0)
	if _, err := s.Events.GetByID(ctx(t), missing); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("GetByID of a located ID with no event: %v, want ErrNotFound", err)
	}
	if _, err := s.Events.UpdateStatus(ctx(t), missing, fh.EventDelivered); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("UpdateStatus of a located ID with no event: %v, want ErrNotFound", err)
	}
}
