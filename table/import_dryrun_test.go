package table_test

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
)

func memberRow(id, email string) table.Item {
	return table.Item{
		"id":     &types.AttributeValueMemberS{Value: id},
		"email":  &types.AttributeValueMemberS{Value: email},
		"status": &types.AttributeValueMemberS{Value: "on"},
	}
}

// importResult is an outcome and the kind of its error, as a report counts
// them.
type importResult struct {
	Outcome table.JobOutcome
	Unique  bool // the error wraps ErrUniqueViolation
	Invalid bool // the error wraps ErrInvalidInput
	Err     bool
}

func resultsOf(outs []table.JobOutcome, errs []error) []importResult {
	r := make([]importResult, len(outs))
	for i := range outs {
		r[i] = importResult{Outcome: outs[i], Err: errs[i] != nil,
			Unique: errors.Is(errs[i], table.ErrUniqueViolation), Invalid: errors.Is(errs[i], table.ErrInvalidInput)}
	}
	return r
}

// Issue 26 §7: an import's dry run reports exactly what the real run then
// refuses, on an input crafted with duplicates among its rows (a unique
// value twice, a key twice, a key whose first row fails and whose second
// then succeeds) and against the table (a value an existing item holds,
// case-folded; a key an item holds; a guard whose owner is gone, which the
// real run takes over; an invalid row).
func TestImportDryRunPredictsRealRun(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	f.create(t, member{ID: "existing", Email: "held@x.io", Status: "on"})
	// A guard whose owner is gone: the owner deleted by another service.
	f.create(t, member{ID: "ghost", Email: "orphan@x.io", Status: "on"})
	if _, err := f.t.Client().DeleteItem(c, &dynamodb.DeleteItemInput{TableName: aws.String(f.t.Name()), Key: keyAV(table.Key{PK: "MEMBER#ghost", SK: "PROFILE"})}); err != nil {
		t.Fatal(err)
	}
	rows := []table.Item{
		memberRow("new1", "a@x.io"),      // created
		memberRow("new2", "a@x.io"),      // the same value as an earlier row: conflict
		memberRow("new3", "HELD@x.io"),   // a value an existing item holds: conflict
		memberRow("existing", "e@x.io"),  // a key an item holds: unchanged
		memberRow("new1", "c@x.io"),      // a key an earlier row creates: unchanged
		memberRow("new4", "orphan@x.io"), // a guard whose owner is gone: taken over, created
		memberRow("new5", "not-an-email"),
		memberRow("new6", "b@x.io"),
		memberRow("new7", "b@x.io"),
		memberRow("new2", "d@x.io"), // new2's first row failed: this one creates it
	}
	want := []importResult{
		{Outcome: table.Changed},
		{Outcome: table.Conflicted, Unique: true, Err: true},
		{Outcome: table.Conflicted, Unique: true, Err: true},
		{Outcome: table.Unchanged},
		{Outcome: table.Unchanged},
		{Outcome: table.Changed},
		{Outcome: table.Conflicted, Invalid: true, Err: true},
		{Outcome: table.Changed},
		{Outcome: table.Conflicted, Unique: true, Err: true},
		{Outcome: table.Changed},
	}
	dry := resultsOf(f.members.ImportMany(c, rows, true))
	if _, err := f.members.Get(c, table.Key{PK: "MEMBER#new1", SK: "PROFILE"}); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("the dry run wrote new1 (%v)", err)
	}
	real := resultsOf(f.members.ImportMany(c, rows, false))
	for i := range rows {
		if dry[i] != real[i] {
			t.Errorf("row %d: dry run %+v, real run %+v", i, dry[i], real[i])
		}
		if real[i] != want[i] {
			t.Errorf("row %d: real run %+v, want %+v", i, real[i], want[i])
		}
	}
	got, err := f.members.Get(c, table.Key{PK: "MEMBER#new2", SK: "PROFILE"})
	if err != nil || got.Email != "d@x.io" {
		t.Fatalf("new2 = %+v, %v; want the row with d@x.io", got, err)
	}
	// Import alone, dry, against what the real run left: the same answers
	// as a second real run (every row is now there or still conflicts).
	for i, row := range rows {
		o, err := f.members.Import(c, row, true)
		r := resultsOf([]table.JobOutcome{o}, []error{err})[0]
		again := resultsOf(f.members.ImportMany(c, []table.Item{row}, false))[0]
		if r != again {
			t.Errorf("row %d again: dry Import %+v, real %+v", i, r, again)
		}
	}
}
