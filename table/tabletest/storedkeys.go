package tabletest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
)

// UpdateGoldenEnv, set to 1, makes [StoredKeys] rewrite its golden file
// instead of comparing with it.
const UpdateGoldenEnv = "SINGLETABLE_UPDATE_GOLDEN"

// StoredKeys pins what the entities bound to tbl store, so that a change
// of how they are declared cannot change a stored byte: for each entity
// ([table.Table.Entities]) it takes a sample item ([table.Entity.Sample],
// with the fields of set[type] overridden) and compares its primary key,
// index keys, entity type and TTL attribute, and its unique values, with
// the golden file (testdata/<name>.golden). The golden file is written
// when the environment sets [UpdateGoldenEnv]=1.
func StoredKeys(t testing.TB, name string, tbl *table.Table, set map[string]map[string]any) {
	t.Helper()
	s := tbl.Schema()
	keyAttrs := []string{s.PK, s.SK}
	for _, ix := range s.Indexes {
		keyAttrs = append(keyAttrs, ix.PK, ix.SK)
	}
	if s.TypeAttr != "" {
		keyAttrs = append(keyAttrs, s.TypeAttr)
	}
	if s.TTLAttr != "" {
		keyAttrs = append(keyAttrs, s.TTLAttr)
	}
	var b strings.Builder
	ents := tbl.Entities()
	sort.SliceStable(ents, func(i, j int) bool { return ents[i].Type() < ents[j].Type() })
	for _, e := range ents {
		smp, err := e.Sample(set[e.Type()])
		if err != nil {
			t.Errorf("%s: %v", e.Type(), err)
			continue
		}
		fmt.Fprintf(&b, "%s\n", e.Type())
		for _, a := range keyAttrs {
			if v, ok := smp.Item[a]; ok {
				fmt.Fprintf(&b, "\t%s = %s\n", a, typedAVString(v))
			}
		}
		us := slices.Clone(smp.Uniques)
		slices.SortFunc(us, func(a, b table.Unique) int { return strings.Compare(a.Name+"\x00"+a.Value, b.Name+"\x00"+b.Value) })
		for _, u := range us {
			fmt.Fprintf(&b, "\tunique %s = %q shared=%v\n", u.Name, u.Value, u.Shared)
		}
	}
	got := b.String()
	path := filepath.Join("testdata", name+".golden")
	if os.Getenv(UpdateGoldenEnv) == "1" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (write it with %s=1)", err, UpdateGoldenEnv)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("stored keys of %s changed (-want +got):\n%s", name, diff)
	}
}

func typedAVString(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return fmt.Sprintf("S:%q", v.Value)
	case *types.AttributeValueMemberN:
		return "N:" + v.Value
	}
	return fmt.Sprintf("%T", v)
}
