package table_test

// What is stored comes back, and a write leaves it (issue 26 §3): every
// attribute-value kind nested in a map, read into a map, a slice of maps
// and a struct, then written back by Update, Replace and a batch.

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

type branding struct {
	Logo   string            `dynamo:"logo"`
	Color  string            `dynamo:"color"`
	Colors map[string]string `dynamo:"colors"`
}

type fidelity struct {
	ID       string           `dynamo:"id"`
	Name     string           `dynamo:"name"`
	Doc      map[string]any   `dynamo:"doc"`      // a map target
	Rows     []map[string]any `dynamo:"rows"`     // a slice of maps
	Branding branding         `dynamo:"branding"` // a struct target
	Version  int64            `dynamo:"-"`
	Read     table.ReadState  `dynamo:"-"`
}

var fidelityDef = table.Def[fidelity]{
	Type:    "Fidelity",
	Keys:    table.Template{PK: "FID#{id}", SK: "F"},
	Version: func(f *fidelity) *int64 { return &f.Version },
}

func m(kv ...any) *types.AttributeValueMemberM {
	out := map[string]types.AttributeValue{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return &types.AttributeValueMemberM{Value: out}
}

func l(vs ...types.AttributeValue) *types.AttributeValueMemberL {
	return &types.AttributeValueMemberL{Value: append([]types.AttributeValue{}, vs...)}
}

// TestNestedValuesSurvive: for each attribute-value kind stored inside a
// map (under "doc", a map[string]any, and inside "rows", a list of maps),
// Get and BatchGet give the key back, and Update of another attribute,
// Update and Replace of the same map, and BatchGet then BatchPut leave the
// stored value exactly as it was (comparing raw attribute values).
func TestNestedValuesSurvive(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("fidelity"))
	e := table.NewEntity(tb, fidelityDef)
	c := ctx(t)
	null := &types.AttributeValueMemberNULL{Value: true}
	cases := []struct {
		name string
		v    types.AttributeValue
	}{
		{"S empty", av("")},
		{"S", av("x")},
		{"NULL", null},
		{"empty L", l()},
		{"empty M", m()},
		{"B", &types.AttributeValueMemberB{Value: []byte{0, 255}}},
		{"empty B", &types.AttributeValueMemberB{Value: []byte{}}},
		{"BOOL false", &types.AttributeValueMemberBOOL{Value: false}},
		{"N", &types.AttributeValueMemberN{Value: "1.5"}},
		{"SS", &types.AttributeValueMemberSS{Value: []string{"a", "b"}}},
		{"NS", &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}}},
		{"BS", &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}}},
		{"nested", m("logo", av(""), "n", null, "l", l(av(""), null, m("e", av(""))))},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := string(rune('a' + i))
			k := table.Key{PK: "FID#" + id, SK: "F"}
			stored := table.Item{
				"doc":  m("v", tc.v, "keep", av("x")),
				"rows": l(m("v", tc.v), m("other", av(""))),
			}
			putRawItem(t, tb, table.Item{"PK": av(k.PK), "SK": av(k.SK), "id": av(id), "name": av("n"),
				"doc": stored["doc"], "rows": stored["rows"]})
			stored = storedAttrs(t, tb, k, stored)

			got, err := e.Get(c, k)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := got.Doc["v"]; !ok {
				t.Errorf("Get: doc lost key v: %#v", got.Doc)
			}
			if len(got.Rows) != 2 || got.Rows[1]["other"] != "" {
				t.Errorf("Get: rows = %#v", got.Rows)
			} else if _, ok := got.Rows[0]["v"]; !ok {
				t.Errorf("Get: rows[0] lost key v: %#v", got.Rows)
			}
			bg, err := e.BatchGet(c, []table.Key{k})
			if err != nil || len(bg) != 1 {
				t.Fatalf("BatchGet: %v, %v", bg, err)
			}
			if d := cmp.Diff(got, bg[0]); d != "" {
				t.Errorf("BatchGet differs from Get (-get +batch):\n%s", d)
			}

			if _, err := e.Update(c, k, func(f *fidelity) error { f.Name = "renamed"; return nil }); err != nil {
				t.Fatal(err)
			}
			sameAttrs(t, "Update of another attribute", stored, tabletest.RawItem(t, tb, k))

			if _, err := e.Update(c, k, func(f *fidelity) error {
				f.Doc["added"] = ""
				f.Rows[1]["added"] = nil
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			want := table.Item{
				"doc":  m("v", tc.v, "keep", av("x"), "added", av("")),
				"rows": l(m("v", tc.v), m("other", av(""), "added", null)),
			}
			want = normalized(stored, want)
			sameAttrs(t, "Update of the same map", want, tabletest.RawItem(t, tb, k))

			r, err := e.Get(c, k)
			if err != nil {
				t.Fatal(err)
			}
			delete(r.Doc, "added")
			delete(r.Rows[1], "added")
			if err := e.Replace(c, &r); err != nil {
				t.Fatal(err)
			}
			sameAttrs(t, "Replace of the same map", stored, tabletest.RawItem(t, tb, k))

			// Whole-item writes of the item as read write it back as
			// stored (a set read into map[string]any stays a set).
			bg, err = e.BatchGet(c, []table.Key{k})
			if err != nil {
				t.Fatal(err)
			}
			if err := e.BatchPut(c, []*fidelity{&bg[0]}); err != nil {
				t.Fatal(err)
			}
			sameAttrs(t, "BatchGet then BatchPut", stored, tabletest.RawItem(t, tb, k))
			p, err := e.Get(c, k)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Put(c, &p); err != nil {
				t.Fatal(err)
			}
			sameAttrs(t, "Get then Put", stored, tabletest.RawItem(t, tb, k))
			cr, err := e.Get(c, k)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Delete(c, k); err != nil {
				t.Fatal(err)
			}
			if err := e.Create(c, &cr); err != nil {
				t.Fatal(err)
			}
			sameAttrs(t, "Get, Delete then Create", stored, tabletest.RawItem(t, tb, k))
			// A change to a sibling entry leaves the set's form.
			if v, ok := cr.Doc["v"]; ok && v != nil {
				cr.Doc["keep"] = "changed"
				if err := e.Put(c, &cr); err != nil {
					t.Fatal(err)
				}
				want := table.Item{"doc": m("v", stored["doc"].(*types.AttributeValueMemberM).Value["v"], "keep", av("changed")), "rows": stored["rows"]}
				sameAttrs(t, "Put of a changed sibling", want, tabletest.RawItem(t, tb, k))
			}
		})
	}
}

// normalized returns want with the value under "v" (in doc and rows[0])
// as DynamoDB stored it (numbers are normalized on write).
func normalized(stored, want table.Item) table.Item {
	want["doc"].(*types.AttributeValueMemberM).Value["v"] = stored["doc"].(*types.AttributeValueMemberM).Value["v"]
	want["rows"].(*types.AttributeValueMemberL).Value[0] = stored["rows"].(*types.AttributeValueMemberL).Value[0]
	return want
}

// TestStructFieldsKeepStoredEmpties: a struct field cannot tell a stored
// empty string from an absent one; a write that changes a sibling keeps
// the stored one (Update and Replace), and a string map keeps its empty
// entries at any depth.
func TestStructFieldsKeepStoredEmpties(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("fidstruct"))
	e := table.NewEntity(tb, fidelityDef)
	c := ctx(t)
	k := table.Key{PK: "FID#s", SK: "F"}
	putRawItem(t, tb, table.Item{"PK": av(k.PK), "SK": av(k.SK), "id": av("s"),
		"branding": m("logo", av(""), "color", av("red"), "colors", m("accent", av("")), "unknown", av(""))})
	got, err := e.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(branding{Color: "red", Colors: map[string]string{"accent": ""}}, got.Branding); d != "" {
		t.Errorf("Get (-want +got):\n%s", d)
	}
	if _, err := e.Update(c, k, func(f *fidelity) error {
		f.Branding.Color = "blue"
		f.Branding.Colors["primary"] = ""
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := table.Item{"branding": m("logo", av(""), "color", av("blue"), "colors", m("accent", av(""), "primary", av("")), "unknown", av(""))}
	sameAttrs(t, "Update", want, tabletest.RawItem(t, tb, k))

	r, err := e.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	r.Branding.Color = "green"
	delete(r.Branding.Colors, "primary")
	if err := e.Replace(c, &r); err != nil {
		t.Fatal(err)
	}
	want = table.Item{"branding": m("logo", av(""), "color", av("green"), "colors", m("accent", av("")), "unknown", av(""))}
	sameAttrs(t, "Replace", want, tabletest.RawItem(t, tb, k))

	// Whole-item writes of the item as read keep the stored empty string
	// of a nested struct field (and the entry its type cannot hold), and
	// a top-level one: Put, BatchPut, and Create after a delete.
	putRawItem(t, tb, table.Item{"PK": av(k.PK), "SK": av(k.SK), "id": av("s"), "name": av(""),
		"branding": m("logo", av(""), "color", av("red"), "colors", m("accent", av("")), "unknown", av(""))})
	storedNow := table.Item{"name": av(""), "branding": m("logo", av(""), "color", av("red"), "colors", m("accent", av("")), "unknown", av(""))}
	for _, step := range []string{"Put", "BatchPut", "Create"} {
		r, err := e.Get(c, k)
		if err != nil {
			t.Fatal(err)
		}
		switch step {
		case "Put":
			err = e.Put(c, &r)
		case "BatchPut":
			err = e.BatchPut(c, []*fidelity{&r})
		case "Create":
			if err = e.Delete(c, k); err == nil {
				err = e.Create(c, &r)
			}
		}
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		sameAttrs(t, step+" of the item as read", storedNow, tabletest.RawItem(t, tb, k))
	}
	r, err = e.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	r.Branding.Color = "blue"
	if err := e.Put(c, &r); err != nil {
		t.Fatal(err)
	}
	want = table.Item{"name": av(""), "branding": m("logo", av(""), "color", av("blue"), "colors", m("accent", av("")), "unknown", av(""))}
	sameAttrs(t, "Put of a changed sibling", want, tabletest.RawItem(t, tb, k))

	// the caller's own empty values inside maps are written as given
	if err := e.Create(c, &fidelity{ID: "new", Doc: map[string]any{"s": "", "n": nil, "l": []any{}, "m": map[string]any{"e": ""}}}); err != nil {
		t.Fatal(err)
	}
	want = table.Item{"doc": m("s", av(""), "n", &types.AttributeValueMemberNULL{Value: true}, "l", l(), "m", m("e", av("")))}
	sameAttrs(t, "Create", want, tabletest.RawItem(t, tb, table.Key{PK: "FID#new", SK: "F"}))
}
