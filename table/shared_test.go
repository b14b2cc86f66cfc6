package table_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// tagged holds a list of tags: one globally unique namespace ("alias:")
// and shared ones, the way Tinode's tag namespaces work.
type tagged struct {
	ID   string   `dynamo:"id"`
	Tags []string `dynamo:"tags"`
}

var taggedDef = table.Def[tagged]{
	Type: "Tagged",
	Keys: table.Template{PK: "TAGGED#{id}", SK: "T"},
	// Custom uniques: whether a tag is exclusive or shared follows its
	// namespace, a rule no UniqueOn entry states.
	CustomUniques: &table.CustomUniques[tagged]{From: []string{"tags"}, Uniques: func(x *tagged) []table.Unique {
		us := make([]table.Unique, len(x.Tags))
		for i, tag := range x.Tags {
			us[i] = table.Unique{Name: "tag", Value: tag, Shared: len(tag) < 6 || tag[:6] != "alias:"}
		}
		return us
	}},
}

func holders(t *testing.T, tb *table.Table, tag string) []string {
	t.Helper()
	p, err := tb.LookupShared(ctx(t), table.Unique{Name: "tag", Value: tag, Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, g := range p.Items {
		out = append(out, g.Owner.PK)
	}
	return out
}

// TestSharedValues: shared values are lookup entries kept with their
// holder in the same transaction; unique ones stay unique beside them.
func TestSharedValues(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("shared"))
	e := table.NewEntity(tb, taggedDef)
	c := ctx(t)
	a := tagged{ID: "a", Tags: []string{"go", "alias:ann", "rust"}}
	b := tagged{ID: "b", Tags: []string{"go"}}
	if err := e.Create(c, &a); err != nil {
		t.Fatal(err)
	}
	if err := e.Create(c, &b); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"TAGGED#a", "TAGGED#b"}, holders(t, tb, "go")); d != "" {
		t.Errorf("holders of go (-want +got):\n%s", d)
	}
	// the unique namespace stays unique
	clash := tagged{ID: "c", Tags: []string{"alias:ann"}}
	if err := e.Create(c, &clash); !errors.Is(err, table.ErrUniqueViolation) {
		t.Fatalf("second alias:ann: %v", err)
	}
	// an update moves the entries in its transaction
	if _, err := e.Update(c, table.Key{PK: "TAGGED#a", SK: "T"}, func(x *tagged) error { x.Tags = []string{"alias:ann", "zig"}; return nil }); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"TAGGED#b"}, holders(t, tb, "go")); d != "" {
		t.Errorf("holders of go after a's update (-want +got):\n%s", d)
	}
	if got := holders(t, tb, "rust"); len(got) != 0 {
		t.Errorf("rust still held by %v", got)
	}
	if d := cmp.Diff([]string{"TAGGED#a"}, holders(t, tb, "zig")); d != "" {
		t.Errorf("holders of zig (-want +got):\n%s", d)
	}
	// deleting the holder removes its entries; EnsureGuards sees entries
	if err := e.EnsureGuards(c, table.Key{PK: "TAGGED#b", SK: "T"}); err != nil {
		t.Fatal(err)
	}
	if err := e.Delete(c, table.Key{PK: "TAGGED#b", SK: "T"}); err != nil {
		t.Fatal(err)
	}
	if got := holders(t, tb, "go"); len(got) != 0 {
		t.Errorf("go still held by %v after delete", got)
	}
	if _, err := tb.LookupUnique(c, table.Unique{Name: "tag", Value: "go", Shared: true}); !errors.Is(err, table.ErrInvalidInput) {
		t.Fatalf("LookupUnique of a shared value: %v", err)
	}
	if _, err := tb.LookupShared(c, table.Unique{Name: "tag", Value: "alias:ann"}); !errors.Is(err, table.ErrInvalidInput) {
		t.Fatalf("LookupShared of a unique value: %v", err)
	}
}
