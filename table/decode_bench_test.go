package table

import (
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
	"github.com/singletable/singletable/internal/codec"
)

// pageEvent has the shape of a Ferryhook event as stored: its fields, plus
// the key, index and bookkeeping attributes the struct does not hold.
type pageEvent struct {
	EventID     string    `dynamo:"eventId" dynamodbav:"eventId"`
	SourceID    string    `dynamo:"sourceId" dynamodbav:"sourceId"`
	UserID      string    `dynamo:"userId" dynamodbav:"userId"`
	EventType   string    `dynamo:"eventType" dynamodbav:"eventType"`
	Status      string    `dynamo:"status" dynamodbav:"status"`
	Body        string    `dynamo:"body" dynamodbav:"body"`
	ContentType string    `dynamo:"contentType" dynamodbav:"contentType"`
	Attempts    int       `dynamo:"attempts" dynamodbav:"attempts"`
	ReceivedAt  time.Time `dynamo:"receivedAt" dynamodbav:"receivedAt"`
	ExpiresAt   int64     `dynamo:"expiresAt" dynamodbav:"expiresAt"`
}

func eventPage() []map[string]types.AttributeValue {
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	page := make([]map[string]types.AttributeValue, 100)
	for i := range page {
		e := pageEvent{EventID: fmt.Sprintf("evt_%016d", i), SourceID: "src_aaaaaaaaaaaaaaaa", UserID: "usr_V1StGXR8_Z5jdHi6",
			EventType: "payment_intent.succeeded", Status: "delivered", Body: `{"id":"pi_1","amount":1999}`, ContentType: "application/json",
			Attempts: 1, ReceivedAt: at.Add(time.Duration(i) * time.Second), ExpiresAt: at.Unix() + 86400*30}
		item, _ := dynamo.MarshalItem(e)
		s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
		item["PK"], item["SK"] = s("SRC#"+e.SourceID), s("EVT#"+e.EventID)
		item["GSI1PK"], item["GSI1SK"] = s("USER#"+e.UserID), s("EVT#"+e.EventID)
		item["_type"], item["_v"], item["_wt"] = s("Event"), &types.AttributeValueMemberN{Value: "1"}, &types.AttributeValueMemberSS{Value: []string{"m.abc"}}
		page[i] = item
	}
	return page
}

// BenchmarkDecodePage decodes a 100-item page of events with the
// library's decoder, attributevalue and guregu (issue 12).
//
//	go test -run '^$' -bench DecodePage -benchmem ./table/
func BenchmarkDecodePage(b *testing.B) {
	page := eventPage()
	b.Run("library", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out := make([]pageEvent, len(page))
			for i, it := range page {
				if err := codec.DecodeItem(it, &out[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("attributevalue", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var out []pageEvent
			if err := attributevalue.UnmarshalListOfMaps(page, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("guregu", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out := make([]pageEvent, len(page))
			for i, it := range page {
				if err := dynamo.UnmarshalItem(it, &out[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
