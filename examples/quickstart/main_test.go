package main

import (
	"testing"

	"github.com/singletable/singletable/internal/exampleenv/exampletest"
)

// TestExampleRuns runs the example end to end against the test binary's
// DynamoDB Local (through DYNAMODB_ENDPOINT, as a user would), so the
// README's command cannot silently break.
func TestExampleRuns(t *testing.T) { exampletest.Run(t, run) }
