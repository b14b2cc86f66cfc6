package tinode_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// rawMessage is what a hand-written adapter decodes a message into.
type rawMessage struct {
	Id         string
	CreatedAt  time.Time
	UpdatedAt  time.Time
	DeletedFor []string
	From       string
	Topic      string
	SeqId      int
	Head       map[string]any
	Content    any
	ExpireTime int64
}

// nextRawMessage is the hand-written save's first step: read the topic's
// SeqId (strongly consistent) and encode the next message.
func nextRawMessage(c context.Context, cl *dynamodb.Client, name string, key map[string]types.AttributeValue) (int, time.Time, map[string]types.AttributeValue, error) {
	out, err := cl.GetItem(c, &dynamodb.GetItemInput{TableName: aws.String(name), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return 0, time.Time{}, nil, err
	}
	n, _ := strconv.Atoi(out.Item["SeqId"].(*types.AttributeValueMemberN).Value)
	now := time.Now().UTC()
	m := rawMessage{From: "alice", Topic: "grpRaw", SeqId: n + 1, CreatedAt: now, UpdatedAt: now, Content: "hello", Head: map[string]any{"mime": "text/plain"}}
	item, err := attributevalue.MarshalMap(m)
	return n, now, item, err
}

// BenchmarkSave compares TN-12 (read SeqId, transaction of topic update +
// message create) through the library with the same requests written by
// hand with aws-sdk-go-v2.
func BenchmarkSave(b *testing.B) {
	s := newStore(b)
	c := context.Background()
	mustTopic(b, s, "grpLib")
	mustTopic(b, s, "grpRaw")
	mustTopic(b, s, "grpWarm")
	for range 200 { // warm DynamoDB Local's JIT so the first sub-benchmark is not penalized
		if err := s.Messages.Save(c, &tn.Message{Topic: "grpWarm", Content: tn.JSON("w")}); err != nil {
			b.Fatal(err)
		}
	}
	cl, name := s.Table().Client(), s.Table().Name()
	lib := func() error {
		m := tn.Message{Topic: "grpLib", From: "alice", Content: tn.JSON("hello"), Head: tn.JSON(map[string]string{"mime": "text/plain"})}
		return s.Messages.Save(c, &m)
	}
	key := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "TOPIC#grpRaw"}, "SK": &types.AttributeValueMemberS{Value: "TOPIC"}}
	raw := func() error {
		{
			n, now, item, err := nextRawMessage(c, cl, name, key)
			if err != nil {
				return err
			}
			item["PK"] = &types.AttributeValueMemberS{Value: "TOPIC#grpRaw"}
			item["SK"] = &types.AttributeValueMemberS{Value: "MSG#" + keys.MustUint(uint64(n+1), tn.SeqWidth)}
			item["_type"] = &types.AttributeValueMemberS{Value: tinode.TypeMessage}
			_, err = cl.TransactWriteItems(c, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Update: &types.Update{TableName: aws.String(name), Key: key,
					UpdateExpression:         aws.String("SET SeqId = :n, TouchedAt = :t ADD #v :one"),
					ConditionExpression:      aws.String("attribute_exists(PK) AND SeqId = :o"),
					ExpressionAttributeNames: map[string]string{"#v": "_v"},
					ExpressionAttributeValues: map[string]types.AttributeValue{
						":n": &types.AttributeValueMemberN{Value: strconv.Itoa(n + 1)}, ":o": &types.AttributeValueMemberN{Value: strconv.Itoa(n)},
						":t": &types.AttributeValueMemberS{Value: now.Format(time.RFC3339Nano)}, ":one": &types.AttributeValueMemberN{Value: "1"}}}},
				{Put: &types.Put{TableName: aws.String(name), Item: item, ConditionExpression: aws.String("attribute_not_exists(PK)")}},
			}})
			return err
		}
	}
	tabletest.Compare(b, 200, lib, raw)
}

// BenchmarkSaveSameGuarantees pairs a single sender's Save with
// hand-written code that gives the library's guarantees in the same two
// requests: the topic's type and expiry are checked with its SeqId, the
// message's create also replaces an expired, not yet deleted item, and a
// write token plus ClientRequestToken let a lost response be resolved.
// BenchmarkSave pairs it with the minimal code; the gap between the two is
// those guarantees' cost on DynamoDB Local.
func BenchmarkSaveSameGuarantees(b *testing.B) {
	s := newStore(b)
	c := context.Background()
	mustTopic(b, s, "grpLib")
	mustTopic(b, s, "grpRaw")
	mustTopic(b, s, "grpWarm")
	for range 200 {
		if err := s.Messages.Save(c, &tn.Message{Topic: "grpWarm", Content: tn.JSON("w")}); err != nil {
			b.Fatal(err)
		}
	}
	cl, name := s.Table().Client(), s.Table().Name()
	lib := func() error {
		m := tn.Message{Topic: "grpLib", From: "alice", Content: tn.JSON("hello"), Head: tn.JSON(map[string]string{"mime": "text/plain"})}
		return s.Messages.Save(c, &m)
	}
	key := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "TOPIC#grpRaw"}, "SK": &types.AttributeValueMemberS{Value: "TOPIC"}}
	var tok int64
	raw := func() error {
		n, now, item, err := nextRawMessage(c, cl, name, key)
		if err != nil {
			return err
		}
		tok++
		token := "raw." + strconv.FormatInt(tok, 16) + "." + strconv.FormatInt(now.UnixNano(), 16)
		item["PK"] = &types.AttributeValueMemberS{Value: "TOPIC#grpRaw"}
		item["SK"] = &types.AttributeValueMemberS{Value: "MSG#" + keys.MustUint(uint64(n+1), tn.SeqWidth)}
		item["_type"] = &types.AttributeValueMemberS{Value: tinode.TypeMessage}
		item["_v"] = &types.AttributeValueMemberN{Value: "1"}
		item["_wt"] = &types.AttributeValueMemberSS{Value: []string{token}}
		nowS := &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Unix(), 10)}
		tiny := &types.AttributeValueMemberN{Value: "1E-130"} // DynamoDB's smallest positive number
		_, err = cl.TransactWriteItems(c, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(token), TransactItems: []types.TransactWriteItem{
			{Update: &types.Update{TableName: aws.String(name), Key: key,
				UpdateExpression:         aws.String("SET SeqId = :n, TouchedAt = :t ADD #v :one"),
				ConditionExpression:      aws.String("attribute_exists(#pk) AND (attribute_not_exists(#ty) OR #ty = :ty) AND NOT #ttl BETWEEN :tiny AND :now AND SeqId = :o"),
				ExpressionAttributeNames: map[string]string{"#v": "_v", "#pk": "PK", "#ty": "_type", "#ttl": "ttl"},
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":n": &types.AttributeValueMemberN{Value: strconv.Itoa(n + 1)}, ":o": &types.AttributeValueMemberN{Value: strconv.Itoa(n)},
					":t": &types.AttributeValueMemberS{Value: now.Format(time.RFC3339Nano)}, ":one": &types.AttributeValueMemberN{Value: "1"},
					":ty": &types.AttributeValueMemberS{Value: tinode.TypeTopic}, ":now": nowS, ":tiny": tiny},
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
			{Put: &types.Put{TableName: aws.String(name), Item: item,
				ConditionExpression:                 aws.String("attribute_not_exists(#pk)"), // an expired item in the way: sent again on "... OR #ttl BETWEEN :tiny AND :now", as the library does
				ExpressionAttributeNames:            map[string]string{"#pk": "PK"},
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
		}})
		return err
	}
	tabletest.Compare(b, 200, lib, raw)
}

// BenchmarkHistory compares a 50-message history page (TN-13) through the
// library with a hand-written Query + attributevalue decode.
func BenchmarkHistory(b *testing.B) {
	s := newStore(b)
	c := context.Background()
	mustTopic(b, s, "grpH")
	for i := range 120 {
		if err := s.Messages.Import(c, &tn.Message{Topic: "grpH", SeqId: i + 1, From: "alice", Content: tn.JSON("message text number " + strconv.Itoa(i)), Head: tn.JSON(map[string]string{"mime": "text/plain"})}); err != nil {
			b.Fatal(err)
		}
	}
	cl, name := s.Table().Client(), s.Table().Name()
	lib := func() error {
		p, err := s.Messages.History(c, tinode.HistoryFilter{Topic: "grpH"}, table.Limit(50))
		if err == nil && len(p.Items) != 50 {
			err = fmt.Errorf("%d messages", len(p.Items))
		}
		return err
	}
	raw := func() error {
		{
			out, err := cl.Query(c, &dynamodb.QueryInput{TableName: aws.String(name),
				KeyConditionExpression:   aws.String("PK = :pk AND SK BETWEEN :lo AND :hi"),
				FilterExpression:         aws.String("attribute_not_exists(#ttl) OR #ttl > :now"),
				ExpressionAttributeNames: map[string]string{"#ttl": "ttl"},
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":pk": &types.AttributeValueMemberS{Value: "TOPIC#grpH"}, ":lo": &types.AttributeValueMemberS{Value: "MSG#0000000001"},
					":hi": &types.AttributeValueMemberS{Value: "MSG#9999999999"}, ":now": &types.AttributeValueMemberN{Value: strconv.FormatInt(time.Now().Unix(), 10)}},
				ScanIndexForward: aws.Bool(false), Limit: aws.Int32(50)})
			if err != nil {
				return err
			}
			var ms []rawMessage
			if err := attributevalue.UnmarshalListOfMaps(out.Items, &ms); err != nil || len(ms) != 50 {
				return fmt.Errorf("%d messages: %v", len(ms), err)
			}
			return nil
		}
	}
	tabletest.Compare(b, 200, lib, raw)
}

// BenchmarkSaveSenders measures TN-12 throughput with 1, 8 and 100
// concurrent senders on one topic (group commit), reporting messages per
// second and requests per message.
func BenchmarkSaveSenders(b *testing.B) {
	for _, senders := range []int{1, 8, 100} {
		b.Run(fmt.Sprintf("senders=%d", senders), func(b *testing.B) { benchSaveSenders(b, senders, 0) })
	}
	// The sharded profile (issue 22): the same Saves, messages in 4
	// partitions.
	b.Run("senders=100/shards=4", func(b *testing.B) { benchSaveSenders(b, 100, 4) })
}

func benchSaveSenders(b *testing.B, senders, shards int) {
	s0 := newStore(b)
	rc := &tabletest.RequestCounter{}
	s := tinode.New(table.New(tabletest.NewClient(b, rc.Option()), s0.Table().Schema()), func(o *tinode.Options) { o.MessageShards = shards })
	mustTopic(b, s, "grpBench")
	c := context.Background()
	work := make(chan struct{}, b.N)
	for range b.N {
		work <- struct{}{}
	}
	close(work)
	rc.Reset()
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for range senders {
		wg.Go(func() {
			for range work {
				if err := s.Messages.Save(c, &tn.Message{Topic: "grpBench", From: "alice", Content: tn.JSON("hello")}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	el := time.Since(start)
	b.ReportMetric(float64(b.N)/el.Seconds(), "msgs/s")
	b.ReportMetric(float64(rc.Total())/float64(b.N), "req/msg")
}
