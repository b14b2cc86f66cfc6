package capacity

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/singletable/singletable/table"
)

// DynamoDB's per-partition limits: one partition key value of a table or
// of a GSI takes at most this many units per second, and so does one item
// (Developer Guide, "warm throughput", "partition key design").
const (
	PartitionWriteLimit = 1000.0
	PartitionReadLimit  = 3000.0
)

// Meter charges every request a client sends to the partition keys and
// items it touches, by DynamoDB's capacity rules, because DynamoDB Local
// has no partitions, never throttles and misreports transactions. It is
// how a test sees the hottest key of an access pattern, and what a load
// puts on it (see [Scale]).
//
// Install it on the client of the tables under test with [Meter.Option].
// Reader must be another client of the same DynamoDB Local without the
// meter: the meter reads stored items through it (the item before a write,
// after an update) and each table's key schema (DescribeTable, once).
//
// Writes (PutItem, UpdateItem, DeleteItem, BatchWriteItem,
// TransactWriteItems) charge the table's partition and the item
// ceil(size/1 KB) write units, size being attribute names plus values and
// the larger of the item before and after the write; twice that inside a
// transaction, where a ConditionCheck is charged as a write of the item it
// checks. Each GSI whose entry the write changes is charged on the entry's
// partition, rounded on the entry's size (its projected attributes): 1
// write for an entry added or removed or whose projected attributes
// changed, 2 (a delete on the old partition, a put on the new) for a
// changed index key; never doubled by a transaction (DynamoDB does not
// document it: a lower bound). A conditional write that fails is charged
// on its table partition, as DynamoDB does; a canceled transaction is not.
//
// Reads charge ceil(size/4 KB) read units, half when eventually
// consistent: GetItem and each item of BatchGetItem on their item (a
// missing item costs the minimum), each item of TransactGetItems twice
// (strongly consistent), a Query on the sum of the items it evaluated
// (a filter does not lower it), a Scan per partition of the items it
// returned. Read units are charged to partitions, and point reads to items
// too.
//
// With Throttle set, a request that touches a partition already past its
// limit (WriteLimit, ReadLimit) within the current modeled second fails as
// DynamoDB fails it: ProvisionedThroughputExceededException with its
// ThrottlingReasons (TableWriteKeyRangeThroughputExceeded, ...), or, for
// a transaction, TransactionCanceledException with reason ThrottlingError
// on the throttled actions. The throttle is answered below the SDK's
// retryer, so the SDK and the engine retry it as they would in production.
// A modeled second passes on [Meter.Advance], or every RequestsPerSecond
// requests sent (retries included).
//
// Charges are exact for requests sent one at a time; concurrent requests
// on one item may see each other's before-images. The meter is safe for
// concurrent use.
type Meter struct {
	// Reader is an unmetered client of the same DynamoDB Local.
	Reader *dynamodb.Client

	// Throttle turns the throttling mode on.
	Throttle bool
	// WriteLimit and ReadLimit are the units one partition key takes per
	// modeled second before it is throttled: PartitionWriteLimit and
	// PartitionReadLimit when zero.
	WriteLimit, ReadLimit float64
	// RequestsPerSecond, when positive, makes a modeled second pass every
	// that many requests.
	RequestsPerSecond int

	mu        sync.Mutex
	templates []shapeTemplate
	tables    map[string]*meterTable
	keys      map[Partition]Usage
	items     map[ItemRef]Usage
	window    map[Partition]Usage
	requests  int
	sent      int
	throttled int

	// minute is the modeled-minute run in progress (see [RunMinute]).
	minute *minuteRun
}

// NewMeter returns a meter that reads stored items and key schemas through
// reader, a client without the meter (such as [Client]'s).
func NewMeter(reader *dynamodb.Client) *Meter { return &Meter{Reader: reader} }

// Usage is capacity consumed: read and write units.
type Usage struct {
	Read, Write float64
}

// Load returns the larger fraction of a partition's limits u takes:
// Write/PartitionWriteLimit or Read/PartitionReadLimit.
func (u Usage) Load() float64 { return max(u.Write/PartitionWriteLimit, u.Read/PartitionReadLimit) }

// Scaled returns u times f.
func (u Usage) Scaled(f float64) Usage { return Usage{Read: u.Read * f, Write: u.Write * f} }

// String renders u as "4 WCU", "0.5 RCU" or "2 WCU + 1 RCU".
func (u Usage) String() string {
	switch {
	case u.Read == 0 && u.Write == 0:
		return "0"
	case u.Read == 0:
		return units(u.Write) + " WCU"
	case u.Write == 0:
		return units(u.Read) + " RCU"
	}
	return units(u.Write) + " WCU + " + units(u.Read) + " RCU"
}

func units(f float64) string {
	if f == math.Trunc(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.1f", f)
}

// Partition is one partition key value of a table or of one of its GSIs.
type Partition struct {
	// Table is the table's name.
	Table string
	// Index is the GSI's name, or "" for the table itself.
	Index string
	// Key is the partition key value (a number as its text, a binary
	// value in base64).
	Key string
}

// String renders p as "table SRC#src_1" or "GSI1 SCHED#DUE".
func (p Partition) String() string {
	if p.Index == "" {
		return "table " + p.Key
	}
	return p.Index + " " + p.Key
}

// Shape returns p with the ID-like segments of its key replaced by
// placeholders (see [KeyShape]): "table SRC#{id}", "GSI1 SCHED#DUE".
func (p Partition) Shape() string {
	p.Key = KeyShape(p.Key)
	return p.String()
}

// ItemRef names one item of a table by its key values.
type ItemRef struct {
	Table  string
	PK, SK string
}

// String renders r as "PK/SK".
func (r ItemRef) String() string { return r.PK + "/" + r.SK }

var (
	shapeNumber = regexp.MustCompile(`^[0-9]+$`)
	shapeTime   = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}`)
	shapeWord   = regexp.MustCompile(`^([A-Z_]{1,24}|[a-z]{1,16})$`)
)

// KeyShape returns key with each '#'-separated segment that looks like an
// ID replaced by a placeholder: digits by {n}, a timestamp by {time},
// anything else but an upper-case word (SRC, SCHED_DUE) or a short
// lower-case one (active, email) by {id}. It guesses: a lower-case name
// ("carol") stays; [Meter.Shape] knows the declared templates.
func KeyShape(key string) string {
	segs := strings.Split(key, "#")
	for i, s := range segs {
		switch {
		case s == "":
		case shapeNumber.MatchString(s):
			segs[i] = "{n}"
		case shapeTime.MatchString(s):
			segs[i] = "{time}"
		case !shapeWord.MatchString(s):
			segs[i] = "{id}"
		}
	}
	return strings.Join(segs, "#")
}

// Keys returns the units charged to each partition since the last Reset.
func (m *Meter) Keys() map[Partition]Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.keys)
}

// Items returns the units charged to each item since the last Reset.
func (m *Meter) Items() map[ItemRef]Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.items)
}

// Total returns the units charged to all partitions (the table's and the
// GSIs': what the requests cost the table, and the bill).
func (m *Meter) Total() Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	var t Usage
	for _, u := range m.keys {
		t.Read += u.Read
		t.Write += u.Write
	}
	return t
}

// Hottest returns the partition with the highest [Usage.Load] and its
// units (ties go to the smallest name); ok is false when nothing was
// charged.
func (m *Meter) Hottest() (p Partition, u Usage, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return hottest(m.keys, func(a, b Partition) bool { return a.String() < b.String() })
}

// HottestItem returns the item with the highest [Usage.Load] and its
// units; ok is false when nothing was charged to an item.
func (m *Meter) HottestItem() (r ItemRef, u Usage, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return hottest(m.items, func(a, b ItemRef) bool { return a.String() < b.String() })
}

func hottest[K comparable](in map[K]Usage, less func(a, b K) bool) (k K, u Usage, ok bool) {
	for kk, uu := range in {
		if !ok || uu.Load() > u.Load() || (uu.Load() == u.Load() && less(kk, k)) {
			k, u, ok = kk, uu, true
		}
	}
	return k, u, ok
}

// Requests returns how many metered requests succeeded since the last
// Reset; Throttled how many attempts the throttling mode refused.
func (m *Meter) Requests() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.requests
}

// Throttled returns how many attempts the throttling mode refused since
// the last Reset.
func (m *Meter) Throttled() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.throttled
}

// Reset forgets every charge and starts a new modeled second (the key
// schemas it read stay known).
func (m *Meter) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.keys, m.items, m.window = nil, nil, nil
	m.requests, m.sent, m.throttled = 0, 0, 0
}

// Advance starts a new modeled second: the throttling mode forgets what
// each partition took in the last one.
func (m *Meter) Advance() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.window, m.sent = nil, 0
}

// Option installs the meter on a client.
func (m *Meter) Option() func(*dynamodb.Options) {
	charge := middleware.InitializeMiddlewareFunc("tabletest.Meter",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			p, err := m.prepare(ctx, in.Parameters)
			if err != nil {
				return middleware.InitializeOutput{}, middleware.Metadata{}, fmt.Errorf("tabletest: meter: %w", err)
			}
			if p == nil {
				return next.HandleInitialize(ctx, in)
			}
			m.beginInvocation(ctx, p)
			out, md, err := next.HandleInitialize(context.WithValue(ctx, meterPlanKey{m}, p), in)
			if err == nil {
				err = m.settle(ctx, p, out.Result)
			} else {
				err = m.settleFailed(p, err)
			}
			return out, md, err
		})
	throttle := middleware.DeserializeMiddlewareFunc("tabletest.MeterThrottle",
		func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
			p, _ := ctx.Value(meterPlanKey{m}).(*meterPlan)
			if p == nil {
				return next.HandleDeserialize(ctx, in)
			}
			if resp := m.throttleAttempt(ctx, p); resp != nil {
				return middleware.DeserializeOutput{RawResponse: resp}, middleware.Metadata{}, nil
			}
			return next.HandleDeserialize(ctx, in)
		})
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
			if err := st.Initialize.Add(charge, middleware.After); err != nil {
				return err
			}
			return st.Deserialize.Add(throttle, middleware.After)
		})
	}
}

type meterPlanKey struct{ m *Meter }

// meterTable is what the meter knows of a table's keys.
type meterTable struct {
	name   string
	arn    string
	pk, sk string
	gsis   []meterGSI
}

type meterGSI struct {
	name, arn string
	pk, sk    string
	proj      types.ProjectionType
	include   []string
}

func (m *Meter) table(ctx context.Context, name string) (*meterTable, error) {
	m.mu.Lock()
	t := m.tables[name]
	m.mu.Unlock()
	if t != nil {
		return t, nil
	}
	if m.Reader == nil {
		return nil, fmt.Errorf("no Reader client")
	}
	out, err := m.Reader.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		return nil, err
	}
	d := out.Table
	t = &meterTable{name: name, arn: aws.ToString(d.TableArn)}
	t.pk, t.sk = keyNames(d.KeySchema)
	for _, g := range d.GlobalSecondaryIndexes {
		gi := meterGSI{name: aws.ToString(g.IndexName), arn: aws.ToString(g.IndexArn)}
		gi.pk, gi.sk = keyNames(g.KeySchema)
		if g.Projection != nil {
			gi.proj, gi.include = g.Projection.ProjectionType, g.Projection.NonKeyAttributes
		}
		if gi.arn == "" {
			gi.arn = t.arn + "/index/" + gi.name
		}
		t.gsis = append(t.gsis, gi)
	}
	m.mu.Lock()
	if m.tables == nil {
		m.tables = map[string]*meterTable{}
	}
	m.tables[name] = t
	m.mu.Unlock()
	return t, nil
}

func keyNames(ks []types.KeySchemaElement) (pk, sk string) {
	for _, k := range ks {
		if k.KeyType == types.KeyTypeHash {
			pk = aws.ToString(k.AttributeName)
		} else {
			sk = aws.ToString(k.AttributeName)
		}
	}
	return pk, sk
}

func (t *meterTable) gsi(name string) *meterGSI {
	for i := range t.gsis {
		if t.gsis[i].name == name {
			return &t.gsis[i]
		}
	}
	return nil
}

// keyValue renders a key attribute value.
func keyValue(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value)
	}
	return ""
}

func (t *meterTable) ref(item map[string]types.AttributeValue) ItemRef {
	r := ItemRef{Table: t.name, PK: keyValue(item[t.pk])}
	if t.sk != "" {
		r.SK = keyValue(item[t.sk])
	}
	return r
}

func (t *meterTable) part(item map[string]types.AttributeValue) Partition {
	return Partition{Table: t.name, Key: keyValue(item[t.pk])}
}

func (t *meterTable) keyOnly(item map[string]types.AttributeValue) map[string]types.AttributeValue {
	k := map[string]types.AttributeValue{t.pk: item[t.pk]}
	if t.sk != "" {
		k[t.sk] = item[t.sk]
	}
	return k
}

// entry returns the GSI entry of item: whether it has one, its partition,
// and its projected attributes.
func (t *meterTable) entry(g *meterGSI, item map[string]types.AttributeValue) (bool, Partition, map[string]types.AttributeValue) {
	if item == nil {
		return false, Partition{}, nil
	}
	pv, ok := item[g.pk]
	if !ok {
		return false, Partition{}, nil
	}
	if g.sk != "" {
		if _, ok := item[g.sk]; !ok {
			return false, Partition{}, nil
		}
	}
	p := Partition{Table: t.name, Index: g.name, Key: keyValue(pv)}
	if g.proj == types.ProjectionTypeAll || g.proj == "" {
		return true, p, item
	}
	proj := map[string]types.AttributeValue{}
	for _, a := range append([]string{t.pk, t.sk, g.pk, g.sk}, g.include...) {
		if v, ok := item[a]; ok && a != "" {
			proj[a] = v
		}
	}
	return true, p, proj
}

// writeUnits is ceil(max(sizes)/1 KB), at least 1.
func writeUnits(items ...map[string]types.AttributeValue) float64 {
	n := 0
	for _, it := range items {
		n = max(n, table.ItemSize(it))
	}
	return max(1, math.Ceil(float64(n)/1024))
}

// readUnits is ceil(size/4 KB), at least 1, halved when eventually
// consistent.
func readUnits(size int, consistent bool) float64 {
	u := max(1, math.Ceil(float64(size)/4096))
	if !consistent {
		u /= 2
	}
	return u
}

// meterWrite is one item written by a request.
type meterWrite struct {
	t             *meterTable
	key           map[string]types.AttributeValue
	before, after map[string]types.AttributeValue
	put           bool // after is known from the request
	update        bool // after is read once the request succeeded
	check         bool // a ConditionCheck: nothing written
	tx            bool
}

// meterRead is one point read.
type meterRead struct {
	t          *meterTable
	key        map[string]types.AttributeValue
	consistent bool
	tx         bool
	projected  bool // the response may lack attributes: read the item
}

// meterPlan is what the meter learned about a request before sending it.
type meterPlan struct {
	op     string
	writes []meterWrite
	reads  []meterRead
	query  *dynamodb.QueryInput
	scan   *dynamodb.ScanInput
	qt     *meterTable
	qpart  Partition
	// batch inputs, to tell processed from unprocessed
	batchGet *dynamodb.BatchGetItemInput
	// In a modeled-minute run: the request's fingerprint, how many
	// attempts it made, and the modeled second of the last one.
	fp       string
	attempts int
	sec      int64
	timed    bool
}

// prepare reads what the request will change, or returns nil for a
// request the meter does not charge.
func (m *Meter) prepare(ctx context.Context, params any) (*meterPlan, error) {
	p := &meterPlan{}
	addWrite := func(tbl *string, key, putItem map[string]types.AttributeValue, update, check, tx bool) error {
		t, err := m.table(ctx, aws.ToString(tbl))
		if err != nil {
			return err
		}
		if key == nil {
			key = t.keyOnly(putItem)
		}
		before, err := m.read(ctx, t, key)
		if err != nil {
			return err
		}
		w := meterWrite{t: t, key: key, before: before, update: update, check: check, tx: tx}
		if putItem != nil {
			w.after, w.put = putItem, true
		}
		p.writes = append(p.writes, w)
		return nil
	}
	switch in := params.(type) {
	case *dynamodb.PutItemInput:
		p.op = "PutItem"
		return p, addWrite(in.TableName, nil, in.Item, false, false, false)
	case *dynamodb.UpdateItemInput:
		p.op = "UpdateItem"
		return p, addWrite(in.TableName, in.Key, nil, true, false, false)
	case *dynamodb.DeleteItemInput:
		p.op = "DeleteItem"
		return p, addWrite(in.TableName, in.Key, nil, false, false, false)
	case *dynamodb.BatchWriteItemInput:
		p.op = "BatchWriteItem"
		for name, reqs := range in.RequestItems {
			for _, r := range reqs {
				var err error
				switch {
				case r.PutRequest != nil:
					err = addWrite(aws.String(name), nil, r.PutRequest.Item, false, false, false)
				case r.DeleteRequest != nil:
					err = addWrite(aws.String(name), r.DeleteRequest.Key, nil, false, false, false)
				}
				if err != nil {
					return nil, err
				}
			}
		}
		return p, nil
	case *dynamodb.TransactWriteItemsInput:
		p.op = "TransactWriteItems"
		for _, it := range in.TransactItems {
			var err error
			switch {
			case it.Put != nil:
				err = addWrite(it.Put.TableName, nil, it.Put.Item, false, false, true)
			case it.Update != nil:
				err = addWrite(it.Update.TableName, it.Update.Key, nil, true, false, true)
			case it.Delete != nil:
				err = addWrite(it.Delete.TableName, it.Delete.Key, nil, false, false, true)
			case it.ConditionCheck != nil:
				err = addWrite(it.ConditionCheck.TableName, it.ConditionCheck.Key, nil, false, true, true)
			}
			if err != nil {
				return nil, err
			}
		}
		return p, nil
	case *dynamodb.GetItemInput:
		p.op = "GetItem"
		t, err := m.table(ctx, aws.ToString(in.TableName))
		if err != nil {
			return nil, err
		}
		p.reads = append(p.reads, meterRead{t: t, key: in.Key, consistent: aws.ToBool(in.ConsistentRead),
			projected: in.ProjectionExpression != nil || len(in.AttributesToGet) > 0})
		return p, nil
	case *dynamodb.BatchGetItemInput:
		p.op, p.batchGet = "BatchGetItem", in
		for name, ka := range in.RequestItems {
			t, err := m.table(ctx, name)
			if err != nil {
				return nil, err
			}
			for _, k := range ka.Keys {
				p.reads = append(p.reads, meterRead{t: t, key: k, consistent: aws.ToBool(ka.ConsistentRead)})
			}
		}
		return p, nil
	case *dynamodb.TransactGetItemsInput:
		p.op = "TransactGetItems"
		for _, it := range in.TransactItems {
			if it.Get == nil {
				continue
			}
			t, err := m.table(ctx, aws.ToString(it.Get.TableName))
			if err != nil {
				return nil, err
			}
			p.reads = append(p.reads, meterRead{t: t, key: it.Get.Key, consistent: true, tx: true})
		}
		return p, nil
	case *dynamodb.QueryInput:
		p.op, p.query = "Query", in
		t, err := m.table(ctx, aws.ToString(in.TableName))
		if err != nil {
			return nil, err
		}
		p.qt = t
		pk := t.pk
		if in.IndexName != nil {
			g := t.gsi(*in.IndexName)
			if g == nil {
				return nil, fmt.Errorf("table %s has no GSI %s", t.name, *in.IndexName)
			}
			pk = g.pk
		}
		v := keyCondValue(aws.ToString(in.KeyConditionExpression), in.ExpressionAttributeNames, in.ExpressionAttributeValues, pk)
		p.qpart = Partition{Table: t.name, Index: aws.ToString(in.IndexName), Key: keyValue(v)}
		return p, nil
	case *dynamodb.ScanInput:
		p.op, p.scan = "Scan", in
		t, err := m.table(ctx, aws.ToString(in.TableName))
		if err != nil {
			return nil, err
		}
		p.qt = t
		return p, nil
	}
	return nil, nil
}

// read returns the stored item with key, through the unmetered reader.
func (m *Meter) read(ctx context.Context, t *meterTable, key map[string]types.AttributeValue) (map[string]types.AttributeValue, error) {
	out, err := m.Reader.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(t.name), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, err
	}
	return out.Item, nil
}

var keyCondClause = regexp.MustCompile(`(?i)\s+and\s+`)

// keyCondValue returns the value a key condition sets the partition key
// attribute pk to.
func keyCondValue(expr string, names map[string]string, vals map[string]types.AttributeValue, pk string) types.AttributeValue {
	for _, c := range keyCondClause.Split(expr, -1) {
		c = strings.Trim(strings.TrimSpace(c), "()")
		l, r, ok := strings.Cut(c, "=")
		if !ok {
			continue
		}
		l, r = strings.TrimSpace(l), strings.TrimSpace(r)
		if strings.HasPrefix(l, ":") {
			l, r = r, l
		}
		if n, ok := names[l]; ok {
			l = n
		}
		if l == pk {
			return vals[r]
		}
	}
	return nil
}

// charge adds u to partition p (and to the current modeled second).
func (m *Meter) charge(p Partition, u Usage) {
	if m.keys == nil {
		m.keys, m.window = map[Partition]Usage{}, map[Partition]Usage{}
	}
	if m.window == nil {
		m.window = map[Partition]Usage{}
	}
	k := m.keys[p]
	k.Read += u.Read
	k.Write += u.Write
	m.keys[p] = k
	w := m.window[p]
	w.Read += u.Read
	w.Write += u.Write
	m.window[p] = w
}

func (m *Meter) chargeItem(r ItemRef, u Usage) {
	if m.items == nil {
		m.items = map[ItemRef]Usage{}
	}
	k := m.items[r]
	k.Read += u.Read
	k.Write += u.Write
	m.items[r] = k
}

// settle charges a request that succeeded.
func (m *Meter) settle(ctx context.Context, p *meterPlan, result any) error {
	type charge struct {
		p Partition
		u Usage
	}
	var parts []charge
	var items []struct {
		r ItemRef
		u Usage
	}
	addItem := func(r ItemRef, u Usage) {
		items = append(items, struct {
			r ItemRef
			u Usage
		}{r, u})
	}
	// Which writes were processed (a batch may leave some unprocessed).
	skip := map[int]bool{}
	if o, ok := result.(*dynamodb.BatchWriteItemOutput); ok && len(o.UnprocessedItems) > 0 {
		left := map[string]bool{}
		for name, reqs := range o.UnprocessedItems {
			for _, r := range reqs {
				var k map[string]types.AttributeValue
				if r.PutRequest != nil {
					k = r.PutRequest.Item
				} else if r.DeleteRequest != nil {
					k = r.DeleteRequest.Key
				}
				for _, w := range p.writes {
					if w.t.name == name {
						left[name+"\x00"+w.t.ref(k).String()] = true
						break
					}
				}
			}
		}
		for i, w := range p.writes {
			if left[w.t.name+"\x00"+w.t.ref(w.key).String()] {
				skip[i] = true
			}
		}
	}
	for i, w := range p.writes {
		if skip[i] {
			continue
		}
		if w.update {
			after, err := m.read(ctx, w.t, w.key)
			if err != nil {
				return fmt.Errorf("tabletest: meter: %w", err)
			}
			w.after = after
		}
		factor := 1.0
		if w.tx {
			factor = 2
		}
		var u float64
		if w.check {
			u = writeUnits(w.before) * factor
		} else {
			u = writeUnits(w.before, w.after) * factor
		}
		keyItem := w.key
		parts = append(parts, charge{w.t.part(keyItem), Usage{Write: u}})
		addItem(w.t.ref(keyItem), Usage{Write: u})
		if w.check {
			continue
		}
		for gi := range w.t.gsis {
			g := &w.t.gsis[gi]
			bIn, bp, bProj := w.t.entry(g, w.before)
			aIn, ap, aProj := w.t.entry(g, w.after)
			switch {
			case !bIn && !aIn:
			case !bIn:
				parts = append(parts, charge{ap, Usage{Write: writeUnits(aProj)}})
			case !aIn:
				parts = append(parts, charge{bp, Usage{Write: writeUnits(bProj)}})
			case !reflect.DeepEqual(w.before[g.pk], w.after[g.pk]) || (g.sk != "" && !reflect.DeepEqual(w.before[g.sk], w.after[g.sk])):
				parts = append(parts, charge{bp, Usage{Write: writeUnits(bProj)}}, charge{ap, Usage{Write: writeUnits(aProj)}})
			case !reflect.DeepEqual(bProj, aProj):
				parts = append(parts, charge{ap, Usage{Write: writeUnits(bProj, aProj)}})
			}
		}
	}
	switch p.op {
	case "GetItem", "TransactGetItems", "BatchGetItem":
		var got map[string]map[string]types.AttributeValue // by table+key, when the response holds whole items
		switch o := result.(type) {
		case *dynamodb.GetItemOutput:
			if in := p.reads[0]; o.Item != nil && !in.projected {
				got = map[string]map[string]types.AttributeValue{in.t.name + "\x00" + in.t.ref(o.Item).String(): o.Item}
			}
		case *dynamodb.BatchGetItemOutput:
			got = map[string]map[string]types.AttributeValue{}
			for name, its := range o.Responses {
				if ka := p.batchGet.RequestItems[name]; ka.ProjectionExpression != nil || len(ka.AttributesToGet) > 0 {
					got = nil
					break
				}
				for _, it := range its {
					for _, r := range p.reads {
						if r.t.name == name {
							got[name+"\x00"+r.t.ref(it).String()] = it
							break
						}
					}
				}
			}
			left := map[string]bool{}
			for name, ka := range o.UnprocessedKeys {
				for _, k := range ka.Keys {
					for _, r := range p.reads {
						if r.t.name == name {
							left[name+"\x00"+r.t.ref(k).String()] = true
							break
						}
					}
				}
			}
			kept := p.reads[:0:0]
			for _, r := range p.reads {
				if !left[r.t.name+"\x00"+r.t.ref(r.key).String()] {
					kept = append(kept, r)
				}
			}
			p.reads = kept
		}
		for _, r := range p.reads {
			id := r.t.name + "\x00" + r.t.ref(r.key).String()
			item, ok := got[id]
			if !ok {
				var err error
				if item, err = m.read(ctx, r.t, r.key); err != nil {
					return fmt.Errorf("tabletest: meter: %w", err)
				}
			}
			u := readUnits(table.ItemSize(item), r.consistent)
			if r.tx {
				u *= 2
			}
			parts = append(parts, charge{r.t.part(r.key), Usage{Read: u}})
			addItem(r.t.ref(r.key), Usage{Read: u})
		}
	case "Query":
		o := result.(*dynamodb.QueryOutput)
		its := o.Items
		in := p.query
		if in.FilterExpression != nil || in.ProjectionExpression != nil || len(in.AttributesToGet) > 0 || (in.Select != "" && in.Select != types.SelectAllAttributes) {
			// Count what DynamoDB read, not what it returned: the same
			// page, unfiltered and unprojected.
			cp := *in
			cp.FilterExpression, cp.ProjectionExpression, cp.AttributesToGet, cp.Select = nil, nil, nil, ""
			cp.ReturnConsumedCapacity = ""
			cp.ExpressionAttributeNames = usedNames(cp.ExpressionAttributeNames, aws.ToString(cp.KeyConditionExpression))
			cp.ExpressionAttributeValues = usedValues(cp.ExpressionAttributeValues, aws.ToString(cp.KeyConditionExpression))
			out, err := m.Reader.Query(ctx, &cp)
			if err != nil {
				return fmt.Errorf("tabletest: meter: %w", err)
			}
			its = out.Items
		}
		size := 0
		for _, it := range its {
			size += table.ItemSize(it)
		}
		consistent := aws.ToBool(in.ConsistentRead) && in.IndexName == nil
		parts = append(parts, charge{p.qpart, Usage{Read: readUnits(size, consistent)}})
	case "Scan":
		o := result.(*dynamodb.ScanOutput)
		sizes := map[Partition]int{}
		for _, it := range o.Items {
			pt := p.qt.part(it)
			if p.scan.IndexName != nil {
				if g := p.qt.gsi(*p.scan.IndexName); g != nil {
					pt = Partition{Table: p.qt.name, Index: g.name, Key: keyValue(it[g.pk])}
				}
			}
			sizes[pt] += table.ItemSize(it)
		}
		for pt, n := range sizes {
			parts = append(parts, charge{pt, Usage{Read: readUnits(n, aws.ToBool(p.scan.ConsistentRead))}})
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests++
	for _, c := range parts {
		m.charge(c.p, c.u)
		m.chargeSecond(p, c.p, c.u)
	}
	for _, it := range items {
		m.chargeItem(it.r, it.u)
	}
	return nil
}

func usedNames(names map[string]string, expr string) map[string]string {
	out := map[string]string{}
	for k, v := range names {
		if strings.Contains(expr, k) {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func usedValues(vals map[string]types.AttributeValue, expr string) map[string]types.AttributeValue {
	out := map[string]types.AttributeValue{}
	for k, v := range vals {
		if strings.Contains(expr, k) {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// settleFailed charges a single conditional write whose condition failed
// (DynamoDB charges it), and passes err on.
func (m *Meter) settleFailed(p *meterPlan, err error) error {
	var ccf *types.ConditionalCheckFailedException
	if len(p.writes) != 1 || p.op == "BatchWriteItem" || p.op == "TransactWriteItems" || !errors.As(err, &ccf) {
		return err
	}
	w := p.writes[0]
	u := Usage{Write: writeUnits(w.before)}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests++
	m.charge(w.t.part(w.key), u)
	m.chargeSecond(p, w.t.part(w.key), u)
	m.chargeItem(w.t.ref(w.key), u)
	return err
}
