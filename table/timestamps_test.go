package table_test

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

type session struct {
	ID        string    `dynamo:"id"`
	Note      string    `dynamo:"note"`
	Hits      int64     `dynamo:"hits"`
	CreatedAt time.Time `dynamo:"createdAt"`
	UpdatedAt time.Time `dynamo:"updatedAt"`
	// Read is what the item was read as (Replace conditions on it).
	Read table.ReadState `dynamo:"-"`
}

// stampClock is a settable clock for Options.Now.
type stampClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *stampClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *stampClock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// rawItem reads the stored item with key k as DynamoDB holds it.
func rawItem(t *testing.T, tb *table.Table, k table.Key) map[string]types.AttributeValue {
	t.Helper()
	out, err := tb.Client().GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(tb.Name()), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}}})
	if err != nil || out.Item == nil {
		t.Fatalf("GetItem %v: %v (item %v)", k, err, out)
	}
	return out.Item
}

// stored returns attribute name of the stored item k as text: S"..." or N"...".
func stored(t *testing.T, tb *table.Table, k table.Key, name string) string {
	t.Helper()
	switch v := rawItem(t, tb, k)[name].(type) {
	case *types.AttributeValueMemberS:
		return "S" + strconv.Quote(v.Value)
	case *types.AttributeValueMemberN:
		return "N" + strconv.Quote(v.Value)
	case nil:
		return "absent"
	default:
		return fmt.Sprintf("%T", v)
	}
}

var sessionStamps = table.Timestamps{Created: "createdAt", Updated: "updatedAt", Precision: time.Millisecond}

// TestTimestampsAndTTLAfter: the declared times feed a TTL like any
// other attribute (the expiry derives from the createdAt a create stamps).
func TestTimestampsAndTTLAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	clock := &stampClock{t: now}
	f := newFixture(t, func(o *table.Options) { o.Now = clock.Now })
	c := ctx(t)
	sessions := table.NewEntity(f.t, table.Def[session]{
		Type:       "Session",
		Keys:       table.Template{PK: "SESSION#{id}", SK: "SESSION"},
		Timestamps: sessionStamps,
		TTL:        table.TTL{From: "createdAt", After: time.Hour},
	})
	s := session{ID: "s1"}
	if err := sessions.Create(c, &s); err != nil {
		t.Fatal(err)
	}
	if !s.CreatedAt.Equal(now) || !s.UpdatedAt.Equal(now) {
		t.Errorf("after create: %v %v", s.CreatedAt, s.UpdatedAt)
	}
	later := now.Add(30 * time.Minute)
	clock.Set(later)
	k := table.Key{PK: "SESSION#s1", SK: "SESSION"}
	got, err := sessions.Update(c, k, func(*session) error { return nil })
	if err != nil || !got.CreatedAt.Equal(now) || !got.UpdatedAt.Equal(later) {
		t.Errorf("after update: %+v %v", got, err)
	}
	clock.Set(now.Add(61 * time.Minute)) // created + 1h has passed
	if _, err := sessions.Get(c, k); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("an hour after creation: %v, want ErrNotFound", err)
	}
}

// TestTimestampsRule (Timestamps' contract): a create sets createdAt and
// updatedAt (equal); every later write through the engine (Update,
// Replace, Upsert, Patch, Add, Change, Put) sets updatedAt and never
// createdAt; Patch.NoTouch and a Patch setting updatedAt itself leave the
// stamp alone; an unconditional Put of an item without createdAt fills it.
func TestTimestampsRule(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 123456789, time.UTC)
	clock := &stampClock{t: t0}
	tb := tabletest.NewTable(t, table.NewSchema("stamps"), func(o *table.Options) { o.Now = clock.Now })
	c := ctx(t)
	sessions := table.NewEntity(tb, table.Def[session]{
		Type:       "Session",
		Keys:       table.Template{PK: "SESSION#{id}", SK: "SESSION"},
		Timestamps: sessionStamps,
	})
	k := table.Key{PK: "SESSION#s1", SK: "SESSION"}
	created := t0.Truncate(time.Millisecond)
	createdS := `S"2026-11-22T10:00:00.123Z"`

	s := session{ID: "s1"}
	if err := sessions.Create(c, &s); err != nil {
		t.Fatal(err)
	}
	if !s.CreatedAt.Equal(created) || !s.UpdatedAt.Equal(created) || s.CreatedAt.Location() != time.UTC {
		t.Errorf("create: item has %v / %v; want both %v in UTC", s.CreatedAt, s.UpdatedAt, created)
	}
	if c, u := stored(t, tb, k, "createdAt"), stored(t, tb, k, "updatedAt"); c != createdS || u != createdS {
		t.Errorf("create stored createdAt %s, updatedAt %s; want both %s", c, u, createdS)
	}

	step := func(d time.Duration) (time.Time, string) {
		at := t0.Add(d)
		clock.Set(at)
		at = at.Truncate(time.Millisecond)
		return at, `S"` + at.Format(time.RFC3339Nano) + `"`
	}
	check := func(what string, got session, wantUpdated time.Time, wantS string) {
		t.Helper()
		if !got.CreatedAt.Equal(created) || !got.UpdatedAt.Equal(wantUpdated) {
			t.Errorf("%s: item has createdAt %v, updatedAt %v; want %v, %v", what, got.CreatedAt, got.UpdatedAt, created, wantUpdated)
		}
		if c, u := stored(t, tb, k, "createdAt"), stored(t, tb, k, "updatedAt"); c != createdS || u != wantS {
			t.Errorf("%s: stored createdAt %s, updatedAt %s; want %s, %s", what, c, u, createdS, wantS)
		}
	}

	at, atS := step(time.Minute)
	got, err := sessions.Update(c, k, func(s *session) error { s.Note = "updated"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	check("Update", got, at, atS)

	at, atS = step(2 * time.Minute)
	got, err = sessions.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	got.Note = "replaced"
	if err := sessions.Replace(c, &got); err != nil {
		t.Fatal(err)
	}
	check("Replace", got, at, atS)

	at, atS = step(3 * time.Minute)
	up := got
	up.Note = "upserted"
	if err := sessions.Upsert(c, &up); err != nil {
		t.Fatal(err)
	}
	if got, err = sessions.Get(c, k); err != nil {
		t.Fatal(err)
	}
	check("Upsert of an existing item", got, at, atS)

	at, atS = step(4 * time.Minute)
	if got, err = sessions.Patch(c, k, table.Patch{Set: map[string]any{"note": "patched"}}); err != nil {
		t.Fatal(err)
	}
	check("Patch", got, at, atS)

	at, atS = step(5 * time.Minute)
	if _, err := sessions.Add(c, k, "hits", 1); err != nil {
		t.Fatal(err)
	}
	if got, err = sessions.Get(c, k); err != nil {
		t.Fatal(err)
	}
	check("Add", got, at, atS)

	at, atS = step(6 * time.Minute)
	if got, err = sessions.Change(c, k, table.Set(table.MustField[session, string]("note"), "changed")); err != nil {
		t.Fatal(err)
	}
	check("Change", got, at, atS)

	step(7 * time.Minute) // NoTouch: updatedAt stays at the Change's
	if got, err = sessions.Patch(c, k, table.Patch{Set: map[string]any{"note": "quiet"}, NoTouch: true}); err != nil {
		t.Fatal(err)
	}
	check("Patch with NoTouch", got, at, atS)

	own := time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC) // a patch that sets updatedAt itself keeps its value
	if got, err = sessions.Patch(c, k, table.Patch{Set: map[string]any{"updatedAt": own}}); err != nil {
		t.Fatal(err)
	}
	check("Patch setting updatedAt", got, own, `S"2027-01-02T03:04:05Z"`)

	at, atS = step(8 * time.Minute) // Put of the whole item: updatedAt moves, the given createdAt is kept
	got.Note = "put"
	if err := sessions.Put(c, &got); err != nil {
		t.Fatal(err)
	}
	check("Put", got, at, atS)

	// A Put of an item that carries no createdAt may create it: filled.
	at, atS = step(9 * time.Minute)
	fresh := session{ID: "s2"}
	if err := sessions.Put(c, &fresh); err != nil {
		t.Fatal(err)
	}
	k2 := table.Key{PK: "SESSION#s2", SK: "SESSION"}
	if !fresh.CreatedAt.Equal(at) || !fresh.UpdatedAt.Equal(at) || stored(t, tb, k2, "createdAt") != atS || stored(t, tb, k2, "updatedAt") != atS {
		t.Errorf("Put of an item without createdAt: %v / %v, stored %s / %s; want both %s", fresh.CreatedAt, fresh.UpdatedAt,
			stored(t, tb, k2, "createdAt"), stored(t, tb, k2, "updatedAt"), atS)
	}
}

// TestTimestampsCreateKeepsGiven: a create keeps the times an item holds
// (an import, a migration): createdAt as given, and a missing updatedAt
// equal to it, through Create and Import alike.
func TestTimestampsCreateKeepsGiven(t *testing.T) {
	t.Parallel()
	clock := &stampClock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	tb := tabletest.NewTable(t, table.NewSchema("stampsgiven"), func(o *table.Options) { o.Now = clock.Now })
	c := ctx(t)
	sessions := table.NewEntity(tb, table.Def[session]{Type: "Session", Keys: table.Template{PK: "SESSION#{id}", SK: "SESSION"}, Timestamps: sessionStamps})
	old := time.Date(2020, 5, 6, 7, 8, 9, 987654321, time.UTC)
	s := session{ID: "given", CreatedAt: old}
	if err := sessions.Create(c, &s); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "SESSION#given", SK: "SESSION"}
	want := `S"2020-05-06T07:08:09.987654321Z"` // as given: the precision applies to the clock's times
	if c, u := stored(t, tb, k, "createdAt"), stored(t, tb, k, "updatedAt"); c != want || u != want {
		t.Errorf("Create of an item with createdAt: stored %s / %s; want both %s", c, u, want)
	}

	both := session{ID: "both", CreatedAt: old, UpdatedAt: old.Add(time.Hour)}
	if err := sessions.Create(c, &both); err != nil {
		t.Fatal(err)
	}
	kb := table.Key{PK: "SESSION#both", SK: "SESSION"}
	if u := stored(t, tb, kb, "updatedAt"); u != `S"2020-05-06T08:08:09.987654321Z"` {
		t.Errorf("Create of an item with both times: stored updatedAt %s; want the given one", u)
	}

	raw := map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "SESSION#imported"}, "SK": &types.AttributeValueMemberS{Value: "SESSION"},
		"id": &types.AttributeValueMemberS{Value: "imported"}, "createdAt": &types.AttributeValueMemberS{Value: "2019-01-01T00:00:00.5Z"},
		"updatedAt": &types.AttributeValueMemberS{Value: "2019-02-01T00:00:00Z"},
	}
	if out, err := sessions.Import(c, raw, false); err != nil || out != table.Changed {
		t.Fatalf("Import = %v, %v", out, err)
	}
	ki := table.Key{PK: "SESSION#imported", SK: "SESSION"}
	if c, u := stored(t, tb, ki, "createdAt"), stored(t, tb, ki, "updatedAt"); c != `S"2019-01-01T00:00:00.5Z"` || u != `S"2019-02-01T00:00:00Z"` {
		t.Errorf("Import: stored %s / %s; want the source's times", c, u)
	}
}

// TestTimestampsLostCreate: a create whose response is lost is retried
// by the SDK and stores the first attempt's times; when the caller retries
// the same item itself (every response lost), the create is refused as
// existing and neither the item nor the stored createdAt moves.
func TestTimestampsLostCreate(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 250000000, time.UTC)
	clock := &stampClock{t: t0}
	opt := func(o *table.Options) { o.Now = clock.Now }
	base := tabletest.NewTable(t, table.NewSchema("stampslost"), opt)
	def := table.Def[session]{Type: "Session", Keys: table.Template{PK: "SESSION#{id}", SK: "SESSION"}, Timestamps: sessionStamps}
	plain := table.NewEntity(base, def)
	c := ctx(t)
	want := `S"2026-11-22T10:00:00.25Z"`

	once := &tabletest.LostResponses{Op: "PutItem", Times: 1}
	e1 := table.NewEntity(table.New(tabletest.NewClient(t, once.Option()), base.Schema(), opt), def)
	s := session{ID: "once"}
	if err := e1.Create(c, &s); err != nil || once.Lost() != 1 || once.Calls() != 2 {
		t.Fatalf("Create with one lost response = %v (lost %d of %d); want success after the SDK's retry", err, once.Lost(), once.Calls())
	}
	k := table.Key{PK: "SESSION#once", SK: "SESSION"}
	if got := stored(t, base, k, "createdAt"); got != want || !s.CreatedAt.Equal(t0.Truncate(time.Millisecond)) {
		t.Errorf("after the SDK's retry: stored createdAt %s, item %v; want %s", got, s.CreatedAt, want)
	}

	always := &tabletest.LostResponses{Op: "PutItem", Times: 100}
	e2 := table.NewEntity(table.New(tabletest.NewClient(t, always.Option()), base.Schema(), opt), def)
	a := session{ID: "always"}
	if err := e2.Create(c, &a); err == nil {
		t.Fatal("Create with every response lost succeeded; want the transport's error")
	}
	clock.Set(t0.Add(time.Hour)) // the caller retries later, with the same item
	if err := plain.Create(c, &a); !errors.Is(err, table.ErrAlreadyExists) {
		t.Fatalf("the caller's retry = %v; want ErrAlreadyExists (its own first write)", err)
	}
	ka := table.Key{PK: "SESSION#always", SK: "SESSION"}
	if got := stored(t, base, ka, "createdAt"); got != want || !a.CreatedAt.Equal(t0.Truncate(time.Millisecond)) {
		t.Errorf("after the caller's retry: stored createdAt %s, item %v; want %s for both", got, a.CreatedAt, want)
	}
}

// isoStamp is a time kept in a layout of its own (three fractional
// digits always, as JavaScript's toISOString): a table.TimeField.
type isoStamp struct{ time.Time }

func (t *isoStamp) SetTime(v time.Time) { t.Time = v }

func (t isoStamp) MarshalDynamo() (types.AttributeValue, error) {
	if t.IsZero() {
		return nil, nil
	}
	return &types.AttributeValueMemberS{Value: t.UTC().Format("2006-01-02T15:04:05.000Z")}, nil
}

func (t *isoStamp) UnmarshalDynamo(av types.AttributeValue) error {
	s, ok := av.(*types.AttributeValueMemberS)
	if !ok {
		return fmt.Errorf("isoStamp: %T", av)
	}
	v, err := time.Parse(time.RFC3339Nano, s.Value)
	t.Time = v.UTC()
	return err
}

type nanoItem struct {
	ID        string    `dynamo:"id"`
	CreatedAt time.Time `dynamo:"createdAt"`
	UpdatedAt time.Time `dynamo:"updatedAt"`
}

type secondsItem struct {
	ID        string    `dynamo:"id"`
	CreatedAt time.Time `dynamo:"createdAt,unixtime"`
	UpdatedAt time.Time `dynamo:"updatedAt,unixtime"`
}

type isoItem struct {
	ID        string   `dynamo:"id"`
	Note      string   `dynamo:"note"`
	CreatedAt isoStamp `dynamo:"createdAt"`
	UpdatedAt isoStamp `dynamo:"updatedAt"`
}

type ptrItem struct {
	ID        string     `dynamo:"id"`
	CreatedAt *time.Time `dynamo:"CreatedAt"`
	UpdatedAt *time.Time `dynamo:"UpdatedAt"`
}

// TestTimestampsPrecision: each declaration stores the clock's time at its
// own precision and in its field's form: nanoseconds, milliseconds in a
// fixed layout (a TimeField), epoch seconds (`unixtime`), and pointers.
func TestTimestampsPrecision(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 120456789, time.FixedZone("CET", 3600))
	clock := &stampClock{t: t0}
	tb := tabletest.NewTable(t, table.NewSchema("stampsprec"), func(o *table.Options) { o.Now = clock.Now })
	c := ctx(t)
	ts := func(p time.Duration) table.Timestamps {
		return table.Timestamps{Created: "createdAt", Updated: "updatedAt", Precision: p}
	}
	nano := table.NewEntity(tb, table.Def[nanoItem]{Type: "Nano", Keys: table.Template{PK: "NANO#{id}", SK: "N"}, Timestamps: ts(time.Nanosecond)})
	secs := table.NewEntity(tb, table.Def[secondsItem]{Type: "Secs", Keys: table.Template{PK: "SECS#{id}", SK: "S"}, Timestamps: ts(time.Second)})
	iso := table.NewEntity(tb, table.Def[isoItem]{Type: "ISO", Keys: table.Template{PK: "ISO#{id}", SK: "I"}, Timestamps: ts(time.Millisecond)})
	ptr := table.NewEntity(tb, table.Def[ptrItem]{Type: "Ptr", Keys: table.Template{PK: "PTR#{id}", SK: "P"},
		Timestamps: table.Timestamps{Created: "CreatedAt", Updated: "UpdatedAt", Precision: time.Millisecond}})
	if err := nano.Create(c, &nanoItem{ID: "1"}); err != nil {
		t.Fatal(err)
	}
	if err := secs.Create(c, &secondsItem{ID: "1"}); err != nil {
		t.Fatal(err)
	}
	if err := iso.Create(c, &isoItem{ID: "1"}); err != nil {
		t.Fatal(err)
	}
	p := ptrItem{ID: "1"}
	if err := ptr.Create(c, &p); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		k          table.Key
		created    string
		wantStored string
	}{
		{table.Key{PK: "NANO#1", SK: "N"}, "createdAt", `S"2026-11-22T09:00:00.120456789Z"`},
		{table.Key{PK: "SECS#1", SK: "S"}, "createdAt", `N"` + strconv.FormatInt(t0.Unix(), 10) + `"`},
		{table.Key{PK: "ISO#1", SK: "I"}, "createdAt", `S"2026-11-22T09:00:00.120Z"`},
		{table.Key{PK: "PTR#1", SK: "P"}, "CreatedAt", `S"2026-11-22T09:00:00.12Z"`},
	} {
		updated := "updatedAt"
		if tc.created == "CreatedAt" {
			updated = "UpdatedAt"
		}
		if c, u := stored(t, tb, tc.k, tc.created), stored(t, tb, tc.k, updated); c != tc.wantStored || u != tc.wantStored {
			t.Errorf("%s: stored %s / %s; want both %s", tc.k.PK, c, u, tc.wantStored)
		}
	}
	if p.CreatedAt == nil || p.UpdatedAt == nil || p.CreatedAt == p.UpdatedAt || !p.UpdatedAt.Equal(*p.CreatedAt) {
		t.Errorf("pointer fields after create: %v %v; want two equal times", p.CreatedAt, p.UpdatedAt)
	}
	// A patch stamps each at its precision too.
	clock.Set(t0.Add(90*time.Second + 333*time.Millisecond))
	if _, err := iso.Patch(c, table.Key{PK: "ISO#1", SK: "I"}, table.Patch{Set: map[string]any{"note": "x"}}); err != nil {
		t.Fatal(err)
	}
	if u := stored(t, tb, table.Key{PK: "ISO#1", SK: "I"}, "updatedAt"); u != `S"2026-11-22T09:01:30.453Z"` {
		t.Errorf("Patch of the ISO item stored updatedAt %s", u)
	}
	got, err := secs.Update(c, table.Key{PK: "SECS#1", SK: "S"}, func(*secondsItem) error { return nil })
	if err != nil || got.UpdatedAt.Nanosecond() != 0 || got.UpdatedAt.Unix() != t0.Unix()+90 {
		t.Errorf("Update of the seconds item: %v %v", got.UpdatedAt, err)
	}
}

// TestTimestampsTolerantRead: times other writers stored at other
// precisions (or offsets) are read, and a write that does not stamp them
// leaves their stored bytes as they were.
func TestTimestampsTolerantRead(t *testing.T) {
	t.Parallel()
	clock := &stampClock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	tb := tabletest.NewTable(t, table.NewSchema("stampsforeign"), func(o *table.Options) { o.Now = clock.Now })
	c := ctx(t)
	sessions := table.NewEntity(tb, table.Def[session]{Type: "Session", Keys: table.Template{PK: "SESSION#{id}", SK: "SESSION"}, Timestamps: sessionStamps})
	for i, foreign := range []string{"2024-01-02T03:04:05Z", "2024-01-02T03:04:05.1Z", "2024-01-02T03:04:05.123456789Z", "2024-01-02T04:04:05.5+01:00"} {
		id := strconv.Itoa(i)
		putRaw(t, tb, map[string]string{"PK": "SESSION#" + id, "SK": "SESSION", "id": id, "createdAt": foreign, "updatedAt": foreign})
		want, _ := time.Parse(time.RFC3339Nano, foreign)
		k := table.Key{PK: "SESSION#" + id, SK: "SESSION"}
		got, err := sessions.Get(c, k)
		if err != nil || !got.CreatedAt.Equal(want) || !got.UpdatedAt.Equal(want) {
			t.Errorf("read of %s: %v / %v, %v", foreign, got.CreatedAt, got.UpdatedAt, err)
		}
		if _, err := sessions.Update(c, k, func(s *session) error { s.Note = "mine"; return nil }); err != nil {
			t.Fatal(err)
		}
		if cr, u := stored(t, tb, k, "createdAt"), stored(t, tb, k, "updatedAt"); cr != `S"`+foreign+`"` || u != `S"2026-11-22T10:00:00Z"` {
			t.Errorf("after an update of the %s item: stored %s / %s; want createdAt as stored, updatedAt stamped", foreign, cr, u)
		}
	}
}

// TestTimestampsDeclarationChecked: a Timestamps declaration naming an
// attribute the type lacks, or one that cannot hold a time, panics in
// NewEntity (at start-up, not on the first write).
func TestTimestampsDeclarationChecked(t *testing.T) {
	t.Parallel()
	tb := table.New(nil, table.NewSchema("unused"))
	type bad struct {
		ID      string    `dynamo:"id"`
		Created string    `dynamo:"created"`
		At      time.Time `dynamo:"at"`
	}
	for _, ts := range []table.Timestamps{
		{Created: "createdAt"},
		{Created: "created"},
		{Updated: "id"},
		{Precision: time.Second},
		{Created: "at", Updated: "at"},
		{Updated: "at", Precision: -time.Second},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewEntity with Timestamps %+v did not panic", ts)
				}
			}()
			table.NewEntity(tb, table.Def[bad]{Type: "Bad", Keys: table.Template{PK: "B#{id}", SK: "B"}, Timestamps: ts})
		}()
	}
}
