package capacity_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// A meter on the client of the table under test charges each request to
// the partition keys it touches: here three 1.5 KB events written in
// transactions, each also indexed in GSI1 under one constant key.
func ExampleMeter() {
	t, done := tabletest.ForExample("ExampleMeter")
	defer done()
	tbl := tabletest.NewTable(t, table.NewSchema("shop", table.WithIndexCount(1)))
	meter := capacity.NewMeter(tabletest.Client(t)) // reads through an unmetered client
	client := tabletest.NewClient(t, meter.Option())

	for i := range 3 {
		event := map[string]types.AttributeValue{
			"PK":     &types.AttributeValueMemberS{Value: "SRC#src_7Hq2"},
			"SK":     &types.AttributeValueMemberS{Value: fmt.Sprintf("EVT#%d", i)},
			"GSI1PK": &types.AttributeValueMemberS{Value: "PENDING"},
			"GSI1SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("EVT#%d", i)},
			"body":   &types.AttributeValueMemberS{Value: strings.Repeat("x", 1500)},
		}
		_, err := client.TransactWriteItems(context.Background(), &dynamodb.TransactWriteItemsInput{
			TransactItems: []types.TransactWriteItem{{Put: &types.Put{TableName: aws.String(tbl.Name()), Item: event}}},
		})
		if err != nil {
			panic(err)
		}
	}
	p, u, _ := meter.Hottest()
	fmt.Println("hottest:", p.Shape(), u)
	fmt.Println("total:", meter.Total())
	fmt.Printf("sustainable: %.0f calls/s on that key\n", capacity.PartitionWriteLimit/(u.Write/3))
	// Output:
	// hottest: table SRC#{id} 12 WCU
	// total: 18 WCU
	// sustainable: 250 calls/s on that key
}
