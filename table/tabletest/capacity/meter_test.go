package capacity_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// meterFixture is a table with one GSI and a client metered by m.
func TestMain(m *testing.M) { tabletest.Main(m) }

func meterFixture(t *testing.T) (*capacity.Meter, *dynamodb.Client, string) {
	t.Helper()
	tbl := tabletest.NewTable(t, table.NewSchema("meter", table.WithIndexCount(1)))
	m := capacity.NewMeter(tabletest.Client(t))
	return m, tabletest.NewClient(t, m.Option()), tbl.Name()
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// item returns an item of about size bytes (names plus values), in
// partition pk, with a GSI1 entry in gsi when gsi is not "".
func item(pk, sk, gsi string, size int) map[string]types.AttributeValue {
	it := map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}
	if gsi != "" {
		it["GSI1PK"], it["GSI1SK"] = s(gsi), s(sk)
	}
	n := table.ItemSize(it) + len("body")
	if size > n {
		it["body"] = s(strings.Repeat("x", size-n))
	}
	return it
}

// TestMeterMatchesConsumedCapacity: on single PutItem, UpdateItem,
// GetItem and Query (the requests whose capacity DynamoDB Local reports
// right) the meter charges what DynamoDB Local says they consumed, table
// and GSI alike.
func TestMeterMatchesConsumedCapacity(t *testing.T) {
	t.Parallel()
	m, client, name := meterFixture(t)
	c := context.Background()
	idx := types.ReturnConsumedCapacityIndexes
	type got struct{ table, gsi float64 }
	reported := func(cc *types.ConsumedCapacity) got {
		g := got{}
		if cc.Table != nil {
			g.table = aws.ToFloat64(cc.Table.CapacityUnits)
		} else {
			g.table = aws.ToFloat64(cc.CapacityUnits)
		}
		for _, v := range cc.GlobalSecondaryIndexes {
			g.gsi += aws.ToFloat64(v.CapacityUnits)
		}
		return g
	}
	metered := func(write bool) got {
		var g got
		for p, u := range m.Keys() {
			v := u.Read
			if write {
				v = u.Write
			}
			if p.Index == "" {
				g.table += v
			} else {
				g.gsi += v
			}
		}
		return g
	}
	check := func(what string, write bool, cc *types.ConsumedCapacity) {
		t.Helper()
		if cc == nil {
			t.Fatalf("%s: no ConsumedCapacity", what)
		}
		want, g := reported(cc), metered(write)
		if want != g {
			t.Errorf("%s: metered table %.1f + GSI %.1f, DynamoDB Local reports %.1f + %.1f", what, g.table, g.gsi, want.table, want.gsi)
		}
		m.Reset()
	}
	for _, size := range []int{100, 1024, 1500, 5000} {
		m.Reset()
		out, err := client.PutItem(c, &dynamodb.PutItemInput{TableName: &name, Item: item("P#1", fmt.Sprintf("S#%05d", size), "G#1", size), ReturnConsumedCapacity: idx})
		if err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("PutItem of %d bytes", size), true, out.ConsumedCapacity)
		for _, consistent := range []bool{true, false} {
			out, err := client.GetItem(c, &dynamodb.GetItemInput{TableName: &name, Key: map[string]types.AttributeValue{"PK": s("P#1"), "SK": s(fmt.Sprintf("S#%05d", size))}, ConsistentRead: aws.Bool(consistent), ReturnConsumedCapacity: idx})
			if err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("GetItem of %d bytes, consistent %v", size, consistent), false, out.ConsumedCapacity)
		}
	}
	up, err := client.UpdateItem(c, &dynamodb.UpdateItemInput{TableName: &name, Key: map[string]types.AttributeValue{"PK": s("P#1"), "SK": s("S#00100")},
		UpdateExpression: aws.String("SET body = :b"), ExpressionAttributeValues: map[string]types.AttributeValue{":b": s(strings.Repeat("y", 3000))}, ReturnConsumedCapacity: idx})
	if err != nil {
		t.Fatal(err)
	}
	check("UpdateItem growing 100 bytes to 3 KB", true, up.ConsumedCapacity)
	for _, consistent := range []bool{true, false} {
		q, err := client.Query(c, &dynamodb.QueryInput{TableName: &name, KeyConditionExpression: aws.String("PK = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("P#1")}, ConsistentRead: aws.Bool(consistent), ReturnConsumedCapacity: idx})
		if err != nil {
			t.Fatal(err)
		}
		if len(q.Items) != 4 {
			t.Fatalf("query: %d items", len(q.Items))
		}
		check(fmt.Sprintf("Query of 4 items (~10 KB), consistent %v", consistent), false, q.ConsumedCapacity)
	}
	q, err := client.Query(c, &dynamodb.QueryInput{TableName: &name, IndexName: aws.String("GSI1"), KeyConditionExpression: aws.String("GSI1PK = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("G#1")}, ReturnConsumedCapacity: idx})
	if err != nil {
		t.Fatal(err)
	}
	// DynamoDB Local reports a GSI Query's units as the table's.
	if want, g := reported(q.ConsumedCapacity), metered(false); want.table+want.gsi != g.gsi || g.table != 0 {
		t.Errorf("GSI Query: metered table %.1f + GSI %.1f, DynamoDB Local reports %.1f + %.1f", g.table, g.gsi, want.table, want.gsi)
	}
}

// TestMeterRules: the charges DynamoDB Local cannot confirm (transactions,
// GSI moves, deletes, batches, filtered queries) follow DynamoDB's rules as
// docs/performance.md ("Scale") states them.
func TestMeterRules(t *testing.T) {
	t.Parallel()
	m, client, name := meterFixture(t)
	c := context.Background()
	key := func(pk, sk string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": s(pk), "SK": s(sk)}
	}
	want := func(what string, keys map[string]capacity.Usage) {
		t.Helper()
		got := map[string]capacity.Usage{}
		for p, u := range m.Keys() {
			got[p.String()] = u
		}
		if fmt.Sprint(got) != fmt.Sprint(keys) {
			t.Errorf("%s: charged %v, want %v", what, got, keys)
		}
		m.Reset()
	}
	w := func(n float64) capacity.Usage { return capacity.Usage{Write: n} }
	r := func(n float64) capacity.Usage { return capacity.Usage{Read: n} }

	// A transaction doubles the table's writes, not the GSI's; a
	// ConditionCheck is a write of the item it checks.
	if _, err := client.PutItem(c, &dynamodb.PutItemInput{TableName: &name, Item: item("U#1", "PROFILE", "", 1500)}); err != nil {
		t.Fatal(err)
	}
	m.Reset()
	_, err := client.TransactWriteItems(c, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: &name, Item: item("SRC#1", "EVT#1", "DUE", 1600)}},
		{ConditionCheck: &types.ConditionCheck{TableName: &name, Key: key("U#1", "PROFILE"), ConditionExpression: aws.String("attribute_exists(PK)")}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want("transaction", map[string]capacity.Usage{"table SRC#1": w(4), "table U#1": w(4), "GSI1 DUE": w(2)})

	// Moving an item's GSI key is a delete on the old partition and a put
	// on the new; changing another attribute rewrites the entry in place.
	_, err = client.UpdateItem(c, &dynamodb.UpdateItemInput{TableName: &name, Key: key("SRC#1", "EVT#1"),
		UpdateExpression: aws.String("SET GSI1PK = :g"), ExpressionAttributeValues: map[string]types.AttributeValue{":g": s("LATER")}})
	if err != nil {
		t.Fatal(err)
	}
	want("GSI key moved", map[string]capacity.Usage{"table SRC#1": w(2), "GSI1 DUE": w(2), "GSI1 LATER": w(2)})
	_, err = client.UpdateItem(c, &dynamodb.UpdateItemInput{TableName: &name, Key: key("SRC#1", "EVT#1"),
		UpdateExpression: aws.String("SET n = :n"), ExpressionAttributeValues: map[string]types.AttributeValue{":n": &types.AttributeValueMemberN{Value: "1"}}})
	if err != nil {
		t.Fatal(err)
	}
	want("projected attribute changed", map[string]capacity.Usage{"table SRC#1": w(2), "GSI1 LATER": w(2)})
	// An update that changes nothing still writes the table, not the GSI.
	_, err = client.UpdateItem(c, &dynamodb.UpdateItemInput{TableName: &name, Key: key("SRC#1", "EVT#1"),
		UpdateExpression: aws.String("SET n = :n"), ExpressionAttributeValues: map[string]types.AttributeValue{":n": &types.AttributeValueMemberN{Value: "1"}}})
	if err != nil {
		t.Fatal(err)
	}
	want("nothing changed", map[string]capacity.Usage{"table SRC#1": w(2)})

	// A failed condition is charged on the table.
	_, err = client.PutItem(c, &dynamodb.PutItemInput{TableName: &name, Item: item("U#1", "PROFILE", "", 10), ConditionExpression: aws.String("attribute_not_exists(PK)")})
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		t.Fatalf("conditional put: %v", err)
	}
	want("failed condition", map[string]capacity.Usage{"table U#1": w(2)})

	// A delete charges the item it removes, and removes its GSI entry.
	if _, err := client.DeleteItem(c, &dynamodb.DeleteItemInput{TableName: &name, Key: key("SRC#1", "EVT#1")}); err != nil {
		t.Fatal(err)
	}
	want("delete", map[string]capacity.Usage{"table SRC#1": w(2), "GSI1 LATER": w(2)})

	// A batch charges each item; a transactional read doubles.
	_, err = client.BatchWriteItem(c, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{name: {
		{PutRequest: &types.PutRequest{Item: item("B#1", "1", "", 500)}},
		{PutRequest: &types.PutRequest{Item: item("B#1", "2", "", 2500)}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	want("batch", map[string]capacity.Usage{"table B#1": w(4)})
	_, err = client.TransactGetItems(c, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{{Get: &types.Get{TableName: &name, Key: key("B#1", "2")}}}})
	if err != nil {
		t.Fatal(err)
	}
	want("transactional get", map[string]capacity.Usage{"table B#1": r(2)})

	// A filter does not lower a Query's charge: it counts what was read.
	q, err := client.Query(c, &dynamodb.QueryInput{TableName: &name, KeyConditionExpression: aws.String("#p = :p"), FilterExpression: aws.String("body = :none"),
		ExpressionAttributeNames: map[string]string{"#p": "PK"}, ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("B#1"), ":none": s("x")}, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Items) != 0 {
		t.Fatalf("filtered query returned %d items", len(q.Items))
	}
	want("filtered query", map[string]capacity.Usage{"table B#1": r(1)})

	if it, u, ok := m.HottestItem(); ok {
		t.Errorf("after Reset, hottest item %v %v", it, u)
	}
}

func TestKeyShape(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"SRC#src_01JD8ZK3":            "SRC#{id}",
		"SCHED#DUE":                   "SCHED#DUE",
		"RUNS#running":                "RUNS#running",
		"USER#ada@example.com":        "USER#{id}",
		"EVT#2026-11-25T17:00:00Z#ab": "EVT#{time}#ab",
		"TOPIC#grpX1a#M#12":           "TOPIC#{id}#M#{n}",
		"USERS":                       "USERS",
	} {
		if got := capacity.KeyShape(in); got != want {
			t.Errorf("KeyShape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMeterThrottlesAnIndexPartition: a write whose GSI entry lands on a
// GSI partition past its limit is refused with the index's reason, and a
// read on a hot partition with the read reason.
func TestMeterThrottlesAnIndexPartition(t *testing.T) {
	t.Parallel()
	tbl := tabletest.NewTable(t, table.NewSchema("meter", table.WithIndexCount(1)))
	m := capacity.NewMeter(tabletest.Client(t))
	m.Throttle, m.WriteLimit, m.ReadLimit = true, 1, 1
	client := tabletest.NewClient(t, m.Option(), func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
	c, name := context.Background(), tbl.Name()
	if _, err := client.PutItem(c, &dynamodb.PutItemInput{TableName: &name, Item: item("A", "1", "HOT", 10)}); err != nil {
		t.Fatal(err)
	}
	_, err := client.PutItem(c, &dynamodb.PutItemInput{TableName: &name, Item: item("B", "1", "HOT", 10)})
	var pte *types.ProvisionedThroughputExceededException
	if !errors.As(err, &pte) || len(pte.ThrottlingReasons) != 1 {
		t.Fatalf("put onto a hot GSI partition: %v", err)
	}
	if r := pte.ThrottlingReasons[0]; aws.ToString(r.Reason) != "IndexWriteKeyRangeThroughputExceeded" || !strings.HasSuffix(aws.ToString(r.Resource), "/index/GSI1") {
		t.Errorf("reason %s on %s", aws.ToString(r.Reason), aws.ToString(r.Resource))
	}
	for range 2 {
		_, err = client.GetItem(c, &dynamodb.GetItemInput{TableName: &name, Key: map[string]types.AttributeValue{"PK": s("A"), "SK": s("1")}, ConsistentRead: aws.Bool(true)})
	}
	if !errors.As(err, &pte) || aws.ToString(pte.ThrottlingReasons[0].Reason) != "TableReadKeyRangeThroughputExceeded" {
		t.Fatalf("second read of a hot key: %v", err)
	}
	m.Advance()
	if _, err := client.GetItem(c, &dynamodb.GetItemInput{TableName: &name, Key: map[string]types.AttributeValue{"PK": s("A"), "SK": s("1")}}); err != nil {
		t.Errorf("read in a new second: %v", err)
	}
	if m.Throttled() != 2 {
		t.Errorf("%d throttled, want 2", m.Throttled())
	}
}
