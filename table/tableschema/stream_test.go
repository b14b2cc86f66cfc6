package tableschema_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/tableschema"
	"github.com/singletable/singletable/table/tabletest"
)

// A schema with a stream exports it: CreateTable JSON (StreamSpecification),
// CloudFormation (StreamSpecification.StreamViewType), Terraform
// (stream_enabled, stream_view_type). The exports of a schema without one
// are the goldens of TestSchemaExportsGolden, unchanged.
func TestSchemaExportsStream(t *testing.T) {
	t.Parallel()
	s := table.NewSchema("app-table", table.WithStream(types.StreamViewTypeNewAndOldImages))
	ct, err := tableschema.CreateTableJSON(s)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "stream-createtable.json", ct)
	cf, err := tableschema.CloudFormation(s, "AppTable")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "stream-cloudformation.json", cf)
	tf := tableschema.Terraform(s, "app")
	golden(t, "stream-terraform.tf", tf)
	if o, c := strings.Count(string(tf), "{"), strings.Count(string(tf), "}"); o != c {
		t.Fatalf("%d opening and %d closing braces", o, c)
	}
	for _, x := range []struct {
		name, src string
		want      []string
	}{
		{"createtable", string(ct), []string{`"StreamSpecification": {`, `"StreamEnabled": true`, `"StreamViewType": "NEW_AND_OLD_IMAGES"`}},
		{"cloudformation", string(cf), []string{`"StreamSpecification": {`, `"StreamViewType": "NEW_AND_OLD_IMAGES"`}},
		{"terraform", string(tf), []string{"stream_enabled   = true", `stream_view_type = "NEW_AND_OLD_IMAGES"`}},
	} {
		for _, w := range x.want {
			if !strings.Contains(x.src, w) {
				t.Errorf("%s: missing %q", x.name, w)
			}
		}
	}
	// Without a stream, none of it.
	plain := table.NewSchema("app-table")
	ct, _ = tableschema.CreateTableJSON(plain)
	cf, _ = tableschema.CloudFormation(plain, "AppTable")
	for _, src := range []string{string(ct), string(cf), string(tableschema.Terraform(plain, "app"))} {
		if strings.Contains(strings.ToLower(src), "stream") {
			t.Errorf("an export of a schema without a stream mentions one:\n%s", src)
		}
	}
}

// The plan of a live table against a schema with a stream: a missing
// stream is reported and Apply enables it (UpdateTable
// StreamSpecification), after which the table's writes are in it; a
// stream of another view type is reported and left for a human; a live
// stream the schema does not declare is listed and left as is.
func TestPlanStream(t *testing.T) {
	t.Parallel()
	client := tabletest.Client(t)
	c := ctx(t)
	name := tabletest.TableName("stream", t.Name())
	if _, err := client.CreateTable(c, table.NewSchema(name).CreateTableInput()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	})
	tb := table.New(client, table.NewSchema(name, table.WithStream(types.StreamViewTypeNewAndOldImages)))
	if err := tb.EnableTTL(c); err != nil {
		t.Fatal(err)
	}
	if _, err := feed.StreamARN(c, tb); err == nil {
		t.Fatal("StreamARN on a table without a stream: no error")
	}
	plan, err := tableschema.Compare(c, tb)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Changes) != 1 || plan.Changes[0] != (tableschema.Difference{What: "stream", Want: "NEW_AND_OLD_IMAGES", Apply: true}) {
		t.Fatalf("plan:\n%s", plan)
	}
	if got, want := plan.String(), "+ stream: NEW_AND_OLD_IMAGES (Apply makes it)"; !strings.Contains(got, want) {
		t.Errorf("plan %q, want %q", got, want)
	}
	if err := tableschema.Apply(c, tb, plan); err != nil {
		t.Fatal(err)
	}
	if plan, err = tableschema.Compare(c, tb); err != nil || len(plan.Changes) != 0 {
		t.Fatalf("plan after Apply: %v %v; want nothing to do", plan, err)
	}
	// The stream Apply enabled carries the table's writes.
	type note struct {
		ID string `dynamo:"id"`
	}
	notes := table.NewEntity(tb, table.Def[note]{Type: "Note", Keys: table.Template{PK: "NOTE#{id}", SK: "NOTE"}})
	if err := notes.Create(c, &note{ID: "n1"}); err != nil {
		t.Fatal(err)
	}
	arn, err := feed.StreamARN(c, tb)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := feed.ReadAll(c, feed.StreamsClient(client), arn)
	if err != nil || len(recs) != 1 || recs[0].Op != "INSERT" || recs[0].New == nil || recs[0].Old != nil {
		t.Fatalf("stream after Apply: %+v, %v", recs, err)
	}

	// Another view type: reported, not applied.
	other := table.New(client, table.NewSchema(name, table.WithStream(types.StreamViewTypeKeysOnly)))
	plan, err = tableschema.Compare(c, other)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Changes) != 1 || plan.Changes[0] != (tableschema.Difference{What: "stream", Live: "NEW_AND_OLD_IMAGES", Want: "KEYS_ONLY"}) {
		t.Fatalf("plan of another view type:\n%s", plan)
	}
	if err := tableschema.Apply(c, other, plan); err == nil || !strings.Contains(err.Error(), "stream") {
		t.Fatalf("Apply of another view type = %v, want it left for a human", err)
	}
	// A schema without a stream: the live one listed, left as is.
	none := table.New(client, table.NewSchema(name))
	plan, err = tableschema.Compare(c, none)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Changes) != 1 || !strings.Contains(plan.String(), "- stream: NEW_AND_OLD_IMAGES (not in the schema; left as is)") {
		t.Fatalf("plan of a schema without the live stream:\n%s", plan)
	}
	if err := tableschema.Apply(c, none, plan); err != nil {
		t.Fatal(err)
	}
	if _, err := feed.StreamARN(c, tb); err != nil {
		t.Fatalf("the stream after applying a schema without one: %v", err)
	}
}
