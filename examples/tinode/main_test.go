package main

import (
	"github.com/singletable/singletable/internal/exampleenv"
	"testing"

	"github.com/singletable/singletable/table/tabletest"
)

// TestExampleRuns runs the example end to end against the test binary's
// DynamoDB Local (through DYNAMODB_ENDPOINT, as a user would), so the
// README's command cannot silently break.
func TestExampleRuns(t *testing.T) {
	t.Setenv("DYNAMODB_ENDPOINT", tabletest.Endpoint(t))
	t.Setenv(exampleenv.EnvDropTables, "1") // leave nothing on a kept endpoint
	if err := run(); err != nil {
		t.Fatalf("example failed: %v", err)
	}
}
