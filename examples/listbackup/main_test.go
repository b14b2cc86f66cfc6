package main

import (
	"context"
	"github.com/singletable/singletable/internal/exampleenv"
	"testing"
	"time"

	"github.com/singletable/singletable/table/tabletest"
)

// TestExampleRuns runs the example end to end against the test binary's
// DynamoDB Local (through DYNAMODB_ENDPOINT, as a user would): every
// pattern LB-1..LB-62 runs without error.
func TestExampleRuns(t *testing.T) {
	t.Setenv("DYNAMODB_ENDPOINT", tabletest.Endpoint(t))
	t.Setenv(exampleenv.EnvDropTables, "1") // leave nothing on a kept endpoint
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := run(ctx); err != nil {
		t.Fatalf("example failed: %v", err)
	}
}
