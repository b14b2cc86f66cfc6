package exampleenv

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/internal/dynamolocal"
)

func TestOpen(t *testing.T) {
	t.Setenv(dynamolocal.EnvEndpoint, "")
	client, keep, stop, err := Open(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if keep {
		t.Error("keep = true for a started DynamoDB Local")
	}
	if _, err := client.ListTables(t.Context(), &dynamodb.ListTablesInput{}); err != nil {
		t.Fatal(err)
	}
	endpoint := *client.Options().BaseEndpoint

	// With DYNAMODB_ENDPOINT set, Open uses it and keeps the data.
	t.Setenv(dynamolocal.EnvEndpoint, endpoint)
	client2, keep, stop2, err := Open(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	stop2()
	if !keep {
		t.Error("keep = false with DYNAMODB_ENDPOINT set")
	}
	if _, err := client2.ListTables(t.Context(), &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("stop of a borrowed endpoint stopped it: %v", err)
	}

	stop()
	stop() // idempotent
	if _, err := client.ListTables(t.Context(), &dynamodb.ListTablesInput{}, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 }); err == nil {
		t.Error("DynamoDB Local still answers after stop")
	}
}
