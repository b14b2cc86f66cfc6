package tabletest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

func TestMain(m *testing.M) { tabletest.Main(m) }

var validName = regexp.MustCompile(`^[a-zA-Z0-9_.-]{3,255}$`)

func TestTableName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ prefix, test, wantPrefix string }{
		{"core", "TestOrders", "core-TestOrders-"},
		{"core", "TestOrders/by user#1 (ünï)", "core-TestOrders_by_user_1___n__-"},
		{"", "", "t-"},
		{"x", strings.Repeat("Long", 100), "x-LongLong"},
	} {
		got := tabletest.TableName(tc.prefix, tc.test)
		if !validName.MatchString(got) {
			t.Errorf("TableName(%q, %q) = %q, not a valid table name", tc.prefix, tc.test, got)
		}
		if !strings.HasPrefix(got, tc.wantPrefix) {
			t.Errorf("TableName(%q, %q) = %q, want prefix %q", tc.prefix, tc.test, got, tc.wantPrefix)
		}
	}
	if a, b := tabletest.TableName("p", "T"), tabletest.TableName("p", "T"); a == b {
		t.Errorf("two calls gave the same name %q", a)
	}
}

func describe(t *testing.T, name string) (*types.TableDescription, error) {
	t.Helper()
	out, err := tabletest.Client(t).DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		return nil, err
	}
	return out.Table, nil
}

func TestNewTableIsFreshAndDeleted(t *testing.T) {
	schema := table.NewSchema("kit", table.WithIndexCount(3))
	var names []string
	for _, sub := range []string{"first", "second"} {
		t.Run(sub, func(t *testing.T) {
			t0 := time.Now()
			tbl := tabletest.NewTable(t, schema)
			t.Logf("created %s in %v", tbl.Name(), time.Since(t0))
			if !strings.HasPrefix(tbl.Name(), "kit-TestNewTableIsFreshAndDeleted_"+sub+"-") {
				t.Errorf("Name() = %q", tbl.Name())
			}
			d, err := describe(t, tbl.Name())
			if err != nil {
				t.Fatal(err)
			}
			if d.TableStatus != types.TableStatusActive || len(d.GlobalSecondaryIndexes) != 3 {
				t.Errorf("table %s is %s with %d GSIs, want ACTIVE with 3", tbl.Name(), d.TableStatus, len(d.GlobalSecondaryIndexes))
			}
			names = append(names, tbl.Name())
		})
	}
	if len(names) != 2 || names[0] == names[1] {
		t.Fatalf("tables %q, want two distinct", names)
	}
	for _, name := range names {
		_, err := describe(t, name)
		var nf *types.ResourceNotFoundException
		if !errors.As(err, &nf) {
			t.Errorf("DescribeTable(%s) after its test: err = %v, want ResourceNotFoundException", name, err)
		}
	}
	if schema.Name != "kit" {
		t.Errorf("NewTable changed the caller's schema name to %q", schema.Name)
	}
}

func TestNewTableParallel(t *testing.T) {
	for _, sub := range []string{"a", "b", "c", "d"} {
		t.Run(sub, func(t *testing.T) {
			t.Parallel()
			tbl := tabletest.NewTable(t, table.NewSchema("par"))
			_, err := tbl.Client().PutItem(t.Context(), &dynamodb.PutItemInput{
				TableName: aws.String(tbl.Name()),
				Item: map[string]types.AttributeValue{
					"PK": &types.AttributeValueMemberS{Value: "P"},
					"SK": &types.AttributeValueMemberS{Value: sub},
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			out, err := tbl.Client().Scan(t.Context(), &dynamodb.ScanInput{TableName: aws.String(tbl.Name())})
			if err != nil {
				t.Fatal(err)
			}
			if out.Count != 1 {
				t.Errorf("table %s holds %d items, want only its own", tbl.Name(), out.Count)
			}
		})
	}
}

// countingTransport counts the requests it passes on.
type countingTransport struct {
	next http.RoundTripper
	n    atomic.Int32
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

func TestNewClientSharesTheDatabase(t *testing.T) {
	tbl := tabletest.NewTable(t, table.NewSchema("client"))
	ct := &countingTransport{next: http.DefaultTransport}
	c := tabletest.NewClient(t, func(o *dynamodb.Options) { o.HTTPClient = &http.Client{Transport: ct} })
	if c == tabletest.Client(t) {
		t.Fatal("NewClient returned the shared client")
	}
	if _, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(tbl.Name())}); err != nil {
		t.Fatalf("new client does not see the kit's table: %v", err)
	}
	if ct.n.Load() != 1 {
		t.Errorf("%d requests went through the injected HTTP client, want 1", ct.n.Load())
	}
	if got := tabletest.Endpoint(t); !strings.HasPrefix(got, "http") {
		t.Errorf("Endpoint() = %q", got)
	}
}

// Unprocessed with RoundUp on a one-key BatchGet holds the key back and
// sends nothing (an empty key list is refused by DynamoDB); the engine's
// retry then reads it (issue 9 §9).
func TestUnprocessedRoundUpOneKey(t *testing.T) {
	t.Parallel()
	fault := &tabletest.Unprocessed{Fraction: 0.5, RoundUp: true}
	tb := tabletest.NewTable(t, table.NewSchema("unproc"))
	type it struct {
		ID string `dynamo:"id"`
	}
	def := table.Def[it]{Type: "It", Keys: table.Template{PK: "IT#{id}", SK: "IT"}}
	if err := table.NewEntity(tb, def).Create(context.Background(), &it{ID: "one"}); err != nil {
		t.Fatal(err)
	}
	faulty := table.New(tabletest.NewClient(t, fault.Option()), tb.Schema(), func(o *table.Options) { o.MaxBatchAttempts = 3 })
	_, err := table.NewEntity(faulty, def).BatchGet(context.Background(), []table.Key{{PK: "IT#one", SK: "IT"}})
	// RoundUp holds the single key back every round: the batch gives up
	// with a BatchError naming it, never a ValidationException.
	var be *table.BatchError
	if !errors.As(err, &be) || len(be.Keys) != 1 || fault.Rounds() != 3 {
		t.Fatalf("BatchGet = %v after %d rounds, want a BatchError naming the key after 3", err, fault.Rounds())
	}
}

// RawItem reads an item under the schema's own key attribute names (here
// lower-case), byte for byte as stored, and nil where there is none.
func TestRawItem(t *testing.T) {
	t.Parallel()
	tbl := tabletest.NewTable(t, table.NewSchema("raw", table.WithLowercaseKeys()))
	item := table.Item{
		"pk":    &types.AttributeValueMemberS{Value: "A#1"},
		"sk":    &types.AttributeValueMemberS{Value: "B"},
		"n":     &types.AttributeValueMemberN{Value: "1.5"},
		"empty": &types.AttributeValueMemberNULL{Value: true},
	}
	if _, err := tbl.Client().PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(tbl.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	got := tabletest.RawItem(t, tbl, table.Key{PK: "A#1", SK: "B"})
	if d := cmp.Diff(item, got, cmp.Exporter(func(reflect.Type) bool { return true })); d != "" {
		t.Errorf("RawItem (-stored +got):\n%s", d)
	}
	if got := tabletest.RawItem(t, tbl, table.Key{PK: "A#1", SK: "C"}); got != nil {
		t.Errorf("RawItem of a missing key = %v, want nil", got)
	}
}

// recorder is a testing.TB that keeps what a check reports.
type recorder struct {
	testing.TB
	errors, logs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(f string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(f, args...))
}
func (r *recorder) Logf(f string, args ...any)   { r.logs = append(r.logs, fmt.Sprintf(f, args...)) }
func (r *recorder) Fatalf(f string, args ...any) { panic(fmt.Sprintf(f, args...)) }

// Unchanged passes while the attributes it read stay as stored (a skipped
// one may change, a new one may appear) and reports each step that
// changed or removed one.
func TestUnchanged(t *testing.T) {
	t.Parallel()
	tbl := tabletest.NewTable(t, table.NewSchema("raw"))
	k := table.Key{PK: "A#1", SK: "B"}
	put := func(attrs map[string]string) {
		item := table.Item{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}}
		for n, v := range attrs {
			item[n] = &types.AttributeValueMemberS{Value: v}
		}
		if _, err := tbl.Client().PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(tbl.Name()), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	put(map[string]string{"kept": "1", "moves": "1", "gone": "1"})
	r := &recorder{}
	check := tabletest.Unchanged(r, tbl, k, "moves")
	put(map[string]string{"kept": "1", "moves": "2", "gone": "1", "added": "1"})
	check("skipped and added")
	if len(r.errors) != 0 {
		t.Fatalf("a skipped attribute changed, one added: %q, want no error", r.errors)
	}
	put(map[string]string{"kept": "2", "moves": "2"})
	check("changed and removed")
	if len(r.errors) != 1 || !strings.HasPrefix(r.errors[0], "changed and removed: stored attributes changed") ||
		!strings.Contains(r.errors[0], "kept") || !strings.Contains(r.errors[0], "gone") {
		t.Fatalf("errors %q, want one naming kept and gone", r.errors)
	}
}
