// The DX task (docs/dx/README.md) with hand-written github.com/aws/aws-sdk-go-v2
// (service/dynamodb, feature/dynamodb/attributevalue, feature/dynamodb/expression).
// Run: cd docs/dx && DYNAMODB_ENDPOINT=http://localhost:8000 go run ./awssdk
package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// --- counted from here ---
type Note struct {
	ID     string    `dynamodbav:"id"`
	Author string    `dynamodbav:"author"`
	Slug   string    `dynamodbav:"slug"`
	Text   string    `dynamodbav:"text"`
	At     time.Time `dynamodbav:"at"`
}

// Update expressions name attributes through constants: a misspelt constant does not compile.
const attrText = "text"

type noteItem struct {
	PK, SK         string
	GSI1PK, GSI1SK string
	Note
}

type slugItem struct {
	PK, SK string
	ID     string `dynamodbav:"id"`
}

func noteKey(id string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "NOTE#" + id},
		"SK": &types.AttributeValueMemberS{Value: "NOTE"},
	}
}

func createNote(ctx context.Context, db *dynamodb.Client, table string, n Note) error {
	item, err := attributevalue.MarshalMap(noteItem{
		PK: "NOTE#" + n.ID, SK: "NOTE",
		GSI1PK: "AUTHOR#" + n.Author, GSI1SK: n.At.UTC().Format("2006-01-02T15:04:05.000Z"),
		Note: n,
	})
	if err != nil {
		return err
	}
	guard, err := attributevalue.MarshalMap(slugItem{PK: "SLUG#" + n.Slug, SK: "SLUG", ID: n.ID})
	if err != nil {
		return err
	}
	_, err = db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: &table, Item: item, ConditionExpression: aws.String("attribute_not_exists(PK)")}},
		{Put: &types.Put{TableName: &table, Item: guard, ConditionExpression: aws.String("attribute_not_exists(PK)")}},
	}})
	return err
}

// isConditionFailed reports whether a write was refused by its condition (alone or in a transaction).
func isConditionFailed(err error) bool {
	var cancelled *types.TransactionCanceledException
	if errors.As(err, &cancelled) {
		for _, r := range cancelled.CancellationReasons {
			if aws.ToString(r.Code) == "ConditionalCheckFailed" {
				return true
			}
		}
	}
	var failed *types.ConditionalCheckFailedException
	return errors.As(err, &failed)
}

// notesByAuthor returns one page, newest first, and the cursor of the next ("" after the last).
func notesByAuthor(ctx context.Context, db *dynamodb.Client, table, author string, limit int32, cursor string) ([]Note, string, error) {
	in := &dynamodb.QueryInput{
		TableName:                 &table,
		IndexName:                 aws.String("GSI1"),
		KeyConditionExpression:    aws.String("GSI1PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "AUTHOR#" + author}},
		ScanIndexForward:          aws.Bool(false),
		Limit:                     aws.Int32(limit),
	}
	if cursor != "" {
		var last map[string]string
		b, err := base64.RawURLEncoding.DecodeString(cursor)
		if err != nil {
			return nil, "", err
		}
		if err := json.Unmarshal(b, &last); err != nil {
			return nil, "", err
		}
		if in.ExclusiveStartKey, err = attributevalue.MarshalMap(last); err != nil {
			return nil, "", err
		}
	}
	out, err := db.Query(ctx, in)
	if err != nil {
		return nil, "", err
	}
	var notes []Note
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &notes); err != nil {
		return nil, "", err
	}
	if out.LastEvaluatedKey == nil {
		return notes, "", nil
	}
	var last map[string]string
	if err := attributevalue.UnmarshalMap(out.LastEvaluatedKey, &last); err != nil {
		return nil, "", err
	}
	b, err := json.Marshal(last)
	return notes, base64.RawURLEncoding.EncodeToString(b), err
}

// --- to here ---

func main() {
	ctx := context.Background()
	endpoint := os.Getenv("DYNAMODB_ENDPOINT")
	if endpoint == "" {
		endpoint = "http://localhost:8000"
	}
	table := os.Getenv("DX_TABLE")
	if table == "" {
		table = "dx-awssdk"
	}
	db := dynamodb.NewFromConfig(aws.Config{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
	})
	attr := func(name string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(hash, rng string) []types.KeySchemaElement {
		return []types.KeySchemaElement{
			{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange},
		}
	}
	db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: &table}) // left by a failed run
	_, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            &table,
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{attr("PK"), attr("SK"), attr("GSI1PK"), attr("GSI1SK")},
		KeySchema:            key("PK", "SK"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("GSI1"),
			KeySchema:  key("GSI1PK", "GSI1SK"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: &table})
	at := func(minute int) time.Time { return time.Date(2026, 11, 22, 10, minute, 0, 0, time.UTC) }

	// --- counted from here ---
	for i, slug := range []string{"hello", "again", "third"} {
		n := Note{ID: fmt.Sprint("n", i), Author: "ann", Slug: slug, Text: slug, At: at(i)}
		if err := createNote(ctx, db, table, n); err != nil {
			log.Fatalf("create %s: %v", n.ID, err)
		}
	}
	errDupID := createNote(ctx, db, table, Note{ID: "n0", Author: "ann", Slug: "x", Text: "x", At: at(3)})
	if !isConditionFailed(errDupID) {
		log.Fatalf("duplicate id not refused: %v", errDupID)
	}
	errDupSlug := createNote(ctx, db, table, Note{ID: "n9", Author: "ann", Slug: "hello", Text: "hello", At: at(3)})
	if !isConditionFailed(errDupSlug) {
		log.Fatalf("duplicate slug not refused: %v", errDupSlug)
	}

	page1, cursor1, err := notesByAuthor(ctx, db, table, "ann", 2, "")
	if err != nil {
		log.Fatal(err)
	}
	page2, cursor2, err := notesByAuthor(ctx, db, table, "ann", 2, cursor1)
	if err != nil {
		log.Fatal(err)
	}

	expr, err := expression.NewBuilder().
		WithUpdate(expression.Set(expression.Name(attrText), expression.Value("Hello, world"))).
		WithCondition(expression.AttributeExists(expression.Name("PK"))).
		Build()
	if err != nil {
		log.Fatal(err)
	}
	out, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 &table,
		Key:                       noteKey("n0"),
		UpdateExpression:          expr.Update(),
		ConditionExpression:       expr.Condition(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ReturnValues:              types.ReturnValueAllNew,
	})
	if err != nil {
		log.Fatal(err)
	}
	var updated Note
	if err := attributevalue.UnmarshalMap(out.Attributes, &updated); err != nil {
		log.Fatal(err)
	}
	// --- to here ---

	// Task 7: expression.Name(attrTxet) does not compile ("undefined: attrTxet"); see docs/dx/README.md.
	fmt.Println("created n0 n1 n2")
	fmt.Println("duplicate id n0 refused:", errDupID)
	fmt.Println("duplicate slug hello refused:", errDupSlug)
	fmt.Println("page 1:", slugs(page1), "cursor:", cursor1)
	fmt.Printf("page 2: %v cursor: %q\n", slugs(page2), cursor2)
	fmt.Println("updated text:", updated.Text)
}

func slugs(ns []Note) (s []string) {
	for _, n := range ns {
		s = append(s, n.Slug)
	}
	return s
}
