package migrate_test

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/migrate"
	"github.com/singletable/singletable/table/tabletest"
)

// Detect picks the layout that names the most of a stack's tables; Survey
// reports the manifest's tables present and missing, and the stack's
// tables the manifest does not name.
func TestSurveyAndDetect(t *testing.T) {
	t.Parallel()
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := tabletest.Client(t)
	stack, _ := newStack(c, t, 3)
	shopM := readShopManifest(t)
	// A stray table of the stack, and a second layout with one table in
	// common and one the stack lacks.
	stray := stack + "-audit"
	if _, err := client.CreateTable(c, &dynamodb.CreateTableInput{TableName: aws.String(stray), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(stray)})
	})
	other, err := migrate.ReadManifest(strings.NewReader(`{"name": "other", "tables": [
	  {"table": "authors", "pk": "author_id", "entity": "Author"}, {"table": "orders", "pk": "id", "entity": "Order"}]}`))
	if err != nil {
		t.Fatal(err)
	}

	m, found, err := migrate.Detect(c, client, stack, other, shopM)
	if err != nil || m != shopM || len(found) != 4 {
		t.Fatalf("Detect: %v, %v, %v; want the shop's layout and 4 tables", m, found, err)
	}
	if _, _, err := migrate.Detect(c, client, stack+"x"); !errors.Is(err, migrate.ErrNoLayout) {
		t.Errorf("Detect of a stack without tables: %v, want ErrNoLayout", err)
	}
	dep, err := migrate.Survey(c, client, stack, other)
	if err != nil {
		t.Fatal(err)
	}
	if !dep.Tables[0].Present || dep.Tables[0].ItemCount < 0 || !slices.Equal(dep.Missing(), []string{stack + "-orders"}) {
		t.Errorf("Survey: tables %+v, missing %v", dep.Tables, dep.Missing())
	}
	slices.Sort(dep.Unknown)
	if want := []string{stray, stack + "-books", stack + "-carts"}; !slices.Equal(dep.Unknown, want) {
		t.Errorf("Survey: unknown %v, want %v", dep.Unknown, want)
	}
}

// The package sits on package table and the engine's layers alone: no
// application, no entity package, and nothing of the engine imports it.
func TestMigrateImportsTheEngineOnly(t *testing.T) {
	t.Parallel()
	const mod = "github.com/singletable/singletable"
	out, err := exec.Command("go", "list", "-deps", mod+"/migrate").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, mod+"/query") || strings.HasPrefix(p, mod+"/entity") || strings.HasPrefix(p, mod+"/cmd") ||
			strings.HasPrefix(p, mod+"/table/tabletest") || p == mod+"/internal/exampleenv" {
			t.Errorf("migrate depends on %s", p)
		}
	}
	out, err = exec.Command("go", "list", "-deps", mod+"/table").Output()
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(strings.Fields(string(out)), mod+"/migrate") {
		t.Error("table depends on migrate")
	}
}
