// The DX task (docs/dx/README.md) with github.com/guregu/dynamo/v2 v2.6.0.
// Run: cd docs/dx && DYNAMODB_ENDPOINT=http://localhost:8000 go run ./guregu
package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/guregu/dynamo/v2"
)

// --- counted from here ---
type Note struct {
	ID     string    `dynamo:"id"`
	Author string    `dynamo:"author"`
	Slug   string    `dynamo:"slug"`
	Text   string    `dynamo:"text"`
	At     time.Time `dynamo:"at"`
}

// Update paths name attributes through constants: a misspelt constant does not compile.
const attrText = "text"

type noteItem struct {
	PK, SK         string
	GSI1PK, GSI1SK string
	Note
}

type slugItem struct {
	PK, SK string
	ID     string `dynamo:"id"`
}

func noteKey(id string) (string, string) { return "NOTE#" + id, "NOTE" }

func createNote(ctx context.Context, db *dynamo.DB, tbl dynamo.Table, n Note) error {
	pk, sk := noteKey(n.ID)
	item := noteItem{PK: pk, SK: sk, GSI1PK: "AUTHOR#" + n.Author, GSI1SK: n.At.UTC().Format("2006-01-02T15:04:05.000Z"), Note: n}
	guard := slugItem{PK: "SLUG#" + n.Slug, SK: "SLUG", ID: n.ID}
	return db.WriteTx().
		Put(tbl.Put(item).If("attribute_not_exists(PK)")).
		Put(tbl.Put(guard).If("attribute_not_exists(PK)")).
		Run(ctx)
}

// notesByAuthor returns one page, newest first, and the cursor of the next ("" after the last).
func notesByAuthor(ctx context.Context, tbl dynamo.Table, author string, limit int, cursor string) ([]Note, string, error) {
	q := tbl.Get("GSI1PK", "AUTHOR#"+author).Index("GSI1").Order(dynamo.Descending).Limit(limit)
	if cursor != "" {
		var last map[string]string
		b, err := base64.RawURLEncoding.DecodeString(cursor)
		if err != nil {
			return nil, "", err
		}
		if err := json.Unmarshal(b, &last); err != nil {
			return nil, "", err
		}
		start, err := dynamo.MarshalItem(last)
		if err != nil {
			return nil, "", err
		}
		q = q.StartFrom(start)
	}
	var notes []Note
	lek, err := q.AllWithLastEvaluatedKey(ctx, &notes)
	if err != nil || lek == nil {
		return notes, "", err
	}
	var last map[string]string
	if err := dynamo.UnmarshalItem(lek, &last); err != nil {
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
	name := os.Getenv("DX_TABLE")
	if name == "" {
		name = "dx-guregu"
	}
	db := dynamo.New(aws.Config{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
	})
	type schema struct {
		PK     string `dynamo:",hash"`
		SK     string `dynamo:",range"`
		GSI1PK string `index:"GSI1,hash"`
		GSI1SK string `index:"GSI1,range"`
	}
	_ = db.Table(name).DeleteTable().Run(ctx) // left by a failed run
	if err := db.CreateTable(name, schema{}).OnDemand(true).Run(ctx); err != nil {
		log.Fatal(err)
	}
	tbl := db.Table(name)
	defer tbl.DeleteTable().Run(ctx)
	at := func(minute int) time.Time { return time.Date(2026, 11, 22, 10, minute, 0, 0, time.UTC) }

	// --- counted from here ---
	for i, slug := range []string{"hello", "again", "third"} {
		n := Note{ID: fmt.Sprint("n", i), Author: "ann", Slug: slug, Text: slug, At: at(i)}
		if err := createNote(ctx, db, tbl, n); err != nil {
			log.Fatalf("create %s: %v", n.ID, err)
		}
	}
	errDupID := createNote(ctx, db, tbl, Note{ID: "n0", Author: "ann", Slug: "x", Text: "x", At: at(3)})
	if !dynamo.IsCondCheckFailed(errDupID) {
		log.Fatalf("duplicate id not refused: %v", errDupID)
	}
	errDupSlug := createNote(ctx, db, tbl, Note{ID: "n9", Author: "ann", Slug: "hello", Text: "hello", At: at(3)})
	if !dynamo.IsCondCheckFailed(errDupSlug) {
		log.Fatalf("duplicate slug not refused: %v", errDupSlug)
	}

	page1, cursor1, err := notesByAuthor(ctx, tbl, "ann", 2, "")
	if err != nil {
		log.Fatal(err)
	}
	page2, cursor2, err := notesByAuthor(ctx, tbl, "ann", 2, cursor1)
	if err != nil {
		log.Fatal(err)
	}

	var updated Note
	pk, sk := noteKey("n0")
	err = tbl.Update("PK", pk).Range("SK", sk).Set(attrText, "Hello, world").If("attribute_exists(PK)").Value(ctx, &updated)
	if err != nil {
		log.Fatal(err)
	}
	// --- to here ---

	// Task 7: Set(attrTxet, ...) does not compile ("undefined: attrTxet"); see docs/dx/README.md.
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
