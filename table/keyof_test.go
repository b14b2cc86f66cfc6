package table_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
)

// Keys and partitions come from the declaration: Entity.Key builds the
// primary key from the fields that name an item, Entity.Partition the
// query of one partition with the sort key narrowed to the template's
// literal prefix.
func TestKeyAndPartitionFromDeclaration(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := f.create(t, member{ID: "m1", Email: "ann@example.com", Note: "Ann", Status: "active", Team: "red"})
	if diff := cmp.Diff(k, f.members.Key(member{ID: "m1"}), cmp.Comparer(func(a, b table.Key) bool { return a == b })); diff != "" {
		t.Errorf("Key (-KeyOf +Key):\n%s", diff)
	}
	if got := f.notes.Key(note{MemberID: "m1", Seq: 7}); got.PK != "MEMBER#m1" || got.SK != "NOTE#0007" || got.Err() != nil {
		t.Errorf("notes.Key = %v (%v), want {MEMBER#m1 NOTE#0007}", got, got.Err())
	}
	m, err := f.members.Get(c, f.members.Key(member{ID: "m1"}))
	if err != nil || m.Note != "Ann" {
		t.Fatalf("Get(Key) = %+v, %v", m, err)
	}
	for _, tc := range []struct {
		name string
		q    table.Query
		pk   string
		want int
	}{
		{"GSI1 by status", f.members.Partition(table.GSI1, member{Status: "active"}), "STATUS#active", 1},
		{"GSI2 by team", f.members.Partition(table.GSI2, member{Team: "red"}), "TEAM#red", 1},
		{"table: the member's profile", f.members.Partition(table.Primary, member{ID: "m1"}), "MEMBER#m1", 1},
	} {
		if tc.q.PK != tc.pk || tc.q.Err() != nil {
			t.Errorf("%s: PK %q (%v), want %q", tc.name, tc.q.PK, tc.q.Err(), tc.pk)
		}
		p, err := f.members.List(c, tc.q)
		if err != nil || len(p.Items) != tc.want {
			t.Errorf("%s: List = %d items, %v; want %d", tc.name, len(p.Items), err, tc.want)
		}
	}
	// The notes of m1 share its partition; the member's query reads only
	// its own sort key (PROFILE), the notes' only NOTE#.
	if err := f.notes.Create(c, &note{MemberID: "m1", Seq: 1, Text: "x"}); err != nil {
		t.Fatal(err)
	}
	p, err := f.notes.List(c, f.notes.Partition(table.Primary, note{MemberID: "m1"}))
	if err != nil || len(p.Items) != 1 || p.Items[0].Text != "x" {
		t.Fatalf("notes of m1 = %+v, %v", p.Items, err)
	}
}

// A key or query that cannot be built is refused by every method that
// takes it, with a *ValidationError naming the field, before any request.
func TestKeyAndPartitionErrorsSendNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ff, rc := faultyFixture(t, f, nil)
	c := ctx(t)
	missing := ff.members.Key(member{Note: "no id"})
	delim := ff.members.Key(member{ID: "a#b"})
	noIndex := ff.notes.Partition(table.GSI1, note{MemberID: "m1"})
	noPK := ff.members.Partition(table.GSI1, member{ID: "m1"})
	checks := map[string]error{}
	_, checks["Get missing"] = ff.members.Get(c, missing)
	_, checks["Get delimiter"] = ff.members.Get(c, delim)
	checks["Delete missing"] = ff.members.Delete(c, missing)
	_, checks["Change missing"] = ff.notes.Change(c, ff.notes.Key(note{Text: "x"}), table.Set(noteText, "y"))
	_, checks["List no index"] = ff.notes.List(c, noIndex)
	_, checks["List no status"] = ff.members.List(c, noPK)
	wantField := map[string]string{"Get missing": "id", "Get delimiter": "id", "Delete missing": "id", "Change missing": "memberId", "List no index": "GSI1", "List no status": "status"}
	for name, err := range checks {
		var ve *table.ValidationError
		if !errors.As(err, &ve) || !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: err = %v, want a *ValidationError", name, err)
			continue
		}
		if !strings.Contains(ve.Field, wantField[name]) {
			t.Errorf("%s: field %q, want %q", name, ve.Field, wantField[name])
		}
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("%d requests sent for refused keys, want 0: %v", n, rc.Ops())
	}
}

var noteText = table.MustField[note, string]("text")

// MustField checks the name and the Go type when the program starts: a
// typo or a field of another type panics at declaration, naming both.
func TestMustFieldChecksType(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		f    func()
		want string // "" for no panic
	}{
		{"string", func() { table.MustField[note, string]("text") }, ""},
		{"int", func() { table.MustField[note, int]("seq") }, ""},
		{"typo", func() { table.MustField[note, string]("txet") }, `has no attribute "txet"`},
		{"int for a string", func() { table.MustField[note, int]("text") }, `attribute "text" is a string, not a int`},
		{"string for an int", func() { table.MustField[note, string]("seq") }, `attribute "seq" is a int, not a string`},
	} {
		got := func() (msg string) {
			defer func() {
				if r := recover(); r != nil {
					msg = r.(string)
				}
			}()
			tc.f()
			return ""
		}()
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: panic %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Change's errors name Change, not the Patch it is built on.
func TestChangeErrorNamesChange(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, err := f.notes.Change(ctx(t), f.notes.Key(note{MemberID: "nobody", Seq: 1}), table.Set(noteText, "y"))
	if !errors.Is(err, table.ErrNotFound) || !strings.HasPrefix(err.Error(), "change Note MEMBER#nobody/NOTE#0001: ") {
		t.Errorf("Change of a missing note = %v, want ErrNotFound from change Note MEMBER#nobody/NOTE#0001", err)
	}
}
