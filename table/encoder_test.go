package table_test

// One encoder (issue 26 §7): every write path stores a field exactly as
// Create stores it, whatever its tags, and derives the same GSI key.

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

type encKind string

type encNested struct {
	Label string    `dynamo:"label"`
	At    time.Time `dynamo:"at,unixtime"`
}

// encoded has a field for each tag and kind the codec supports.
type encoded struct {
	ID     string            `dynamo:"id"`
	Kind   encKind           `dynamo:"kind"`        // a named string type, in a GSI key
	At     time.Time         `dynamo:"at,unixtime"` // epoch seconds, in a GSI key as {at:ts}
	When   time.Time         `dynamo:"when"`        // RFC 3339 with nanoseconds
	Seen   *time.Time        `dynamo:"seen"`        // a pointer
	Name   string            `dynamo:"name,omitempty"`
	Count  int64             `dynamo:"count,omitempty"`
	Ratio  float64           `dynamo:"ratio"`
	Tags   []string          `dynamo:"tags,set"` // SS
	Nums   []int             `dynamo:"nums,set"` // NS
	List   []string          `dynamo:"list"`     // L
	Labels map[string]string `dynamo:"labels"`   // M, an empty string kept
	Blob   []byte            `dynamo:"blob"`     // B
	Flag   bool              `dynamo:"flag"`     // BOOL
	Nested encNested         `dynamo:"nested"`   // M, with a unixtime inside
	Note   string            `dynamo:"note"`     // Def.AlwaysWrite: "" is stored
	Read   table.ReadState   `dynamo:"-"`
}

var (
	encKindF   = table.MustField[encoded, encKind]("kind")
	encAtF     = table.MustField[encoded, time.Time]("at")
	encWhenF   = table.MustField[encoded, time.Time]("when")
	encSeenF   = table.MustField[encoded, *time.Time]("seen")
	encNameF   = table.MustField[encoded, string]("name")
	encCountF  = table.MustField[encoded, int64]("count")
	encRatioF  = table.MustField[encoded, float64]("ratio")
	encTagsF   = table.MustField[encoded, []string]("tags")
	encNumsF   = table.MustField[encoded, []int]("nums")
	encListF   = table.MustField[encoded, []string]("list")
	encLabelsF = table.MustField[encoded, map[string]string]("labels")
	encBlobF   = table.MustField[encoded, []byte]("blob")
	encFlagF   = table.MustField[encoded, bool]("flag")
	encNestedF = table.MustField[encoded, encNested]("nested")
	encNoteF   = table.MustField[encoded, string]("note")
)

func encodedDef() table.Def[encoded] {
	return table.Def[encoded]{
		Type:        "Encoded",
		Keys:        table.Template{PK: "ENC#{id}", SK: "ENC"},
		IndexKeys:   map[table.Index]table.Template{table.GSI1: {PK: "KIND#{kind}", SK: "AT#{at:ts}#{id}"}},
		AlwaysWrite: []string{"note"},
	}
}

// patchOf is the Patch that sets every field of e but the key.
func patchOf(e encoded) table.Patch {
	return table.Patch{Set: map[string]any{
		"kind": e.Kind, "at": e.At, "when": e.When, "seen": e.Seen, "name": e.Name, "count": e.Count,
		"ratio": e.Ratio, "tags": e.Tags, "nums": e.Nums, "list": e.List, "labels": e.Labels, "blob": e.Blob,
		"flag": e.Flag, "nested": e.Nested, "note": e.Note,
	}}
}

// changesOf is the typed Change list that sets every field of e.
func changesOf(e encoded) []table.Change[encoded] {
	return []table.Change[encoded]{
		table.Set(encKindF, e.Kind), table.Set(encAtF, e.At), table.Set(encWhenF, e.When), table.Set(encSeenF, e.Seen),
		table.Set(encNameF, e.Name), table.Set(encCountF, e.Count), table.Set(encRatioF, e.Ratio), table.Set(encTagsF, e.Tags),
		table.Set(encNumsF, e.Nums), table.Set(encListF, e.List), table.Set(encLabelsF, e.Labels), table.Set(encBlobF, e.Blob),
		table.Set(encFlagF, e.Flag), table.Set(encNestedF, e.Nested), table.Set(encNoteF, e.Note),
	}
}

// canonAV prints v canonically (sets sorted), to compare stored bytes.
func canonAV(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return fmt.Sprintf("S%q", v.Value)
	case *types.AttributeValueMemberN:
		return "N" + v.Value
	case *types.AttributeValueMemberB:
		return fmt.Sprintf("B%x", v.Value)
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprintf("BOOL%v", v.Value)
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberSS:
		s := slices.Clone(v.Value)
		sort.Strings(s)
		return fmt.Sprintf("SS%q", s)
	case *types.AttributeValueMemberNS:
		s := slices.Clone(v.Value)
		sort.Strings(s)
		return fmt.Sprintf("NS%q", s)
	case *types.AttributeValueMemberL:
		var parts []string
		for _, e := range v.Value {
			parts = append(parts, canonAV(e))
		}
		return "L[" + strings.Join(parts, ",") + "]"
	case *types.AttributeValueMemberM:
		var parts []string
		for k, e := range v.Value {
			parts = append(parts, fmt.Sprintf("%q:%s", k, canonAV(e)))
		}
		sort.Strings(parts)
		return "M{" + strings.Join(parts, ",") + "}"
	}
	return fmt.Sprintf("%T", v)
}

// storedImage is the item as stored, but its version and write tokens
// (which count writes, not state).
func storedImage(t *testing.T, tb *table.Table, k table.Key) map[string]string {
	t.Helper()
	out := map[string]string{}
	for a, v := range tabletest.RawItem(t, tb, k) {
		if a != "_v" && a != "_wt" {
			out[a] = canonAV(v)
		}
	}
	return out
}

// Create, Update, Replace, Patch and Change bring an item to the same state
// and store the same bytes for every field, tag by tag (unixtime in a GSI
// key, omitempty, sets, lists, maps with empty strings, binary, pointers,
// nested unixtime, AlwaysWrite), the GSI key derived from the unixtime
// field included; then again when they empty the fields.
func TestOneEncoderAcrossWrites(t *testing.T) {
	t.Parallel()
	c := ctx(t)
	seen := time.Date(2026, 11, 20, 8, 30, 15, 987654321, time.UTC)
	full := encoded{
		Kind: "gold", At: time.Date(2026, 11, 25, 10, 0, 0, 123456789, time.UTC), // sub-second digits
		When: time.Date(2026, 11, 25, 11, 0, 0, 5, time.UTC), Seen: &seen, Name: "full", Count: 7, Ratio: 0.25,
		Tags: []string{"b", "a"}, Nums: []int{3, 1}, List: []string{"x", "x"}, Labels: map[string]string{"logo": "", "color": "red"},
		Blob: []byte{0, 1, 2}, Flag: true, Nested: encNested{Label: "n", At: time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC)}, Note: "hello",
	}
	base := encoded{Kind: "tin", At: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), Name: "base", Count: 1, Tags: []string{"z"}, Note: "old"}
	emptied := encoded{Kind: full.Kind, At: full.At} // every other field zero
	writes := []struct {
		name  string
		write func(t *testing.T, e *table.Entity[encoded], id string, from, to encoded)
	}{
		{"Create", nil},
		{"Update", func(t *testing.T, e *table.Entity[encoded], id string, _, to encoded) {
			k := table.Key{PK: "ENC#" + id, SK: "ENC"}
			if _, err := e.Update(c, k, func(m *encoded) error {
				read := m.Read
				*m = to
				m.ID, m.Read = id, read
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}},
		{"Replace", func(t *testing.T, e *table.Entity[encoded], id string, _, to encoded) {
			m, err := e.Get(c, table.Key{PK: "ENC#" + id, SK: "ENC"})
			if err != nil {
				t.Fatal(err)
			}
			read := m.Read
			m = to
			m.ID, m.Read = id, read
			if err := e.Replace(c, &m); err != nil {
				t.Fatal(err)
			}
		}},
		{"Patch", func(t *testing.T, e *table.Entity[encoded], id string, _, to encoded) {
			if _, err := e.Patch(c, table.Key{PK: "ENC#" + id, SK: "ENC"}, patchOf(to)); err != nil {
				t.Fatal(err)
			}
		}},
		{"Change", func(t *testing.T, e *table.Entity[encoded], id string, _, to encoded) {
			if _, err := e.Change(c, table.Key{PK: "ENC#" + id, SK: "ENC"}, changesOf(to)...); err != nil {
				t.Fatal(err)
			}
		}},
	}
	// One table per write method, so the items share their key and compare
	// byte for byte.
	ents := make([]*table.Entity[encoded], len(writes))
	for i := range writes {
		ents[i] = table.NewEntity(tabletest.NewTable(t, table.NewSchema("enc")), encodedDef())
	}
	for _, round := range []struct {
		id       string
		from, to encoded
	}{{"filled", base, full}, {"emptied", full, emptied}} {
		var want map[string]string
		for i, w := range writes {
			e := ents[i]
			to := round.to
			to.ID = round.id
			if w.write == nil {
				if err := e.Create(c, &to); err != nil {
					t.Fatal(err)
				}
			} else {
				from := round.from
				from.ID = round.id
				if err := e.Create(c, &from); err != nil {
					t.Fatal(err)
				}
				w.write(t, e, round.id, from, to)
			}
			got := storedImage(t, e.Table(), table.Key{PK: "ENC#" + round.id, SK: "ENC"})
			if want == nil {
				want = got
				if round.id == "filled" && (want["at"] != fmt.Sprintf("N%d", full.At.Unix()) || !strings.HasPrefix(want["GSI1SK"], `S"AT#2026-11-25T10:00:00.000000000Z#`)) {
					t.Fatalf("Create stored at=%s GSI1SK=%s: want epoch seconds and a key without sub-second digits", want["at"], want["GSI1SK"])
				}
				continue
			}
			for _, a := range slices.Sorted(func(yield func(string) bool) {
				for k := range unionStr(want, got) {
					if !yield(k) {
						return
					}
				}
			}) {
				if want[a] != got[a] {
					t.Errorf("%s (%s): attribute %s stored as %s, Create stores %s", w.name, round.id, a, orNone(got[a]), orNone(want[a]))
				}
			}
		}
	}
}

func unionStr(a, b map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(absent)"
	}
	return s
}
