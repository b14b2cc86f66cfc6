package lambdafeed_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/feed/lambdafeed"
	"github.com/singletable/singletable/table/tabletest"
)

// A Lambda function subscribed to the table's stream: the event Lambda
// hands it (here the JSON it sends: a note created, modified, and removed
// by TTL, and a unique guard's record) routed to the typed handler of
// notes; the guard never reaches it. The response is Lambda's partial
// batch response: empty, since every record was handled.
func ExampleHandle() {
	t, done := tabletest.ForExample("ExampleHandle")
	defer done()
	tbl := tabletest.NewTable(t, table.NewSchema("lambda", table.WithStream(types.StreamViewTypeNewAndOldImages)))
	type note struct {
		ID   string `dynamo:"id"`
		Text string `dynamo:"text"`
	}
	notes := table.NewEntity(tbl, table.Def[note]{Type: "Note", Keys: table.Template{PK: "NOTE#{id}", SK: "NOTE"}})

	router := feed.NewRouter(tbl)
	feed.Handle(router, notes, func(_ context.Context, c table.ItemChange[note]) error {
		var before, after string
		if c.Old != nil {
			before = c.Old.Text
		}
		if c.New != nil {
			after = c.New.Text
		}
		fmt.Printf("%s %s %q -> %q\n", c.Event, c.Key.PK, before, after)
		return nil
	})

	const event = `{"Records": [
	 {"eventID": "1", "eventName": "INSERT", "eventSource": "aws:dynamodb", "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/app/stream/2026-11-28T00:00:00.000",
	  "dynamodb": {"ApproximateCreationDateTime": 1795000000, "SequenceNumber": "100", "StreamViewType": "NEW_AND_OLD_IMAGES",
	   "Keys": {"PK": {"S": "NOTE#n1"}, "SK": {"S": "NOTE"}},
	   "NewImage": {"PK": {"S": "NOTE#n1"}, "SK": {"S": "NOTE"}, "_type": {"S": "Note"}, "_v": {"N": "1"}, "id": {"S": "n1"}, "text": {"S": "hi"}}}},
	 {"eventID": "2", "eventName": "INSERT", "eventSource": "aws:dynamodb",
	  "dynamodb": {"ApproximateCreationDateTime": 1795000000, "SequenceNumber": "200", "StreamViewType": "NEW_AND_OLD_IMAGES",
	   "Keys": {"PK": {"S": "UNIQUE#Note#slug#hi"}, "SK": {"S": "UNIQUE"}},
	   "NewImage": {"PK": {"S": "UNIQUE#Note#slug#hi"}, "SK": {"S": "UNIQUE"}, "_type": {"S": "_unique"}}}},
	 {"eventID": "3", "eventName": "MODIFY", "eventSource": "aws:dynamodb",
	  "dynamodb": {"ApproximateCreationDateTime": 1795000060, "SequenceNumber": "300", "StreamViewType": "NEW_AND_OLD_IMAGES",
	   "Keys": {"PK": {"S": "NOTE#n1"}, "SK": {"S": "NOTE"}},
	   "OldImage": {"PK": {"S": "NOTE#n1"}, "SK": {"S": "NOTE"}, "_type": {"S": "Note"}, "_v": {"N": "1"}, "id": {"S": "n1"}, "text": {"S": "hi"}},
	   "NewImage": {"PK": {"S": "NOTE#n1"}, "SK": {"S": "NOTE"}, "_type": {"S": "Note"}, "_v": {"N": "2"}, "id": {"S": "n1"}, "text": {"S": "hello"}}}},
	 {"eventID": "4", "eventName": "REMOVE", "eventSource": "aws:dynamodb",
	  "userIdentity": {"type": "Service", "principalId": "dynamodb.amazonaws.com"},
	  "dynamodb": {"ApproximateCreationDateTime": 1795086400, "SequenceNumber": "400", "StreamViewType": "NEW_AND_OLD_IMAGES",
	   "Keys": {"PK": {"S": "NOTE#n1"}, "SK": {"S": "NOTE"}},
	   "OldImage": {"PK": {"S": "NOTE#n1"}, "SK": {"S": "NOTE"}, "_type": {"S": "Note"}, "_v": {"N": "2"}, "id": {"S": "n1"}, "text": {"S": "hello"}}}}
	]}`
	var ev events.DynamoDBEvent
	if err := json.NewDecoder(strings.NewReader(event)).Decode(&ev); err != nil {
		panic(err)
	}

	// The function's body: func(ctx, ev) (events.DynamoDBEventResponse, error).
	resp, err := lambdafeed.Handle(context.Background(), router, ev)
	out, _ := json.Marshal(resp)
	fmt.Println(string(out), err)
	// Output:
	// created NOTE#n1 "" -> "hi"
	// modified NOTE#n1 "hi" -> "hello"
	// expired NOTE#n1 "hello" -> ""
	// {"batchItemFailures":[]} <nil>
}
