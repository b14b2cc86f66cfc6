package migrate_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/migrate"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Note is the entity a legacy notes table becomes: PK = NOTE#{noteId},
// SK = NOTE.
type Note struct {
	ID   string `dynamo:"noteId"`
	Body string `dynamo:"body"`
}

// A legacy table of notes (<stack>-notes, keyed by note_id) migrates into a
// single table through the Note entity, its attributes renamed on the way,
// and verifies with no difference. It runs against DynamoDB Local.
func ExampleRun() {
	t, done := tabletest.ForExample("ExampleRun")
	defer done()
	ctx := context.Background()
	client := tabletest.Client(t)

	// The legacy layout, as data.
	m, err := migrate.ReadManifest(strings.NewReader(`{
	  "name": "notes-v1",
	  "tables": [{"table": "notes", "pk": "note_id", "entity": "Note",
	              "renames": {"note_id": "noteId", "body_text": "body"}}]}`))
	if err != nil {
		panic(err)
	}
	// A rehearsal: the legacy table, empty, then an item as the old
	// service wrote it.
	stack := fmt.Sprintf("example%d", time.Now().UnixNano()%1_000_000)
	if err := migrate.CreateLayout(ctx, client, stack, m); err != nil {
		panic(err)
	}
	defer client.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(stack + "-notes")})
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(stack + "-notes"), Item: table.Item{
		"note_id": &types.AttributeValueMemberS{Value: "n1"}, "body_text": &types.AttributeValueMemberS{Value: "hello"}}}); err != nil {
		panic(err)
	}

	// The single table, and where the manifest's entity names go.
	tb := tabletest.NewTable(t, table.NewSchema("notes"))
	notes := table.NewEntity(tb, table.Def[Note]{Type: "Note", Keys: table.Template{PK: "NOTE#{noteId}", SK: "NOTE"}})
	o := migrate.Options{Stack: stack, Manifest: m, Targets: migrate.Targets{"Note": migrate.Into(notes)}}

	res, err := migrate.Run(ctx, tb, o)
	fmt.Println("run:", err)
	for _, r := range res {
		fmt.Printf("%s -> %s: %d created\n", strings.TrimPrefix(r.Name, stack+"-"), r.Entity, r.Report.Changed)
	}
	n, err := notes.Get(ctx, notes.Key(Note{ID: "n1"}))
	fmt.Println(n.Body, err)
	ver, err := migrate.Verify(ctx, tb, o)
	fmt.Println("verified:", ver[0].OK(), err)
	// Output:
	// run: <nil>
	// notes -> Note: 1 created
	// hello <nil>
	// verified: true <nil>
}
