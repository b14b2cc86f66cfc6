package ferryhook_test

import (
	"context"
	"crypto/subtle"
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// rawEvent is the event as a hand-written aws-sdk-go-v2 data layer would
// declare it.
type rawEvent struct {
	PK          string `dynamodbav:"PK"`
	SK          string `dynamodbav:"SK"`
	GSI1PK      string `dynamodbav:"GSI1PK"`
	GSI1SK      string `dynamodbav:"GSI1SK"`
	EventID     string `dynamodbav:"eventId"`
	SourceID    string `dynamodbav:"sourceId"`
	UserID      string `dynamodbav:"userId"`
	Status      string `dynamodbav:"status"`
	Headers     string `dynamodbav:"headers"`
	Body        string `dynamodbav:"body"`
	SourceIP    string `dynamodbav:"sourceIp"`
	ContentType string `dynamodbav:"contentType"`
	Method      string `dynamodbav:"method"`
	ReceivedAt  int64  `dynamodbav:"receivedAt"`
	ProcessedAt int64  `dynamodbav:"processedAt,omitempty"`
	DeliveredAt int64  `dynamodbav:"deliveredAt,omitempty"`
	ExpiresAt   int64  `dynamodbav:"expiresAt"`
}

func benchStore(b *testing.B) (*ferryhook.Store, *table.Table, fh.Source) {
	b.Helper()
	s, main, events, src := benchSetup(b)
	benchMain = main.Name()
	return s, events, src
}

// benchSetup is the prologue of every Ferryhook benchmark: new main and
// events tables, a store on them with opts, and the user and source the
// benchmark works on.
func benchSetup(b *testing.B, opts ...func(*ferryhook.Options)) (s *ferryhook.Store, main, events *table.Table, src fh.Source) {
	b.Helper()
	main = tabletest.NewTable(b, ferryhook.MainSchema(ferryhook.DefaultMainTable))
	events = tabletest.NewTable(b, ferryhook.EventsSchema(ferryhook.DefaultEventsTable))
	s = ferryhook.New(main, events, append([]func(*ferryhook.Options){benchPlanLimit}, opts...)...)
	ctx := context.Background()
	u, err := s.Users.Create(ctx, ferryhook.CreateUserInput{Email: "bench@example.com", Name: "B", GitHubID: "1"})
	if err != nil {
		b.Fatal(err)
	}
	src, err = s.Sources.Create(ctx, u.UserID, ferryhook.CreateSourceInput{Name: "s", Provider: fh.ProviderStripe})
	if err != nil {
		b.Fatal(err)
	}
	return s, main, events, src
}

// benchPlanLimit gives the benchmarks' free-plan user a plan limit never
// reached (2^40 events): the plan limit's path runs as for any free user
// (its usage read once per Options.StateCheck, planlimit.go), but the
// thousands of events a benchmark ingests do not meet the free plan's
// 5,000.
func benchPlanLimit(o *ferryhook.Options) { o.PlanLimit = func(fh.Plan) int64 { return 1 << 40 } }

// benchMain is the main table of the last benchStore (benchmarks run one
// at a time).
var benchMain string

func rawPut(ctx context.Context, c *dynamodb.Client, tableName string, src fh.Source, at time.Time) error {
	return rawPutID(ctx, c, tableName, src, at, string(fh.NewEventID()))
}

func rawPutID(ctx context.Context, c *dynamodb.Client, tableName string, src fh.Source, at time.Time, id string) error {
	ms := at.UnixMilli()
	item, err := attributevalue.MarshalMap(rawEvent{
		PK: "SRC#" + string(src.SourceID), SK: "EVT#" + strconv.FormatInt(ms, 10) + "#" + id,
		GSI1PK: "EVTID#" + id, GSI1SK: "EVENT",
		EventID: id, SourceID: string(src.SourceID), UserID: string(src.UserID), Status: "received",
		Headers: `{"content-type":["application/json"]}`, Body: `{"type":"invoice.paid"}`, SourceIP: "203.0.113.7",
		ContentType: "application/json", Method: "POST", ReceivedAt: ms, ExpiresAt: ms/1000 + 2592000,
	})
	if err != nil {
		return err
	}
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(tableName), Item: item,
		ConditionExpression: aws.String("attribute_not_exists(PK)"),
	})
	return err
}

// BenchmarkIngestEvent stores one event (FH-11 events.create): through the
// library versus a hand-written PutItem with the same condition. The
// "paired" run interleaves both (see tabletest.Paired) and reports
// lib/raw-throughput.
func BenchmarkIngestEvent(b *testing.B) {
	s, events, src := benchStore(b)
	ctx := context.Background()
	lib := func() error { _, err := s.Events.Create(ctx, eventInput(src, time.Time{})); return err }
	raw := func() error { return rawPut(ctx, events.Client(), events.Name(), src, time.Now()) }
	tabletest.Compare(b, 200, lib, raw)
}

// BenchmarkListEvents50 reads one page of 50 events newest first (FH-7):
// through the library versus a hand-written Query decoded with
// attributevalue.
func BenchmarkListEvents50(b *testing.B) {
	s, events, src := benchStore(b)
	ctx := context.Background()
	base := time.Now().Add(-time.Hour)
	for i := range 120 {
		if _, err := s.Events.Create(ctx, eventInput(src, base.Add(time.Duration(i)*time.Millisecond))); err != nil {
			b.Fatal(err)
		}
	}
	lib := func() error {
		p, err := s.Events.ListBySource(ctx, src.SourceID, table.Limit(50))
		if err == nil && len(p.Items) != 50 {
			err = fmt.Errorf("%d events", len(p.Items))
		}
		return err
	}
	raw := func() error {
		out, err := events.Client().Query(ctx, &dynamodb.QueryInput{
			TableName:              aws.String(events.Name()),
			KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :evt)"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":pk":  &types.AttributeValueMemberS{Value: "SRC#" + string(src.SourceID)},
				":evt": &types.AttributeValueMemberS{Value: "EVT#"},
			},
			ScanIndexForward: aws.Bool(false),
			Limit:            aws.Int32(50),
		})
		if err != nil {
			return err
		}
		var evs []rawEvent
		if err := attributevalue.UnmarshalListOfMaps(out.Items, &evs); err != nil || len(evs) != 50 {
			return fmt.Errorf("%d events: %v", len(evs), err)
		}
		return nil
	}
	tabletest.Compare(b, 200, lib, raw)
}

// ingestBench is what both ingest benchmarks share: the store, the
// library call, and the event item a hand-written layer would put.
type ingestBench struct {
	s      *ferryhook.Store
	events *table.Table
	src    fh.Source
	ctx    context.Context
}

func newIngestBench(b *testing.B) ingestBench {
	s, events, src := benchStore(b)
	return ingestBench{s: s, events: events, src: src, ctx: context.Background()}
}

func (ib ingestBench) lib() error {
	_, err := ib.s.Ingest(ib.ctx, ib.src.SourceID, ferryhook.IngestRequest{Body: `{"type":"invoice.paid"}`, ContentType: "application/json", Method: "POST", SourceIP: "203.0.113.7"})
	return err
}

// rawItem returns a new event's item, its ID and its receivedAt in ms.
func (ib ingestBench) rawItem(now time.Time) (map[string]types.AttributeValue, string, int64, error) {
	id := string(fh.NewEventID())
	ms := now.UnixMilli()
	item, err := attributevalue.MarshalMap(rawEvent{
		PK: "SRC#" + string(ib.src.SourceID), SK: "EVT#" + strconv.FormatInt(ms, 10) + "#" + id,
		GSI1PK: "EVTID#" + id, GSI1SK: "EVENT",
		EventID: id, SourceID: string(ib.src.SourceID), UserID: string(ib.src.UserID), Status: "received",
		Body: `{"type":"invoice.paid"}`, SourceIP: "203.0.113.7", ContentType: "application/json", Method: "POST",
		ReceivedAt: ms, ExpiresAt: ms/1000 + 86400,
	})
	return item, id, ms, err
}

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func num(v int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}

// BenchmarkIngest is the webhook hot path (FH-4, FH-7, FH-12): Store.Ingest
// (one transaction in the steady state) versus the same three-action
// TransactWriteItems written by hand (event put, source counters
// conditioned on active, owner usage conditioned on the plan).
func BenchmarkIngest(b *testing.B) {
	ib := newIngestBench(b)
	ctx, events, src, mainName := ib.ctx, ib.events, ib.src, benchMain
	raw := func() error {
		item, _, ms, err := ib.rawItem(time.Now())
		if err != nil {
			return err
		}
		_, err = events.Client().TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String(events.Name()), Item: item, ConditionExpression: aws.String("attribute_not_exists(PK)")}},
			{Update: &types.Update{TableName: aws.String(mainName),
				Key:                       map[string]types.AttributeValue{"PK": str("USER#" + string(src.UserID)), "SK": str("SRC#" + string(src.SourceID))},
				UpdateExpression:          aws.String("ADD eventCount :one SET lastEventAt = :at"),
				ConditionExpression:       aws.String("attribute_exists(PK) AND #s = :active"),
				ExpressionAttributeNames:  map[string]string{"#s": "status"},
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1), ":at": str(time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)), ":active": str("active")}}},
			{Update: &types.Update{TableName: aws.String(mainName),
				Key:                       map[string]types.AttributeValue{"PK": str("USER#" + string(src.UserID)), "SK": str("PROFILE")},
				UpdateExpression:          aws.String("ADD usageThisMonth :one"),
				ConditionExpression:       aws.String("attribute_exists(PK) AND #p = :plan"),
				ExpressionAttributeNames:  map[string]string{"#p": "plan"},
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1), ":plan": str("free")}}},
		}})
		return err
	}
	tabletest.Compare(b, 100, ib.lib, raw)
}

// BenchmarkIngestSameGuarantees pairs Ingest with hand-written code that
// gives the same guarantees in its one transaction: expired items (TTL
// passed, not yet deleted) count as absent for the create and the
// updates, the item type is checked, counters cannot overflow, the
// version advances, and the ClientRequestToken lets a lost response be
// resolved (the updates' equality conditions on the items' state imply
// that the items exist). BenchmarkIngest pairs it with the minimal
// transaction; the difference between the two is the guarantees' cost on
// DynamoDB Local, not the library's.
func BenchmarkIngestSameGuarantees(b *testing.B) {
	ib := newIngestBench(b)
	ctx, events, src, mainName := ib.ctx, ib.events, ib.src, benchMain
	raw := func() error {
		now := time.Now()
		item, id, _, err := ib.rawItem(now)
		if err != nil {
			return err
		}
		token := id + ".wt"
		item["_type"], item["_v"] = str("Event"), num(1)
		nowS, at := num(now.Unix()), str(now.UTC().Format(time.RFC3339Nano))
		alive := "(attribute_not_exists(#ty) OR #ty = :ty) AND NOT #ttl BETWEEN :tiny AND :now"
		_, err = events.Client().TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(token), TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String(events.Name()), Item: item,
				ConditionExpression:                 aws.String("attribute_not_exists(#pk)"), // an expired item in the way: sent again on "... OR #ttl BETWEEN :tiny AND :now", as the library does
				ExpressionAttributeNames:            map[string]string{"#pk": "PK"},
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
			{Update: &types.Update{TableName: aws.String(mainName),
				Key:                       map[string]types.AttributeValue{"PK": str("USER#" + string(src.UserID)), "SK": str("SRC#" + string(src.SourceID))},
				UpdateExpression:          aws.String("SET lastEventAt = :at ADD eventCount :one, #v :one"),
				ConditionExpression:       aws.String(alive + " AND NOT eventCount > :max AND #s = :active"),
				ExpressionAttributeNames:  map[string]string{"#s": "status", "#ty": "_type", "#ttl": "ttl", "#v": "_v"},
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1), ":at": at, ":active": str("active"), ":ty": str("Source"), ":now": nowS, ":tiny": tiny, ":max": num(math.MaxInt64 - 1)}}},
			{Update: &types.Update{TableName: aws.String(mainName),
				Key:                       map[string]types.AttributeValue{"PK": str("USER#" + string(src.UserID)), "SK": str("PROFILE")},
				UpdateExpression:          aws.String("ADD usageThisMonth :one, #v :one"),
				ConditionExpression:       aws.String(alive + " AND NOT usageThisMonth > :max AND #p = :plan"),
				ExpressionAttributeNames:  map[string]string{"#p": "plan", "#ty": "_type", "#ttl": "ttl", "#v": "_v"},
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1), ":plan": str("free"), ":ty": str("User"), ":now": nowS, ":tiny": tiny, ":max": num(math.MaxInt64 - 1)}}},
		}})
		return err
	}
	tabletest.Compare(b, 100, ib.lib, raw)
}

// rawAPIKey is what a hand-written layer reads back for authentication.
type rawAPIKey struct {
	KeyID       string `dynamodbav:"keyId"`
	UserID      string `dynamodbav:"userId"`
	Name        string `dynamodbav:"name"`
	KeyHash     string `dynamodbav:"keyHash"`
	KeyPrefix   string `dynamodbav:"keyPrefix"`
	Permissions string `dynamodbav:"permissions"`
	CreatedAt   string `dynamodbav:"createdAt"`
}

// BenchmarkAuthenticate pairs FH-6 for a key the library minted (one
// consistent GetItem of the key item the plaintext names, which must hold
// the key's hash and its GSI2 key: issue 26) with the same GetItem, hash
// comparison and decode written by hand.
func BenchmarkAuthenticate(b *testing.B) {
	s, _, src := benchStore(b)
	ctx := context.Background()
	k, err := s.APIKeys.Create(ctx, src.UserID, ferryhook.CreateAPIKeyInput{Name: "ci", Permissions: fh.PermissionWrite})
	if err != nil {
		b.Fatal(err)
	}
	ik, err := ferryhook.APIKeyKey(src.UserID, k.APIKey.KeyID)
	if err != nil {
		b.Fatal(err)
	}
	client := tabletest.Client(b)
	key := map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: ik.PK},
		"SK": &types.AttributeValueMemberS{Value: ik.SK},
	}
	lib := func() error {
		got, err := s.APIKeys.Authenticate(ctx, k.Key)
		if err == nil && got.KeyID != k.APIKey.KeyID {
			err = fmt.Errorf("got key %s", got.KeyID)
		}
		return err
	}
	raw := func() error {
		out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(benchMain), Key: key, ConsistentRead: aws.Bool(true)})
		if err != nil {
			return err
		}
		if gsi, ok := out.Item["GSI2PK"].(*types.AttributeValueMemberS); !ok || gsi.Value != "KEYHASH#"+k.APIKey.KeyHash {
			return fmt.Errorf("key revoked")
		}
		var r rawAPIKey
		if err := attributevalue.UnmarshalMap(out.Item, &r); err != nil {
			return err
		}
		if r.KeyID != string(k.APIKey.KeyID) || subtle.ConstantTimeCompare([]byte(r.KeyHash), []byte(k.APIKey.KeyHash)) != 1 {
			return fmt.Errorf("got key %s", r.KeyID)
		}
		return nil
	}
	tabletest.Compare(b, 200, lib, raw)
	b.Run("paired", func(b *testing.B) { tabletest.Paired(b, lib, raw) })
}

// BenchmarkEventByID pairs FH-8 (Events.GetByID of an event the library
// created) with the running service's events.getById written by hand: one
// Query of GSI1 (EVTID#{eventId}, eventually consistent) decoded with
// attributevalue. The library's read is strongly consistent: a replay
// decides on the event's delivery status.
//
// The sub-benchmark "service-id" reads an event stored under an ID in the
// service's format (evt_ + nanoid(16)), which takes the index path (GSI1
// Query, then the consistent GetItem): the path every ID took before
// located IDs (issue 22).
//
// The sub-benchmark "sharded" reads an event the scaled profile ingested
// into one of its source's 64 partitions, against a hand-written
// consistent GetItem of the key its ID names (benchShardedEventByID).
func BenchmarkEventByID(b *testing.B) {
	s, events, src := benchStore(b)
	ctx := context.Background()
	ev, err := s.Events.Create(ctx, eventInput(src, time.Time{}))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("located", func(b *testing.B) { benchEventByID(b, s, events, ev) })
	svc := ev
	svc.EventID = fh.NewEventID()
	if err := rawPutID(ctx, events.Client(), events.Name(), src, svc.ReceivedAt.Time(), string(svc.EventID)); err != nil {
		b.Fatal(err)
	}
	b.Run("service-id", func(b *testing.B) { benchEventByID(b, s, events, svc) })
	b.Run("sharded", benchShardedEventByID)
}

func benchEventByID(b *testing.B, s *ferryhook.Store, events *table.Table, ev fh.Event) {
	ctx := context.Background()
	client := events.Client()
	lib := func() error {
		got, err := s.Events.GetByID(ctx, ev.EventID)
		if err == nil && got.EventID != ev.EventID {
			err = fmt.Errorf("got event %s", got.EventID)
		}
		return err
	}
	raw := func() error {
		out, err := client.Query(ctx, &dynamodb.QueryInput{
			TableName: aws.String(events.Name()), IndexName: aws.String("GSI1"), Limit: aws.Int32(1),
			KeyConditionExpression: aws.String("GSI1PK = :pk AND GSI1SK = :sk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":pk": &types.AttributeValueMemberS{Value: "EVTID#" + string(ev.EventID)},
				":sk": &types.AttributeValueMemberS{Value: "EVENT"},
			},
		})
		if err != nil {
			return err
		}
		if len(out.Items) != 1 {
			return fmt.Errorf("event not found")
		}
		var r rawEvent
		if err := attributevalue.UnmarshalMap(out.Items[0], &r); err != nil {
			return err
		}
		if r.EventID != string(ev.EventID) {
			return fmt.Errorf("got event %s", r.EventID)
		}
		return nil
	}
	tabletest.Compare(b, 200, lib, raw)
}

// tiny is DynamoDB's smallest positive number: the library's TTL
// conditions test expiry as "#ttl BETWEEN :tiny AND :now".
var tiny types.AttributeValue = &types.AttributeValueMemberN{Value: "1E-130"}
