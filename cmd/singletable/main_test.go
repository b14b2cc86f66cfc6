package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

func TestMain(m *testing.M) { tabletest.Main(m) }

func runCmd(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	err := run(ctx, args, &out, &errOut)
	return out.String() + errOut.String(), err
}

func TestSchemaCommand(t *testing.T) {
	t.Parallel()
	out, err := runCmd(t, "schema", "-app", "podcastflow", "-format", "cloudformation")
	if err != nil {
		t.Fatal(err)
	}
	var tmpl map[string]any
	if err := json.Unmarshal([]byte(out), &tmpl); err != nil || !strings.Contains(out, "AWS::DynamoDB::Table") {
		t.Fatalf("not a CloudFormation template (%v):\n%s", err, out)
	}
	out, err = runCmd(t, "schema", "-app", "ferryhook", "-format", "terraform", "-profile", "service")
	if err != nil || strings.Count(out, `resource "aws_dynamodb_table"`) != 2 || !strings.Contains(out, `hash_key     = "pk"`) {
		t.Fatalf("ferryhook terraform (%v):\n%s", err, out)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"nope"}, {"schema"}, {"schema", "-app", "x"}, {"schema", "-app", "tinode", "-format", "yaml"}, {"plan", "-app", "tinode", "-profile", "service"}, {"adopt", "-bogus"}} {
		if _, err := runCmd(t, args...); !errors.Is(err, errUsage) || exitCode(err) != 2 {
			t.Errorf("%q: err = %v, want a usage error (exit 2)", args, err)
		}
	}
	if _, err := runCmd(t, "adopt", "-help"); !errors.Is(err, flag.ErrHelp) || exitCode(err) != 0 {
		t.Errorf("-help: %v", err)
	}
}

// The adoption walk-through of docs/live-adoption.md, on tables written as the live
// Ferryhook service writes them (lower-case keys, emails as entered, no
// library attributes, a duplicate email): plan, dry run, adopt, adopt again.
func TestPlanAndAdoptFerryhookServiceTables(t *testing.T) {
	t.Parallel()
	ep := tabletest.Endpoint(t)
	client := tabletest.Client(t)
	ctx := context.Background()
	main := tabletest.TableName("fh", t.Name()) + "-main"
	main = main[len(main)-min(len(main), 200):]
	events := strings.TrimSuffix(main, "-main") + "-events"
	for _, name := range []string{main, events} {
		t.Cleanup(func() { _, _ = client.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}) })
	}
	// plan -apply creates both tables (they do not exist yet).
	out, err := runCmd(t, "plan", "-app", "ferryhook", "-profile", "service", "-table", main, "-endpoint", ep, "-apply")
	if err != nil || !strings.Contains(out, "+ table") {
		t.Fatalf("plan -apply: %v\n%s", err, out)
	}
	out, err = runCmd(t, "plan", "-app", "ferryhook", "-profile", "service", "-table", main, "-endpoint", ep)
	if err != nil || strings.Count(out, "matches its schema") != 2 {
		t.Fatalf("plan after apply: %v\n%s", err, out)
	}
	put := func(item map[string]any) {
		av, err := attributevalue.MarshalMap(item)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(main), Item: av}); err != nil {
			t.Fatal(err)
		}
	}
	user := func(id, email string) {
		put(map[string]any{"pk": "USER#" + id, "sk": "PROFILE", "gsi1pk": "EMAIL#" + email, "gsi1sk": "USER",
			"userId": id, "email": email, "name": "U " + id, "passwordHash": nil, "plan": "free",
			"usageThisMonth": 0, "usagePeriodStart": "2026-11-01T00:00:00.000Z",
			"createdAt": "2026-11-01T00:00:00.000Z", "updatedAt": "2026-11-01T00:00:00.000Z"})
	}
	for i := range 30 {
		user(fmt.Sprintf("usr_%016d", i), fmt.Sprintf("user%d@example.com", i))
	}
	user("usr_dup0000000000000", "user3@example.com") // a duplicate the live service allowed

	out, err = runCmd(t, "adopt", "-app", "ferryhook", "-profile", "service", "-table", main, "-endpoint", ep, "-dry-run", "-quiet")
	if err != nil || !strings.Contains(out, "dry run "+main+": seen 31, changed 30, unchanged 0, skipped 0, in conflict 1") {
		t.Fatalf("dry run: %v\n%s", err, out)
	}
	out, err = runCmd(t, "adopt", "-app", "ferryhook", "-profile", "service", "-table", main, "-endpoint", ep, "-quiet")
	if err != nil || !strings.Contains(out, "adopted "+main+": seen 31, changed 30, unchanged 0, skipped 0, in conflict 1") || !strings.Contains(out, "conflict USER#") {
		t.Fatalf("adopt: %v\n%s", err, out)
	}
	out, err = runCmd(t, "adopt", "-app", "ferryhook", "-profile", "service", "-table", main, "-endpoint", ep, "-quiet")
	if err != nil || !strings.Contains(out, "seen 31, changed 0, unchanged 30, skipped 0, in conflict 1") {
		t.Fatalf("second adopt: %v\n%s", err, out)
	}
	_ = table.ErrNotFound
}

// TestWorkbenchExport exports a Tinode table with items as an Amazon NoSQL
// Workbench data model: the key schema, the GSIs, a facet per entity type
// with its key shape, and sample items in DynamoDB JSON.
func TestWorkbenchExport(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("wb"))
	s := tinode.New(tb)
	ctx := context.Background()
	for _, id := range []tn.UserID{"alice", "bob", "carol"} {
		if err := s.Users.Create(ctx, &tn.User{Id: id, Tags: []string{"email:" + string(id)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Topics.Create(ctx, &tn.Topic{Id: "grpA"}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := s.Messages.Save(ctx, &tn.Message{Topic: "grpA", Content: tn.JSON("hi")}); err != nil {
			t.Fatal(err)
		}
	}
	out, err := runCmd(t, "workbench", "-app", "tinode", "-table", tb.Name(), "-endpoint", tabletest.Endpoint(t), "-samples", "2")
	if err != nil {
		t.Fatalf("workbench: %v\n%s", err, out)
	}
	var m struct {
		ModelName string
		DataModel []struct {
			TableName     string
			KeyAttributes struct {
				PartitionKey, SortKey struct{ AttributeName, AttributeType string }
			}
			TableFacets []struct {
				FacetName         string
				KeyAttributeAlias struct{ PartitionKeyAlias, SortKeyAlias string }
				NonKeyAttributes  []string
			}
			GlobalSecondaryIndexes []struct{ IndexName string }
			TableData              []map[string]map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if m.ModelName != "tinode" || len(m.DataModel) != 1 {
		t.Fatalf("model %q with %d tables", m.ModelName, len(m.DataModel))
	}
	d := m.DataModel[0]
	if d.TableName != tb.Name() || d.KeyAttributes.PartitionKey.AttributeName != "PK" || d.KeyAttributes.SortKey.AttributeName != "SK" {
		t.Fatalf("table %+v", d)
	}
	if len(d.GlobalSecondaryIndexes) != len(tb.Schema().Indexes) {
		t.Errorf("%d GSIs, want %d", len(d.GlobalSecondaryIndexes), len(tb.Schema().Indexes))
	}
	facets := map[string][2]string{}
	for _, f := range d.TableFacets {
		facets[f.FacetName] = [2]string{f.KeyAttributeAlias.PartitionKeyAlias, f.KeyAttributeAlias.SortKeyAlias}
		if len(f.NonKeyAttributes) == 0 {
			t.Errorf("facet %s lists no attributes", f.FacetName)
		}
	}
	// Declared keys are exported as their templates; the guards, whose
	// keys the engine builds, by the shape of their sampled keys.
	want := map[string][2]string{
		tinode.TypeUser:    {"USER#{Id:esc}", "USER"},
		tinode.TypeTopic:   {"TOPIC#{Id:esc}", "TOPIC"},
		tinode.TypeMessage: {"TOPIC#{Topic:esc}", "MSG#{SeqId:10}"},
		table.GuardType:    {"UNIQUE#{}#{}", "UNIQUE"},
	}
	for typ, keys := range want {
		if facets[typ] != keys {
			t.Errorf("facet %s: keys %v, want %v (all: %v)", typ, facets[typ], keys, facets)
		}
	}
	perType := map[string]int{}
	for _, it := range d.TableData {
		if _, ok := it["PK"]["S"]; !ok {
			t.Fatalf("item not in DynamoDB JSON: %v", it)
		}
		if ty, ok := it["_type"]["S"].(string); ok {
			perType[ty]++
		}
	}
	if perType[tinode.TypeUser] != 2 || perType[tinode.TypeMessage] != 2 || perType[tinode.TypeTopic] != 1 {
		t.Errorf("samples per type %v, want at most 2 each", perType)
	}
	if _, err := runCmd(t, "workbench", "-app", "tinode", "-samples", "0", "-endpoint", tabletest.Endpoint(t), "-table", tb.Name()); err == nil {
		t.Error("-samples 0 accepted")
	}
}

// TestAccessPatternDocs keeps docs/patterns/<app>.md equal to what
// "singletable doc" generates; SINGLETABLE_UPDATE_DOCS=1 rewrites them.
// Every catalog ID of an application must appear in its document.
func TestAccessPatternDocs(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, name := range appNames() {
		got, err := runCmd(t, "doc", "-app", name, "-src", root)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, got)
		}
		path := docFile(root, name)
		if os.Getenv("SINGLETABLE_UPDATE_DOCS") == "1" {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (generate it: SINGLETABLE_UPDATE_DOCS=1 go test ./cmd/singletable -run TestAccessPatternDocs)", err)
		}
		if string(want) != got {
			t.Errorf("%s is out of date: run SINGLETABLE_UPDATE_DOCS=1 go test ./cmd/singletable -run TestAccessPatternDocs", path)
		}
		prefix := map[string]string{"ferryhook": "FH", "podcastflow": "PF", "tinode": "TN", "listbackup": "LB"}[name]
		n := map[string]int{"FH": 12, "PF": 14, "TN": 30, "LB": 83}[prefix]
		for i := 1; i <= n; i++ {
			if id := fmt.Sprintf("%s-%d", prefix, i); !regexp.MustCompile(`\b` + id + `\b`).MatchString(got) {
				t.Errorf("%s: %s is served by no documented method", name, id)
			}
		}
	}
}

// singletable model: each application's design as data, the same the
// documents render: declared templates, parts stated in code, every
// catalog ID served by a pattern, and the measured requests.
func TestModelCommand(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, name := range appNames() {
		out, err := runCmd(t, "model", "-app", name, "-src", root)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		var m appModel
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(m.Tables) == 0 || len(m.Entities) == 0 || len(m.Patterns) == 0 {
			t.Fatalf("%s: %d tables, %d entities, %d patterns", name, len(m.Tables), len(m.Entities), len(m.Patterns))
		}
		ids := map[string]bool{}
		for _, p := range m.Patterns {
			for _, id := range p.IDs {
				ids[id] = true
			}
		}
		prefix := map[string]string{"ferryhook": "FH", "podcastflow": "PF", "tinode": "TN", "listbackup": "LB"}[name]
		n := map[string]int{"FH": 12, "PF": 14, "TN": 30, "LB": 83}[prefix]
		for i := 1; i <= n; i++ {
			if id := fmt.Sprintf("%s-%d", prefix, i); !ids[id] {
				t.Errorf("%s: %s in no pattern", name, id)
			}
		}
	}
	out, err := runCmd(t, "model", "-app", "ferryhook", "-src", root)
	if err != nil {
		t.Fatal(err)
	}
	var m appModel
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	var user *entityModel
	for i := range m.Entities {
		if m.Entities[i].Type == "User" {
			user = &m.Entities[i]
		}
	}
	if user == nil || user.Keys == nil || user.Keys.PK != "USER#{userId}" || user.Indexes["GSI1"] == nil || user.Indexes["GSI1"].PK != "EMAIL#{email}" {
		t.Errorf("ferryhook User model %+v", user)
	}
	for _, p := range m.Patterns {
		if p.Method == "APIKeys.Authenticate" && (p.Requests == nil || *p.Requests != 1 || p.Ops["GetItem"] != 1) {
			t.Errorf("FH-6 Authenticate: %+v, want 1 GetItem (the key its plaintext names: issue 26)", p)
		}
	}
	if _, err := runCmd(t, "model", "-app", "nope"); err == nil {
		t.Error("unknown app accepted")
	}
}

// TestReadmeRequests keeps docs/costs.md's request table (every catalog ID,
// the methods serving it, their measured requests and capacity) equal to
// what the recorded costs give; SINGLETABLE_UPDATE_DOCS=1 rewrites it.
func TestReadmeRequests(t *testing.T) {
	root := filepath.Join("..", "..")
	table, err := requestsTable(root)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "docs", "costs.md")
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i, j := strings.Index(s, requestsBegin), strings.Index(s, requestsEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/costs.md has no request table markers %q ... %q", requestsBegin, requestsEnd)
	}
	want := s[:i+len(requestsBegin)] + "\n" + table + "\n" + s[j:]
	if os.Getenv("SINGLETABLE_UPDATE_DOCS") == "1" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != s {
		t.Error("docs/costs.md's request table is out of date: run SINGLETABLE_UPDATE_DOCS=1 go test ./cmd/singletable -run 'TestAccessPatternDocs|TestReadmeRequests'")
	}
	for _, id := range []string{"FH-6", "PF-8", "TN-12", "LB-68"} {
		if !strings.Contains(table, "| "+id+" |") {
			t.Errorf("request table has no row for %s", id)
		}
	}
}

// Every subcommand answers -help with its usage line, what it does,
// where it sends requests (or that it sends none) and its flags, and
// exits 0; an unknown flag is a usage error (exit 2).
func TestEverySubcommandHelp(t *testing.T) {
	for name := range summaries {
		var out, errOut bytes.Buffer
		err := run(context.Background(), []string{name, "-help"}, &out, &errOut)
		if exitCode(err) != 0 {
			t.Errorf("%s -help: %v (exit %d)", name, err, exitCode(err))
		}
		help := errOut.String()
		for _, want := range []string{"usage: singletable " + name + " ", summaries[name], "Exit status", "-app"} {
			if !strings.Contains(help, want) {
				t.Errorf("%s -help lacks %q:\n%s", name, want, help)
			}
		}
		if err := run(context.Background(), []string{name, "-no-such-flag"}, &out, &errOut); exitCode(err) != 2 {
			t.Errorf("%s -no-such-flag: exit %d, want 2", name, exitCode(err))
		}
	}
	if len(summaries) < 6 {
		t.Errorf("%d commands in the usage text, want at least 6", len(summaries))
	}
}
