package lambdafeed_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/feed/feedtest"
	"github.com/singletable/singletable/table/feed/lambdafeed"
	"github.com/singletable/singletable/table/tabletest"
)

func TestMain(m *testing.M) { tabletest.Main(m) }

// gadget has a field of every kind of attribute value: string and
// binary sets, a number set, binary, a list of maps, a map, a bool, and a
// secret.
type gadget struct {
	ID     string            `dynamo:"id"`
	Name   string            `dynamo:"name"`
	Price  float64           `dynamo:"price"`
	Tags   []string          `dynamo:"tags,set"`
	Sizes  []int             `dynamo:"sizes,set"`
	Blobs  [][]byte          `dynamo:"blobs,set"`
	Data   []byte            `dynamo:"data"`
	Parts  []part            `dynamo:"parts"`
	Attrs  map[string]string `dynamo:"attrs"`
	On     bool              `dynamo:"on"`
	Secret string            `dynamo:"secret"`
	Extra  table.Extra       `dynamo:"-"`
}

type part struct {
	N   int    `dynamo:"n"`
	Tag string `dynamo:"tag"`
}

type tag struct {
	Name string `dynamo:"name"`
}

type world struct {
	tbl     *table.Table
	gadgets *table.Entity[gadget]
	tags    *table.Entity[tag]
}

func newWorld(t testing.TB) world {
	tbl := tabletest.NewTable(t, table.NewSchema("lambda", table.WithStream(types.StreamViewTypeNewAndOldImages)))
	return world{
		tbl: tbl,
		gadgets: table.NewEntity(tbl, table.Def[gadget]{
			Type:     "Gadget",
			Keys:     table.Template{PK: "GADGET#{id}", SK: "GADGET"},
			UniqueOn: []string{"name"},
			Secrets:  []string{"secret"},
		}),
		tags: table.NewEntity(tbl, table.Def[tag]{Type: "Tag", Keys: table.Template{PK: "TAG#{name}", SK: "TAG"}}),
	}
}

// writeMix writes through the entities (creates, an update of every
// kind of value, a version-only rewrite, a unique value moved, a delete)
// and, as another service would, adds a NULL, a number spelled with a
// trailing zero and a nested map to a gadget.
func writeMix(t *testing.T, w world) {
	t.Helper()
	ctx := context.Background()
	g := gadget{
		ID: "g1", Name: "widget", Price: 9.99, Tags: []string{"red", "small"}, Sizes: []int{3, 1, 2},
		Blobs: [][]byte{{0, 1, 42}, {255}}, Data: []byte("\x00binary\xff"), Parts: []part{{1, "a"}, {2, "b"}},
		Attrs: map[string]string{"color": "red"}, On: true, Secret: "open sesame",
	}
	if err := w.gadgets.Create(ctx, &g); err != nil {
		t.Fatal(err)
	}
	if err := w.tags.Create(ctx, &tag{Name: "go"}); err != nil {
		t.Fatal(err)
	}
	k := w.gadgets.Key(gadget{ID: "g1"})
	if _, err := w.gadgets.Update(ctx, k, func(g *gadget) error {
		g.Name, g.Price, g.Tags, g.Parts, g.On, g.Secret = "gizmo", 12, []string{"blue"}, append(g.Parts, part{3, "c"}), false, "new secret"
		g.Attrs["size"] = "L"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.gadgets.Update(ctx, k, func(*gadget) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := w.tbl.Client().UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(w.tbl.Name()),
		Key:                       table.Item{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}},
		UpdateExpression:          aws.String("SET legacyNote = :null, legacyRate = :n, legacyMeta = :m"),
		ExpressionAttributeValues: table.Item{":null": &types.AttributeValueMemberNULL{Value: true}, ":n": &types.AttributeValueMemberN{Value: "1.50"}, ":m": &types.AttributeValueMemberM{Value: table.Item{"deep": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberN{Value: "-0.000100"}}}}}},
	}); err != nil {
		t.Fatal(err)
	}
	if err := w.gadgets.Delete(ctx, k); err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, tbl *table.Table) (string, []table.Record) {
	t.Helper()
	ctx := context.Background()
	arn, err := feed.StreamARN(ctx, tbl)
	if err != nil {
		t.Fatal(err)
	}
	return arn, feedtest.Records(t, ctx, tbl)
}

// lambdaEventJSON writes recs as the JSON event Lambda hands a function
// subscribed to the stream arn (docs.aws.amazon.com/lambda/latest/dg/with-ddb.html),
// written here from the records' values and nothing of lambdafeed.
func lambdaEventJSON(t *testing.T, arn string, recs []table.Record) []byte {
	t.Helper()
	var out []map[string]any
	for _, r := range recs {
		ddb := map[string]any{
			"ApproximateCreationDateTime": json.Number(strconv.FormatInt(r.At.Unix(), 10)),
			"Keys":                        lambdaItem(r.Keys),
			"SequenceNumber":              r.Sequence,
			"SizeBytes":                   100,
			"StreamViewType":              "NEW_AND_OLD_IMAGES",
		}
		if r.Old != nil {
			ddb["OldImage"] = lambdaItem(r.Old)
		}
		if r.New != nil {
			ddb["NewImage"] = lambdaItem(r.New)
		}
		rec := map[string]any{
			"eventID": r.ID, "eventName": r.Op, "eventVersion": "1.1", "eventSource": "aws:dynamodb",
			"awsRegion": "us-east-1", "dynamodb": ddb, "eventSourceARN": arn,
		}
		if r.PrincipalType != "" {
			rec["userIdentity"] = map[string]any{"type": r.PrincipalType, "principalId": r.PrincipalID}
		}
		out = append(out, rec)
	}
	b, err := json.Marshal(map[string]any{"Records": out})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func lambdaItem(m table.Item) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = lambdaValue(v)
	}
	return out
}

func lambdaValue(av types.AttributeValue) map[string]any {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": v.Value}
	case *types.AttributeValueMemberN:
		return map[string]any{"N": v.Value}
	case *types.AttributeValueMemberB:
		return map[string]any{"B": v.Value} // base64, as encoding/json writes []byte
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": v.Value}
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": true}
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": v.Value}
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": v.Value}
	case *types.AttributeValueMemberBS:
		return map[string]any{"BS": v.Value}
	case *types.AttributeValueMemberL:
		l := make([]any, len(v.Value))
		for i, e := range v.Value {
			l[i] = lambdaValue(e)
		}
		return map[string]any{"L": l}
	case *types.AttributeValueMemberM:
		return map[string]any{"M": lambdaItem(v.Value)}
	}
	panic(fmt.Sprintf("attribute value %T", av))
}

func decodeEvent(t *testing.T, b []byte) events.DynamoDBEvent {
	t.Helper()
	var ev events.DynamoDBEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

// exportAll lets cmp compare the SDK's attribute values (they hold an
// unexported field).
var exportAll = cmp.Exporter(func(reflect.Type) bool { return true })

// The same stream records, read with the Streams API and delivered as a
// Lambda event, convert to the same table.Record, value for value: every
// kind of attribute value, a number's spelling, NULL, binary, sets, lists
// and maps; a TTL removal keeps its service identity and is an expiry.
func TestFromEventMatchesStreams(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	writeMix(t, w)
	arn, recs := readAll(t, w.tbl)
	// DynamoDB's record of a TTL deletion: the removal, by the service.
	// DynamoDB Local does not expire items, so it is built as DynamoDB
	// writes it.
	i := slices.IndexFunc(recs, func(r table.Record) bool {
		cl := w.tbl.Classify(r)
		return r.Op == "REMOVE" && cl.Kind == table.KindEntity && cl.Entity.Type() == "Gadget"
	})
	if i < 0 {
		t.Fatal("no REMOVE of the gadget")
	}
	del := recs[i]
	ttl := del
	ttl.ID, ttl.PrincipalType, ttl.PrincipalID = "ttl-"+del.ID, "Service", table.TTLPrincipal
	recs = append(recs, ttl)

	b := lambdaEventJSON(t, arn, recs)
	ev := decodeEvent(t, b)
	if len(ev.Records) != len(recs) || ev.Records[len(recs)-1].UserIdentity == nil {
		t.Fatalf("the Lambda event holds %d records, want %d with the TTL identity", len(ev.Records), len(recs))
	}
	got, err := lambdafeed.FromEvent(ev)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]table.Record, len(recs))
	for i, r := range recs {
		r.Shard = "" // a Lambda event names its stream, not the shard
		want[i] = r
	}
	if d := cmp.Diff(want, got, exportAll); d != "" {
		t.Fatalf("Lambda event vs Streams API (-want +got):\n%s", d)
	}

	// The values a foreign writer added, in the converted record, kept as
	// written.
	var patched table.Record
	for _, r := range got {
		if r.New != nil && r.New["legacyRate"] != nil {
			patched = r
		}
	}
	if patched.New == nil {
		t.Fatal("no record of the foreign write")
	}
	if n := patched.New["legacyRate"].(*types.AttributeValueMemberN).Value; n != "1.50" && n != "1.5" {
		t.Errorf("legacyRate %q", n)
	}
	if _, ok := patched.New["legacyNote"].(*types.AttributeValueMemberNULL); !ok {
		t.Errorf("legacyNote %T, want NULL", patched.New["legacyNote"])
	}

	// Routed, every converted record decodes as its entity: the secret
	// unsealed, the foreign attributes kept in Extra, the TTL removal an
	// expiry.
	var gs []table.ItemChange[gadget]
	var lib, tags int
	r := feed.NewRouter(w.tbl)
	feed.Handle(r, w.gadgets, func(_ context.Context, c table.ItemChange[gadget]) error { gs = append(gs, c); return nil })
	feed.Handle(r, w.tags, func(context.Context, table.ItemChange[tag]) error { tags++; return nil })
	r.Library(func(context.Context, table.Record, string) error { lib++; return nil })
	resp, err := lambdafeed.Handle(context.Background(), r, ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("Handle: %+v, %v", resp, err)
	}
	var evs []string
	for _, c := range gs {
		evs = append(evs, c.Event.String())
	}
	if want := []string{"created", "modified", "modified", "modified", "removed", "expired"}; !slices.Equal(evs, want) {
		t.Fatalf("gadget events %v, want %v", evs, want)
	}
	if c := gs[1]; c.Old.Secret != "open sesame" || c.New.Secret != "new secret" || !slices.Equal(c.New.Tags, []string{"blue"}) || len(c.New.Parts) != 3 || c.BookkeepingOnly {
		t.Errorf("update: old %+v new %+v", c.Old, c.New)
	}
	if c := gs[2]; !c.BookkeepingOnly {
		t.Errorf("version-only rewrite: %+v", c)
	}
	if c := gs[3]; c.Old.Extra["legacyNote"] != nil || c.New.Extra["legacyNote"] == nil || c.New.Extra["legacyRate"] == nil || c.BookkeepingOnly {
		t.Errorf("foreign write: old extra %v new extra %v", c.Old.Extra, c.New.Extra)
	}
	if c := gs[5]; c.Old == nil || string(c.Old.Data) != "\x00binary\xff" || c.Old.Secret != "new secret" {
		t.Errorf("expiry: %+v", c.Old)
	}
	// Guards: widget created, widget removed and gizmo created on the
	// rename, gizmo removed with the gadget.
	if tags != 1 || lib != 4 {
		t.Errorf("tags %d, library records %d; want 1 and 4", tags, lib)
	}
}

// A handler that fails on the 3rd record: the response names that
// record's sequence number (Lambda retries from it), the records before
// it were handled once, the ones after it not at all; the retry from
// there handles the rest, so every record is handled exactly once.
func TestHandlePartialBatch(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	writeMix(t, w)
	arn, recs := readAll(t, w.tbl)
	if len(recs) < 5 {
		t.Fatalf("%d records", len(recs))
	}
	ev := decodeEvent(t, lambdaEventJSON(t, arn, recs))

	boom := errors.New("downstream unavailable")
	failOn := recs[2].ID
	handled := map[string]int{}
	seen := func(rec table.Record) error {
		if rec.ID == failOn {
			failOn = "" // a transient fault: the retry succeeds
			return boom
		}
		handled[rec.ID]++
		return nil
	}
	r := feed.NewRouter(w.tbl)
	feed.Handle(r, w.gadgets, func(_ context.Context, c table.ItemChange[gadget]) error { return seen(c.Record) })
	feed.Handle(r, w.tags, func(_ context.Context, c table.ItemChange[tag]) error { return seen(c.Record) })
	r.Library(func(_ context.Context, rec table.Record, _ string) error { return seen(rec) })

	ctx := context.Background()
	resp, err := lambdafeed.Handle(ctx, r, ev)
	want := events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{{ItemIdentifier: recs[2].Sequence}}}
	if d := cmp.Diff(want, resp); d != "" {
		t.Errorf("response (-want +got):\n%s", d)
	}
	var re *table.RecordError
	if !errors.Is(err, boom) || !errors.As(err, &re) || re.ID != recs[2].ID || re.Sequence != recs[2].Sequence {
		t.Errorf("error %v, want the 3rd record's failure", err)
	}
	if len(handled) != 2 || handled[recs[0].ID] != 1 || handled[recs[1].ID] != 1 {
		t.Errorf("handled before the failure: %v, want the first two records once", handled)
	}
	// The wire form Lambda reads.
	if b, _ := json.Marshal(resp); string(b) != `{"batchItemFailures":[{"itemIdentifier":"`+recs[2].Sequence+`"}]}` {
		t.Errorf("response JSON %s", b)
	}

	// Lambda retries from the named record.
	from := slices.IndexFunc(ev.Records, func(r events.DynamoDBEventRecord) bool {
		return r.Change.SequenceNumber == resp.BatchItemFailures[0].ItemIdentifier
	})
	resp, err = lambdafeed.Handle(ctx, r, events.DynamoDBEvent{Records: ev.Records[from:]})
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("retry: %+v, %v", resp, err)
	}
	if b, _ := json.Marshal(resp); string(b) != `{"batchItemFailures":[]}` {
		t.Errorf("success JSON %s", b)
	}
	for _, rec := range recs {
		if handled[rec.ID] != 1 {
			t.Errorf("record %s (%s) handled %d times, want once", rec.Sequence, rec.Op, handled[rec.ID])
		}
	}

	// A record whose value does not convert fails where it stands.
	bad := ev.Records[1]
	bad.Change.NewImage = map[string]events.DynamoDBAttributeValue{"x": {}}
	resp, err = lambdafeed.Handle(ctx, r, events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{ev.Records[0], bad, ev.Records[2]}})
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != bad.Change.SequenceNumber || !errors.Is(err, table.ErrInvalidInput) || !errors.As(err, &re) || re.ID != bad.EventID {
		t.Errorf("unconvertible record: %+v, %v", resp, err)
	}
}

// The conversion of each kind of value, from the JSON Lambda sends.
func TestFromValue(t *testing.T) {
	t.Parallel()
	src := `{"s":{"S":"x"},"n":{"N":"1.50E+3"},"b":{"B":"AAEqQQ=="},"t":{"BOOL":true},"z":{"NULL":true},` +
		`"ss":{"SS":["b","a"]},"ns":{"NS":["10","-0.5"]},"bs":{"BS":["AAEqQQ==","QSoBAA=="]},` +
		`"l":{"L":[{"S":"a"},{"N":"1"},{"L":[]},{"M":{}}]},"m":{"M":{"k":{"NULL":true},"e":{"M":{}}}}}`
	var in map[string]events.DynamoDBAttributeValue
	if err := json.Unmarshal([]byte(src), &in); err != nil {
		t.Fatal(err)
	}
	got, err := lambdafeed.FromItem(in)
	if err != nil {
		t.Fatal(err)
	}
	want := table.Item{
		"s":  &types.AttributeValueMemberS{Value: "x"},
		"n":  &types.AttributeValueMemberN{Value: "1.50E+3"},
		"b":  &types.AttributeValueMemberB{Value: []byte{0, 1, 42, 65}},
		"t":  &types.AttributeValueMemberBOOL{Value: true},
		"z":  &types.AttributeValueMemberNULL{Value: true},
		"ss": &types.AttributeValueMemberSS{Value: []string{"b", "a"}},
		"ns": &types.AttributeValueMemberNS{Value: []string{"10", "-0.5"}},
		"bs": &types.AttributeValueMemberBS{Value: [][]byte{{0, 1, 42, 65}, {65, 42, 1, 0}}},
		"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberS{Value: "a"}, &types.AttributeValueMemberN{Value: "1"},
			&types.AttributeValueMemberL{Value: []types.AttributeValue{}}, &types.AttributeValueMemberM{Value: table.Item{}},
		}},
		"m": &types.AttributeValueMemberM{Value: table.Item{"k": &types.AttributeValueMemberNULL{Value: true}, "e": &types.AttributeValueMemberM{Value: table.Item{}}}},
	}
	if d := cmp.Diff(want, got, exportAll); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if _, err := lambdafeed.FromValue(events.DynamoDBAttributeValue{}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("zero value: %v", err)
	}
	rec, err := lambdafeed.FromRecord(events.DynamoDBEventRecord{EventID: "e", EventName: "INSERT", Change: events.DynamoDBStreamRecord{
		ApproximateCreationDateTime: events.SecondsEpochTime{Time: time.Unix(1480642020, 0)}, SequenceNumber: "1"}})
	if err != nil || !rec.At.Equal(time.Unix(1480642020, 0)) || rec.Keys != nil || rec.Shard != "" {
		t.Errorf("record: %+v, %v", rec, err)
	}
}
