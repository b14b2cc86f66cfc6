package ferryhook_test

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
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

var (
	workloadRounds = flag.Int("workload.rounds", 20, "BenchmarkWorkload: rounds per scenario (one block of each variant per round)")
	workloadBlock  = flag.Int("workload.block", 25, "BenchmarkWorkload: operations per block")
)

// BenchmarkWorkload is the Ferryhook workload of issue 34: seven
// scenarios, each measured three ways doing the same work: the library
// ("lib"), hand-written aws-sdk-go-v2 with the library's guarantees
// ("same": the same requests, conditions, tokens and read checks) and the
// minimal hand-written requests that do the job ("min": no TTL-aware
// conditions, no type checks, no write tokens, no sealed cursors).
// tabletest.Interleave runs them in small interleaved blocks and reports
// medians over the rounds: throughput ratios lib/same and lib/min, and
// client CPU (getrusage of the test process) and server CPU (DynamoDB
// Local's JVM, /proc; "?" when DYNAMODB_ENDPOINT points elsewhere) per
// operation. The markdown table is logged at the end. Run it with
// -benchtime 1x (each scenario runs its rounds once); -workload.rounds
// and -workload.block size it.
func BenchmarkWorkload(b *testing.B) {
	w := newWorkload(b)
	var rows []tabletest.WorkloadRow
	for _, sc := range w.scenarios() {
		b.Run(sc.name, func(b *testing.B) {
			block := *workloadBlock
			if sc.callers > 1 {
				block *= 4 // 8 callers share a block
			}
			st := tabletest.Interleave(b, tabletest.Interleaved{
				Rounds: *workloadRounds, Block: block, Callers: sc.callers, Warmup: 60, ServerPID: w.pid,
			}, sc.variants...)
			b.ReportMetric(st[1].Ratio, "lib/same")
			b.ReportMetric(st[2].Ratio, "lib/min")
			for _, s := range st {
				b.ReportMetric(float64(s.ClientCPU.Nanoseconds())/1e3, s.Name+"-client-us/op")
				if s.ServerKnown() {
					b.ReportMetric(float64(s.ServerCPU.Nanoseconds())/1e3, s.Name+"-server-us/op")
				}
			}
			row := tabletest.WorkloadRow{Scenario: sc.name, Stats: st}
			for i := range rows {
				if rows[i].Scenario == sc.name { // the benchmark ran the scenario again
					rows[i] = row
					return
				}
			}
			rows = append(rows, row)
		})
	}
	b.Logf("Ferryhook workload, %d rounds of %d-operation blocks (lib/x: throughput ratio, median [range]; CPU per op: lib / same / min; in the ingest-8-together and ingest-stream-counted rows min is the running service's own requests):\n%s",
		*workloadRounds, *workloadBlock, tabletest.WorkloadTable(rows))
	// The WCU column (issue 44): what each ingest costs DynamoDB, metered
	// over every key, table and GSI, with 1.8 KB events.
	b.Logf("Ferryhook ingest, WCU per event (capacity.Meter, 1.8 KB events, 16 operations each):\n%s", routeWCUTable(measureRouteWCU(b, 16)))
}

// workload is the fixture the scenarios share: one store on two fresh
// tables, a user on the free plan, a source to ingest into, a source
// holding 120 events, an event with three delivery attempts.
type workload struct {
	s            *ferryhook.Store
	ctx          context.Context
	c            *dynamodb.Client
	main, events string
	pid          int
	user         fh.User
	src          fh.Source // ingested into
	listSrc      fh.Source // 120 events
	ev           fh.Event  // created by the library: a located ID
	attEv        fh.EventID
	aead         cipher.AEAD
	// routes are issue 44's ingest routes on the same tables (the
	// scaled profile's group commit, the stream-counted profile).
	routes *ingestRoutes
}

func newWorkload(b *testing.B) *workload {
	b.Helper()
	s, events, src := benchStore(b)
	ctx := context.Background()
	w := &workload{s: s, ctx: ctx, c: tabletest.Client(b), main: benchMain, events: events.Name(), pid: tabletest.ServerPID(b), src: src}
	var err error
	if w.user, err = s.Users.ByID.Get(ctx, fh.User{UserID: src.UserID}); err != nil {
		b.Fatal(err)
	}
	if w.listSrc, err = s.Sources.Create(ctx, src.UserID, ferryhook.CreateSourceInput{Name: "list", Provider: fh.ProviderStripe}); err != nil {
		b.Fatal(err)
	}
	base := time.Now().Add(-time.Hour)
	for i := range 120 {
		if _, err := s.Events.Create(ctx, eventInput(w.listSrc, base.Add(time.Duration(i)*time.Millisecond))); err != nil {
			b.Fatal(err)
		}
	}
	if w.ev, err = s.Events.Create(ctx, eventInput(src, time.Time{})); err != nil {
		b.Fatal(err)
	}
	w.attEv = w.ev.EventID
	for n := 1; n <= 3; n++ {
		if _, err := s.Attempts.Create(ctx, w.attEv, n, attemptInput(w.ev.ExpiresAt)); err != nil {
			b.Fatal(err)
		}
	}
	w.routes = newIngestRoutes(b, w.c, ferryhook.MainSchema(benchMain), events.Schema(), `{"type":"invoice.paid"}`, "")
	// the hand-written layer's cursor key (AES-256-GCM), as the library seals its cursors
	block, err := aes.NewCipher([]byte("a hand-written cursor key 32 by."))
	if err != nil {
		b.Fatal(err)
	}
	if w.aead, err = cipher.NewGCM(block); err != nil {
		b.Fatal(err)
	}
	return w
}

func attemptInput(exp fh.UnixSeconds) ferryhook.CreateAttemptInput {
	return ferryhook.CreateAttemptInput{ConnectionID: "conn_bqUmE-9bV3UI8gJS", DestinationURL: "https://example.com/hook",
		StatusCode: 200, ResponseBody: `{"ok":true}`, Latency: 120 * time.Millisecond, ExpiresAt: exp}
}

// scenario is one row of the workload: the library's variant first.
type scenario struct {
	name     string
	callers  int
	variants []tabletest.Variant
}

func (w *workload) scenarios() []scenario {
	ingest := []tabletest.Variant{{Name: "lib", Op: w.libIngest}, {Name: "same", Op: w.sameIngest}, {Name: "min", Op: w.minIngest}}
	return []scenario{
		{name: "ingest-sequential", variants: ingest},
		{name: "ingest-8-concurrent", callers: 8, variants: ingest},
		{name: "newest-50-of-a-source", variants: []tabletest.Variant{{Name: "lib", Op: w.libList50}, {Name: "same", Op: w.sameList50}, {Name: "min", Op: w.minList50}}},
		{name: "user-by-email", variants: []tabletest.Variant{{Name: "lib", Op: w.libByEmail}, {Name: "same", Op: w.sameByEmail}, {Name: "min", Op: w.minByEmail}}},
		{name: "event-by-id", variants: []tabletest.Variant{{Name: "lib", Op: w.libEventByID}, {Name: "same", Op: w.sameEventByID}, {Name: "min", Op: w.minEventByID}}},
		{name: "attempt-create", variants: []tabletest.Variant{{Name: "lib", Op: w.libAttemptCreate}, {Name: "same", Op: w.sameAttemptCreate}, {Name: "min", Op: w.minAttemptCreate}}},
		{name: "attempt-list", variants: []tabletest.Variant{{Name: "lib", Op: w.libAttemptList}, {Name: "same", Op: w.sameAttemptList}, {Name: "min", Op: w.minAttemptList}}},
		// Issue 44: 8 events that arrived together in the scaled profile
		// (one transaction), and one event in the stream-counted profile
		// (one PutItem); min is the running service's own requests.
		{name: "ingest-8-together", variants: []tabletest.Variant{{Name: "lib", Op: w.routes.libGroup}, {Name: "same", Op: w.routes.sameGroup}, {Name: "min", Op: w.routes.serviceGroup}}},
		{name: "ingest-stream-counted", variants: []tabletest.Variant{{Name: "lib", Op: w.routes.libStream}, {Name: "same", Op: w.routes.sameStream}, {Name: "min", Op: w.routes.serviceStream}}},
	}
}

// writeToken is a write token as the library makes them: the time in
// base 36 and 8 random bytes.
func writeToken(now time.Time) string {
	var r [8]byte
	_, _ = rand.Read(r[:])
	return strconv.FormatInt(now.UnixMilli(), 36) + "." + hex.EncodeToString(r[:])
}

// --- ingest (FH-12): one transaction of three actions ---

func (w *workload) libIngest() error {
	_, err := w.s.Ingest(w.ctx, w.src.SourceID, ferryhook.IngestRequest{Body: `{"type":"invoice.paid"}`, ContentType: "application/json", Method: "POST", SourceIP: "203.0.113.7"})
	return err
}

// ingestItem is the event item of an ingest, with a located ID (as the
// library mints: its key is in its ID) or the service's evt_ + nanoid.
func (w *workload) ingestItem(now time.Time, located bool) (map[string]types.AttributeValue, string, error) {
	ms := now.UnixMilli()
	id := string(fh.NewEventID())
	if located {
		id = string(fh.NewLocatedEventID(w.src.SourceID, fh.UnixMillis(ms), 0))
	}
	item, err := attributevalue.MarshalMap(rawEvent{
		PK: "SRC#" + string(w.src.SourceID), SK: "EVT#" + strconv.FormatInt(ms, 10) + "#" + id,
		GSI1PK: "EVTID#" + id, GSI1SK: "EVENT",
		EventID: id, SourceID: string(w.src.SourceID), UserID: string(w.src.UserID), Status: "received",
		Body: `{"type":"invoice.paid"}`, SourceIP: "203.0.113.7", ContentType: "application/json", Method: "POST",
		ReceivedAt: ms, ExpiresAt: ms/1000 + 86400,
	})
	return item, id, err
}

// sameIngest is the library's transaction written by hand: the create
// treats an expired item as absent, the updates require a live item of
// the right type (the item's existence is implied by their equality
// conditions on its state), counters cannot overflow, versions advance,
// the ClientRequestToken resolves a lost response, and the event's failed
// create returns the item (the counters' failures are explained by a
// read, as the library does).
func (w *workload) sameIngest() error {
	now := time.Now()
	item, _, err := w.ingestItem(now, true)
	if err != nil {
		return err
	}
	item["_type"], item["_v"] = str("Event"), num(1)
	nowS, at := num(now.Unix()), str(now.UTC().Format(time.RFC3339Nano))
	alive := "(attribute_not_exists(#ty) OR #ty = :ty) AND NOT #ttl BETWEEN :tiny AND :now"
	_, err = w.c.TransactWriteItems(w.ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(txToken()), TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(w.events), Item: item,
			ConditionExpression:                 aws.String("attribute_not_exists(#pk)"), // an expired item in the way: sent again on "... OR #ttl BETWEEN :tiny AND :now", as the library does
			ExpressionAttributeNames:            map[string]string{"#pk": "PK"},
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
		{Update: &types.Update{TableName: aws.String(w.main),
			Key:                       map[string]types.AttributeValue{"PK": str("USER#" + string(w.src.UserID)), "SK": str("SRC#" + string(w.src.SourceID))},
			UpdateExpression:          aws.String("SET lastEventAt = :at ADD eventCount :one, #v :one"),
			ConditionExpression:       aws.String(alive + " AND NOT eventCount > :max AND #s = :active"),
			ExpressionAttributeNames:  map[string]string{"#s": "status", "#ty": "_type", "#ttl": "ttl", "#v": "_v"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1), ":at": at, ":active": str("active"), ":ty": str("Source"), ":now": nowS, ":tiny": tiny, ":max": num(math.MaxInt64 - 1)}}}, // no item returned: a failure is explained by a read
		{Update: &types.Update{TableName: aws.String(w.main),
			Key:                       map[string]types.AttributeValue{"PK": str("USER#" + string(w.src.UserID)), "SK": str("PROFILE")},
			UpdateExpression:          aws.String("ADD usageThisMonth :one, #v :one"),
			ConditionExpression:       aws.String(alive + " AND NOT usageThisMonth > :max AND #p = :plan"),
			ExpressionAttributeNames:  map[string]string{"#p": "plan", "#ty": "_type", "#ttl": "ttl", "#v": "_v"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1), ":plan": str("free"), ":ty": str("User"), ":now": nowS, ":tiny": tiny, ":max": num(math.MaxInt64 - 1)}}},
	}})
	return err
}

// txToken is a ClientRequestToken (the SDK would fill one in itself).
func txToken() string {
	var r [16]byte
	_, _ = rand.Read(r[:])
	return hex.EncodeToString(r[:])
}

// minIngest is the least transaction that ingests: the event put if
// absent, the source counted if it exists and is active, the owner's
// usage if its plan is the one expiresAt came from.
func (w *workload) minIngest() error {
	now := time.Now()
	item, _, err := w.ingestItem(now, false)
	if err != nil {
		return err
	}
	_, err = w.c.TransactWriteItems(w.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(w.events), Item: item, ConditionExpression: aws.String("attribute_not_exists(PK)")}},
		{Update: &types.Update{TableName: aws.String(w.main),
			Key:                       map[string]types.AttributeValue{"PK": str("USER#" + string(w.src.UserID)), "SK": str("SRC#" + string(w.src.SourceID))},
			UpdateExpression:          aws.String("ADD eventCount :one SET lastEventAt = :at"),
			ConditionExpression:       aws.String("attribute_exists(PK) AND #s = :active"),
			ExpressionAttributeNames:  map[string]string{"#s": "status"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1), ":at": str(now.UTC().Format(time.RFC3339Nano)), ":active": str("active")}}},
		{Update: &types.Update{TableName: aws.String(w.main),
			Key:                       map[string]types.AttributeValue{"PK": str("USER#" + string(w.src.UserID)), "SK": str("PROFILE")},
			UpdateExpression:          aws.String("ADD usageThisMonth :one"),
			ConditionExpression:       aws.String("attribute_exists(PK) AND #p = :plan"),
			ExpressionAttributeNames:  map[string]string{"#p": "plan"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1), ":plan": str("free")}}},
	}})
	return err
}

// --- newest 50 events of a source (FH-7) ---

func (w *workload) libList50() error {
	p, err := w.s.Events.ListBySource(w.ctx, w.listSrc.SourceID, table.Limit(50))
	if err == nil && (len(p.Items) != 50 || p.Cursor == "") {
		err = fmt.Errorf("%d events, cursor %q", len(p.Items), p.Cursor)
	}
	return err
}

func (w *workload) list50Query() (*dynamodb.QueryOutput, error) {
	return w.c.Query(w.ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(w.events),
		KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :a)"),
		ExpressionAttributeNames:  map[string]string{"#pk": "PK", "#sk": "SK"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str("SRC#" + string(w.listSrc.SourceID)), ":a": str("EVT#")},
		ScanIndexForward:          aws.Bool(false),
		Limit:                     aws.Int32(50),
	})
}

// errWrongType is a hand-written layer's refusal of an item of another
// entity type.
var errWrongType = errors.New("item of another type")

// live reports whether item is not past its TTL attribute ttl (epoch
// seconds; absent or 0: no TTL), as the library reads.
func live(item map[string]types.AttributeValue, ttl string, now int64) bool {
	n, ok := item[ttl].(*types.AttributeValueMemberN)
	if !ok {
		return true
	}
	v, err := strconv.ParseFloat(n.Value, 64)
	return err != nil || v <= 0 || float64(now) < v
}

// typed checks item's _type (absent: written by another service).
func typed(item map[string]types.AttributeValue, want string) error {
	if t, ok := item["_type"].(*types.AttributeValueMemberS); ok && t.Value != want {
		return fmt.Errorf("%w: %s", errWrongType, t.Value)
	}
	return nil
}

// seal is the hand-written cursor: the last evaluated key, with its issue
// time, encrypted and bound to the query (AES-256-GCM), as the library's.
func (w *workload) seal(binding string, last map[string]types.AttributeValue) (string, error) {
	pos := make(map[string]string, len(last))
	for k, v := range last {
		s, ok := v.(*types.AttributeValueMemberS)
		if !ok {
			return "", fmt.Errorf("key attribute %s not a string", k)
		}
		pos[k] = s.Value
	}
	js, err := json.Marshal(pos)
	if err != nil {
		return "", err
	}
	plain := binary.BigEndian.AppendUint64(nil, uint64(time.Now().Unix()))
	plain = append(plain, js...)
	nonce := make([]byte, w.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := w.aead.Seal(append([]byte{2, 0}, nonce...), nonce, plain, []byte(binding))
	return base64.RawURLEncoding.EncodeToString(out), nil
}

// decodeEvents is what a hand-written layer with the library's read
// guarantees does with a page: expired items left out, the type checked,
// each item decoded.
func decodeEvents(items []map[string]types.AttributeValue) ([]rawEvent, error) {
	now := time.Now().Unix()
	evs := make([]rawEvent, 0, len(items))
	for _, it := range items {
		if !live(it, "expiresAt", now) {
			continue
		}
		if err := typed(it, "Event"); err != nil {
			return nil, err
		}
		var e rawEvent
		if err := attributevalue.UnmarshalMap(it, &e); err != nil {
			return nil, err
		}
		evs = append(evs, e)
	}
	return evs, nil
}

func (w *workload) sameList50() error {
	out, err := w.list50Query()
	if err != nil {
		return err
	}
	evs, err := decodeEvents(out.Items)
	if err != nil {
		return err
	}
	cursor, err := w.seal(w.events+"\x00SRC#"+string(w.listSrc.SourceID)+"\x00begins_with\x00EVT#\x00desc", out.LastEvaluatedKey)
	if err == nil && (len(evs) != 50 || cursor == "") {
		err = fmt.Errorf("%d events", len(evs))
	}
	return err
}

func (w *workload) minList50() error {
	out, err := w.c.Query(w.ctx, &dynamodb.QueryInput{
		TableName:              aws.String(w.events),
		KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :evt)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": str("SRC#" + string(w.listSrc.SourceID)), ":evt": str("EVT#"),
		},
		ScanIndexForward: aws.Bool(false),
		Limit:            aws.Int32(50),
	})
	if err != nil {
		return err
	}
	var evs []rawEvent
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &evs); err != nil || len(evs) != 50 || out.LastEvaluatedKey == nil {
		return fmt.Errorf("%d events: %v", len(evs), err)
	}
	return nil
}

// --- user by email (FH-2): the guard, then the user it names ---

// rawUser is the user as a hand-written layer decodes it.
type rawUser struct {
	UserID           string `dynamodbav:"userId"`
	Email            string `dynamodbav:"email"`
	Name             string `dynamodbav:"name"`
	PasswordHash     string `dynamodbav:"passwordHash"`
	Plan             string `dynamodbav:"plan"`
	StripeCustomerID string `dynamodbav:"stripeCustomerId"`
	StripeSubID      string `dynamodbav:"stripeSubId"`
	GitHubID         string `dynamodbav:"githubId"`
	GoogleID         string `dynamodbav:"googleId"`
	UsageThisMonth   int64  `dynamodbav:"usageThisMonth"`
	UsagePeriodStart string `dynamodbav:"usagePeriodStart"`
	CreatedAt        string `dynamodbav:"createdAt"`
	UpdatedAt        string `dynamodbav:"updatedAt"`
}

const benchEmail = "bench@example.com"

func (w *workload) libByEmail() error {
	u, err := w.s.Users.GetByEmail(w.ctx, benchEmail)
	if err == nil && u.UserID != w.user.UserID {
		err = fmt.Errorf("got user %s", u.UserID)
	}
	return err
}

func (w *workload) getConsistent(k map[string]types.AttributeValue) (map[string]types.AttributeValue, error) {
	out, err := w.c.GetItem(w.ctx, &dynamodb.GetItemInput{TableName: aws.String(w.main), Key: k, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, err
	}
	if out.Item == nil {
		return nil, table.ErrNotFound
	}
	return out.Item, nil
}

// sameByEmail reads the folded address's guard and the user it names
// (both strongly consistent), and confirms as the library does: the guard
// live, the user live, of type User, holding the address (folded) and
// holding it as given.
func (w *workload) sameByEmail() error {
	folded := fh.NormalizeEmail(benchEmail)
	g, err := w.getConsistent(map[string]types.AttributeValue{"PK": str("UNIQUE#email#" + folded), "SK": str("UNIQUE")})
	if err != nil {
		return err
	}
	now := time.Now().Unix()
	opk, _ := g["ownerPK"].(*types.AttributeValueMemberS)
	osk, _ := g["ownerSK"].(*types.AttributeValueMemberS)
	if opk == nil || osk == nil || !live(g, "ttl", now) {
		return table.ErrNotFound
	}
	item, err := w.getConsistent(map[string]types.AttributeValue{"PK": str(opk.Value), "SK": str(osk.Value)})
	if err != nil {
		return err
	}
	if !live(item, "ttl", now) {
		return table.ErrNotFound
	}
	if err := typed(item, "User"); err != nil {
		return err
	}
	var u rawUser
	if err := attributevalue.UnmarshalMap(item, &u); err != nil {
		return err
	}
	if fh.NormalizeEmail(u.Email) != folded || u.Email != folded || u.UserID != string(w.user.UserID) {
		return fmt.Errorf("user %s does not hold %s", u.UserID, benchEmail)
	}
	return nil
}

// minByEmail reads the guard and the user it names (strongly consistent:
// the least a guard lookup needs) and decodes the user.
func (w *workload) minByEmail() error {
	g, err := w.getConsistent(map[string]types.AttributeValue{"PK": str("UNIQUE#email#" + benchEmail), "SK": str("UNIQUE")})
	if err != nil {
		return err
	}
	item, err := w.getConsistent(map[string]types.AttributeValue{"PK": g["ownerPK"], "SK": g["ownerSK"]})
	if err != nil {
		return err
	}
	var u rawUser
	if err := attributevalue.UnmarshalMap(item, &u); err != nil || u.UserID != string(w.user.UserID) {
		return fmt.Errorf("user %s: %v", u.UserID, err)
	}
	return nil
}

// --- event by ID (FH-8), an ID the library minted: its key is in it ---

func (w *workload) libEventByID() error {
	ev, err := w.s.Events.GetByID(w.ctx, w.ev.EventID)
	if err == nil && ev.EventID != w.ev.EventID {
		err = fmt.Errorf("got event %s", ev.EventID)
	}
	return err
}

// eventByKey reads the event the located ID names, strongly consistent.
func (w *workload) eventByKey(id fh.EventID) (map[string]types.AttributeValue, error) {
	src, at, _, ok := id.Location()
	if !ok {
		return nil, fmt.Errorf("%s: not a located ID", id)
	}
	out, err := w.c.GetItem(w.ctx, &dynamodb.GetItemInput{TableName: aws.String(w.events), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": str("SRC#" + string(src)), "SK": str("EVT#" + strconv.FormatInt(int64(at), 10) + "#" + string(id))}})
	if err != nil {
		return nil, err
	}
	if out.Item == nil {
		return nil, table.ErrNotFound
	}
	return out.Item, nil
}

func (w *workload) sameEventByID() error {
	item, err := w.eventByKey(w.ev.EventID)
	if err != nil {
		return err
	}
	if !live(item, "expiresAt", time.Now().Unix()) {
		return table.ErrNotFound
	}
	if err := typed(item, "Event"); err != nil {
		return err
	}
	var e rawEvent
	if err := attributevalue.UnmarshalMap(item, &e); err != nil || e.EventID != string(w.ev.EventID) {
		return fmt.Errorf("event %s: %v", e.EventID, err)
	}
	return nil
}

func (w *workload) minEventByID() error {
	item, err := w.eventByKey(w.ev.EventID)
	if err != nil {
		return err
	}
	var e rawEvent
	if err := attributevalue.UnmarshalMap(item, &e); err != nil || e.EventID != string(w.ev.EventID) {
		return fmt.Errorf("event %s: %v", e.EventID, err)
	}
	return nil
}

// --- attempt create (FH-11): one conditional PutItem ---

// rawAttempt is a delivery attempt as a hand-written layer writes it.
type rawAttempt struct {
	PK             string `dynamodbav:"PK"`
	SK             string `dynamodbav:"SK"`
	EventID        string `dynamodbav:"eventId"`
	ConnectionID   string `dynamodbav:"connectionId"`
	AttemptNumber  int    `dynamodbav:"attemptNumber"`
	DestinationURL string `dynamodbav:"destinationUrl"`
	StatusCode     int    `dynamodbav:"statusCode"`
	ResponseBody   string `dynamodbav:"responseBody"`
	LatencyMs      int64  `dynamodbav:"latencyMs"`
	Error          string `dynamodbav:"error,omitempty"`
	AttemptedAt    int64  `dynamodbav:"attemptedAt"`
	ExpiresAt      int64  `dynamodbav:"expiresAt,omitempty"`
}

func (w *workload) libAttemptCreate() error {
	_, err := w.s.Attempts.Create(w.ctx, fh.NewEventID(), 1, attemptInput(w.ev.ExpiresAt))
	return err
}

func (w *workload) attemptItem(now time.Time) (map[string]types.AttributeValue, error) {
	id := string(fh.NewEventID())
	in := attemptInput(w.ev.ExpiresAt)
	return attributevalue.MarshalMap(rawAttempt{PK: "EVT#" + id, SK: "ATT#1", EventID: id, ConnectionID: string(in.ConnectionID), AttemptNumber: 1,
		DestinationURL: in.DestinationURL, StatusCode: in.StatusCode, ResponseBody: in.ResponseBody, LatencyMs: in.Latency.Milliseconds(),
		AttemptedAt: now.UnixMilli(), ExpiresAt: int64(in.ExpiresAt)})
}

// sameAttemptCreate is the library's PutItem by hand: an expired item
// counts as absent, type, version and write token stored, the item
// returned by a failed condition (a lost response's retry recognises its
// token).
func (w *workload) sameAttemptCreate() error {
	now := time.Now()
	item, err := w.attemptItem(now)
	if err != nil {
		return err
	}
	item["_type"], item["_v"] = str("DeliveryAttempt"), num(1)
	item["_wt"] = &types.AttributeValueMemberSS{Value: []string{writeToken(now)}}
	_, err = w.c.PutItem(w.ctx, &dynamodb.PutItemInput{TableName: aws.String(w.events), Item: item,
		ConditionExpression:                 aws.String("attribute_not_exists(#pk)"), // an expired item in the way: sent again on "... OR #ttl BETWEEN :tiny AND :now", as the library does
		ExpressionAttributeNames:            map[string]string{"#pk": "PK"},
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	return err
}

func (w *workload) minAttemptCreate() error {
	item, err := w.attemptItem(time.Now())
	if err != nil {
		return err
	}
	_, err = w.c.PutItem(w.ctx, &dynamodb.PutItemInput{TableName: aws.String(w.events), Item: item, ConditionExpression: aws.String("attribute_not_exists(PK)")})
	return err
}

// --- attempt list (FH-9): an event's three attempts ---

func (w *workload) libAttemptList() error {
	p, err := w.s.Attempts.ByEvent.List(w.ctx, fh.DeliveryAttempt{EventID: w.attEv})
	if err == nil && len(p.Items) != 3 {
		err = fmt.Errorf("%d attempts", len(p.Items))
	}
	return err
}

func (w *workload) sameAttemptList() error {
	out, err := w.c.Query(w.ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(w.events),
		KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :a)"),
		ExpressionAttributeNames:  map[string]string{"#pk": "PK", "#sk": "SK"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str("EVT#" + string(w.attEv)), ":a": str("ATT#")},
		ScanIndexForward:          aws.Bool(true),
		Limit:                     aws.Int32(100),
	})
	if err != nil {
		return err
	}
	now := time.Now().Unix()
	atts := make([]rawAttempt, 0, len(out.Items))
	for _, it := range out.Items {
		if !live(it, "expiresAt", now) {
			continue
		}
		if err := typed(it, "DeliveryAttempt"); err != nil {
			return err
		}
		var a rawAttempt
		if err := attributevalue.UnmarshalMap(it, &a); err != nil {
			return err
		}
		atts = append(atts, a)
	}
	if out.LastEvaluatedKey != nil {
		if _, err := w.seal(w.events+"\x00EVT#"+string(w.attEv), out.LastEvaluatedKey); err != nil {
			return err
		}
	}
	if len(atts) != 3 {
		return fmt.Errorf("%d attempts", len(atts))
	}
	return nil
}

func (w *workload) minAttemptList() error {
	out, err := w.c.Query(w.ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(w.events),
		KeyConditionExpression:    aws.String("PK = :pk AND begins_with(SK, :att)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str("EVT#" + string(w.attEv)), ":att": str("ATT#")},
	})
	if err != nil {
		return err
	}
	var atts []rawAttempt
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &atts); err != nil || len(atts) != 3 {
		return fmt.Errorf("%d attempts: %v", len(atts), err)
	}
	return nil
}
