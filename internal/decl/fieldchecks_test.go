package decl

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
)

// fcTone is an enumeration registered as table.NewEnum registers one.
type fcTone string

func init() {
	codec.RegisterEnum(reflect.TypeFor[fcTone](), "[low high]", func(field, v string) error {
		if v == "low" || v == "high" {
			return nil
		}
		return &codec.ValidationError{Field: field, Reason: "unknown " + v, Unknown: true, Value: v, Allowed: []string{"low", "high"}}
	})
}

// fcID checks itself with the attribute's name; fcCode with Check; fcSelf
// names itself.
type (
	fcID   string
	fcCode string
	fcSelf string
)

func (id fcID) Validate(field string) error {
	if !strings.HasPrefix(string(id), "id_") {
		return &codec.ValidationError{Field: field, Reason: "bad id", Key: true}
	}
	return nil
}

func (c *fcCode) Check(field string) error {
	if len(*c) != 3 {
		return &codec.ValidationError{Field: field, Reason: "not 3 letters"}
	}
	return nil
}

func (s fcSelf) Validate() error {
	if s != "ok" {
		return &codec.ValidationError{Field: "self", Reason: "not ok"}
	}
	return nil
}

type fcInner struct {
	Tone  fcTone `dynamo:"tone"`
	Label string `dynamo:"label"`
}

type FcEmbedded struct {
	Code fcCode `dynamo:"code"`
}

type fcItem struct {
	*FcEmbedded
	ID     fcID      `dynamo:"id"`
	Tenant fcID      `dynamo:"-" key:"tenant"`
	Owner  fcID      `dynamo:"owner"`
	Self   fcSelf    `dynamo:"self"`
	Name   string    `dynamo:"name"`
	Inner  fcInner   `dynamo:"inner"`
	Ptr    *fcInner  `dynamo:"ptr"`
	List   []fcInner `dynamo:"list"`
	Tones  []fcTone  `dynamo:"tones"`
	Skip   fcID      `dynamo:"-"`
	Count  int       `dynamo:"count"`
}

func fcChecks(t *testing.T, required ...string) FieldChecks {
	t.Helper()
	pk, _ := keytmpl.Parse("T#{tenant}")
	sk, _ := keytmpl.Parse("I#{id}")
	fc, err := NewFieldChecks(reflect.TypeFor[fcItem](), pk, sk, keyFields(reflect.TypeFor[fcItem](), false), required, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fc
}

func fcFailures(errs []error) []string {
	var out []string
	for _, err := range errs {
		var ve *codec.ValidationError
		if !errors.As(err, &ve) {
			out = append(out, "not a ValidationError: "+err.Error())
			continue
		}
		out = append(out, ve.Field+": "+ve.Reason)
	}
	return out
}

// The checks of a type's fields: each self-checking field when set, with
// its dotted attribute name (nested, behind a pointer, in a slice, through
// an embedded pointer); key fields (a stored one, a key-only one) even when
// zero; Required names refused when blank; nothing else. In declaration
// order, every failure.
func TestNewFieldChecksRun(t *testing.T) {
	t.Parallel()
	fc := fcChecks(t, "name", "inner.label", "count", "list")
	good := fcItem{FcEmbedded: &FcEmbedded{Code: "abc"}, ID: "id_1", Tenant: "id_t", Owner: "id_o", Self: "ok", Name: "n",
		Inner: fcInner{Tone: "low", Label: "l"}, Ptr: &fcInner{Tone: "high"}, List: []fcInner{{Tone: "low"}}, Tones: []fcTone{"high"}, Count: 1}
	if errs := fc.Run(reflect.ValueOf(&good).Elem(), nil); errs != nil {
		t.Fatalf("a good item: %v", errs)
	}
	// Zero: the key fields are checked, the required ones refused, the others skipped.
	var zero fcItem
	want := []string{"id: bad id", "name: required", "inner.label: required", "list: required", "count: required", "tenant: bad id"}
	if diff := cmp.Diff(want, fcFailures(fc.Run(reflect.ValueOf(&zero).Elem(), nil))); diff != "" {
		t.Errorf("zero item (-want +got):\n%s", diff)
	}
	bad := fcItem{FcEmbedded: &FcEmbedded{Code: "ab"}, ID: "x", Tenant: "id_t", Owner: "y", Self: "no", Name: " \t",
		Inner: fcInner{Tone: "mid", Label: "l"}, Ptr: &fcInner{Tone: "top"}, List: []fcInner{{Tone: "low"}, {Tone: "odd"}},
		Tones: []fcTone{"high", "deep"}, Skip: "not checked", Count: 2}
	want = []string{"code: not 3 letters", "id: bad id", "owner: bad id", "self: not ok", "name: required",
		"inner.tone: unknown mid", "ptr.tone: unknown top", "list.tone: unknown odd", "tones: unknown deep"}
	if diff := cmp.Diff(want, fcFailures(fc.Run(reflect.ValueOf(&bad).Elem(), nil))); diff != "" {
		t.Errorf("bad item (-want +got):\n%s", diff)
	}
	pk, _ := keytmpl.Parse("T#{tenant}")
	sk, _ := keytmpl.Parse("I#{id}")
	if _, err := NewFieldChecks(reflect.TypeFor[fcItem](), pk, sk, nil, []string{"inner.colour", "nope"}, nil); err == nil ||
		!strings.Contains(err.Error(), "inner.colour, nope") {
		t.Errorf("unknown Required names: %v, want an error naming both", err)
	}
	if _, err := NewFieldChecks(reflect.TypeFor[fcItem](), pk, sk, nil, nil, []string{"name"}); err == nil || !strings.Contains(err.Error(), "Unchecked name") {
		t.Errorf("Unchecked of a field with no check of its own: %v, want an error", err)
	}
	// Unchecked: the entity checks that field by its own rules.
	unchecked, err := NewFieldChecks(reflect.TypeFor[fcItem](), pk, sk, nil, nil, []string{"inner.tone", "owner"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"code: not 3 letters", "id: bad id", "self: not ok", "ptr.tone: unknown top", "list.tone: unknown odd", "tones: unknown deep"},
		fcFailures(unchecked.Run(reflect.ValueOf(&bad).Elem(), nil))); diff != "" {
		t.Errorf("with inner.tone and owner unchecked (-want +got):\n%s", diff)
	}
}

// ItemCheck joins the field checks' failures before the type's own, gives
// one alone as it is, and allocates nothing when every check passes (the
// ingest path checks each event).
func TestItemCheckJoinsAndAllocatesNothing(t *testing.T) {
	fc := fcChecks(t, "name")
	own := func(x *fcItem) error {
		if x.Count < 0 {
			return &codec.ValidationError{Field: "count", Reason: "negative"}
		}
		return nil
	}
	check := ItemCheck(fc, own)
	x := fcItem{ID: "id_1", Tenant: "id_t", Name: "n", Inner: fcInner{Tone: "high"}, List: []fcInner{{Tone: "low"}}, Tones: []fcTone{"low"}, Count: -1}
	var ve *codec.ValidationError
	if err := check(&x); !errors.As(err, &ve) || ve.Field != "count" || len(codec.LeafErrors(err)) != 1 {
		t.Errorf("own failure alone: %v", err)
	}
	x.Owner = "bad"
	if got := fcFailures(codec.LeafErrors(check(&x))); !cmp.Equal(got, []string{"owner: bad id", "count: negative"}) {
		t.Errorf("joined: %v, want owner then count", got)
	}
	x.Owner, x.Count = "id_o", 1
	if n := testing.AllocsPerRun(100, func() {
		if check(&x) != nil {
			t.Fatal("a good item refused")
		}
	}); n != 0 {
		t.Errorf("a passing check allocates %v times, want 0", n)
	}
	if ItemCheck[fcItem](FieldChecks{}, nil)(&x) != nil {
		t.Error("nothing to check refused an item")
	}
}
