package tableschema_test

// Adopting a live table (issue 10 §4): Create never changes an existing
// table, and Compare shows the differences.

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tableschema"
	"github.com/singletable/singletable/table/tabletest"
)

func TestMain(m *testing.M) { tabletest.Main(m) }

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}

// Create on an existing table changes nothing (not even TTL); Compare lists
// the differences; Apply makes the in-place ones.
func TestCreateNeverChangesExistingTable(t *testing.T) {
	t.Parallel()
	client := tabletest.Client(t)
	c := ctx(t)
	name := tabletest.TableName("live", t.Name())
	small := table.NewSchema(name, table.WithIndexCount(1))
	in := small.CreateTableInput()
	if _, err := client.CreateTable(c, in); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	})
	tb := table.New(client, table.NewSchema(name, table.WithIndexCount(3)))
	if err := tb.Create(c); err != nil {
		t.Fatal(err)
	}
	ttl, err := client.DescribeTimeToLive(c, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatal(err)
	}
	if s := ttl.TimeToLiveDescription.TimeToLiveStatus; s != types.TimeToLiveStatusDisabled {
		t.Fatalf("TTL is %s after Create on an existing table, want it untouched (DISABLED)", s)
	}
	plan, err := tableschema.Compare(c, tb)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ch := range plan.Changes {
		got = append(got, ch.What+" "+ch.Name)
	}
	if want := "index GSI2,index GSI3,ttl "; strings.Join(got, ",") != want {
		t.Fatalf("plan = %q, want %q\n%s", strings.Join(got, ","), want, plan)
	}
	// Apply enables TTL and reports the indexes for the operator.
	if err := tableschema.Apply(c, tb, plan); err == nil || !strings.Contains(err.Error(), "GSI2") {
		t.Fatalf("Apply = %v, want the missing indexes reported", err)
	}
	plan, err = tableschema.Compare(c, tb)
	if err != nil || len(plan.Changes) != 2 || plan.Changes[0].What != "index" || plan.Changes[1].What != "index" {
		t.Fatalf("plan after Apply: %v %v; want only the two indexes left", plan, err)
	}
	// A key schema difference is reported, never applied.
	other := table.New(client, table.NewSchema(name, table.WithIndexCount(3), table.WithLowercaseKeys()))
	plan, err = tableschema.Compare(c, other)
	if err != nil {
		t.Fatal(err)
	}
	if err := tableschema.Apply(c, other, plan); err == nil || !strings.Contains(err.Error(), "need a new table") {
		t.Fatalf("Apply of a key change = %v, want a refusal", err)
	}
}
