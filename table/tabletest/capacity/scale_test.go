package capacity_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/table/tabletest/capacity"
)

// recorder is a testing.TB that keeps what Scale reports.
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

// TestScaleVerdicts: a scenario over the target fails unless it is a
// known gap; a known gap must measure its model and fails once it meets
// the target.
func TestScaleVerdicts(t *testing.T) {
	t.Parallel()
	m, client, name := meterFixture(t)
	runs := 0
	put := func(c context.Context, i int) error { // 1 WCU on table HOT#1, 1 on GSI1 DUE (new items)
		_, err := client.PutItem(c, &dynamodb.PutItemInput{TableName: &name, Item: item("HOT#1", fmt.Sprint(runs, "-", i), "DUE", 100)})
		return err
	}
	want := capacity.Hot{Key: "GSI1 DUE", Usage: capacity.Usage{Write: 1}}
	gaps := map[string]string{"hot": "known"}
	run := func(rate float64, gaps map[string]string, want capacity.Hot) *recorder {
		runs++
		r := &recorder{TB: t}
		capacity.Scale(r, m, capacity.Scenario{Name: "hot", Calls: 4, PerSecond: rate, Call: put, Want: want}, gaps)
		return r
	}
	if r := run(2000, nil, want); len(r.errors) != 2 || !strings.Contains(strings.Join(r.errors, "\n"), "table HOT#1 2,000 WCU/s, limit 800") {
		t.Errorf("over the target, not a known gap: %q", r.errors)
	}
	if r := run(2000, gaps, want); len(r.errors) != 0 || !strings.Contains(strings.Join(r.logs, "\n"), "GAP GSI1 DUE 2,000 WCU/s, limit 800 (known)") {
		t.Errorf("known gap: errors %q, logs %q", r.errors, r.logs)
	}
	if r := run(2000, gaps, capacity.Hot{Key: "GSI1 DUE", Usage: capacity.Usage{Write: 2}}); len(r.errors) != 1 {
		t.Errorf("known gap measuring other than its model: %q", r.errors)
	}
	if r := run(500, gaps, want); len(r.errors) != 1 || !strings.Contains(r.errors[0], "meets the target now") {
		t.Errorf("known gap that meets the target: %q", r.errors)
	}
	if r := run(500, nil, want); len(r.errors) != 0 {
		t.Errorf("under the target: %q", r.errors)
	}
}
