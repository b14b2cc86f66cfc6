// Package exampletest runs an example program in its test.
package exampletest

import (
	"context"
	"testing"
	"time"

	"github.com/singletable/singletable/internal/exampleenv"
	"github.com/singletable/singletable/table/tabletest"
)

// Run runs an example's run function end to end against the test
// binary's DynamoDB Local, named by DYNAMODB_ENDPOINT as a user would
// name it, with a context of three minutes, and drops the example's
// tables afterwards (nothing is left on a kept endpoint). An error fails
// the test.
func Run(t *testing.T, run func(context.Context) error) {
	t.Helper()
	t.Setenv("DYNAMODB_ENDPOINT", tabletest.Endpoint(t))
	t.Setenv(exampleenv.EnvDropTables, "1")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := run(ctx); err != nil {
		t.Fatalf("example failed: %v", err)
	}
}
