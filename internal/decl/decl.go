package decl

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
	"github.com/singletable/singletable/keys"
)

// Item is a raw DynamoDB item (the same type as table.Item).
type Item = map[string]types.AttributeValue

// Key is an item's primary key (table.Key).
type Key = keytmpl.Key

// Spec is what table.Def declares, as the parser reads it.
type Spec struct {
	Type              string
	PK, SK            string
	Indexes           map[ddb.Index]IndexSpec
	ValidWhileIndexed []ddb.Index
	UniqueOn          []string
	UniqueFold        map[string]func(string) string
	// Custom says Def.CustomUniques is set; CustomFrom are the attributes
	// it reads.
	Custom     bool
	CustomFrom []string
	TTLFrom    string
	TTLAfter   time.Duration
	Secrets    []string
	Required   []string // Def.Required
	Unchecked  []string // Def.Unchecked
}

// IndexSpec is one GSI's declared key templates and When conditions.
type IndexSpec struct {
	PK, SK string
	When   []string
}

// Cond is one When condition: attribute Attr set, or with Neg not set.
type Cond struct {
	Attr string
	Neg  bool
}

// UniqueDecl is one UniqueOn entry: the guard's name and the attribute.
type UniqueDecl struct{ Name, Attr string }

// Decl is an entity's declarations, parsed.
type Decl struct {
	PK, SK   keytmpl.Template
	Indexes  map[ddb.Index][2]keytmpl.Template
	When     map[ddb.Index][]Cond
	UniqueOn []UniqueDecl
	Fold     map[string]func(string) string
	TTLFrom  string
	TTLAfter time.Duration
	Custom   []string       // the attributes Def.CustomUniques reads
	KeyOnly  map[string]int // fields stored only in the key, by `key` tag: their field index
	// KeyTagged holds every field tagged `key:"name"` (stored only in the
	// key, or stored too), by name: their field index. Reads set them
	// from the item's key ([Decl.FillFromKey]).
	KeyTagged map[string]int
	Wild      []codec.WildSecret // the Secrets paths "m.*": a catch-all whose members are sealed
	// KeyChecks are the primary-key fields' own checks, each always
	// ([KeyChecks]): what table.Entity.CheckedKey runs.
	KeyChecks []SelfCheck
	// Fields are the checks of the item's fields every write runs
	// ([NewFieldChecks]), before the type's own Validate.
	FieldChecks FieldChecks
	// Indexed holds every attribute an index key, a guard or the TTL
	// derives from (with the primary key's own), sorted.
	Indexed []string
	// UniqueRaw says the unique values can be read from a stored item's
	// attributes ([Decl.Uniques] of it): UniqueOn only, none key-only.
	UniqueRaw bool
	// ixFields holds every attribute an index key or its When conditions
	// read (Fields of every index).
	ixFields map[string]bool
}

// Parse parses the declarations s of struct type rt on a table of schema
// sc and checks every reference against rt's attributes. It panics on a
// malformed declaration (a programming error, found at start-up).
func Parse(rt reflect.Type, sc ddb.Schema, s Spec) *Decl {
	names := codec.FieldsOf(rt)
	d := &Decl{Indexes: map[ddb.Index][2]keytmpl.Template{}, When: map[ddb.Index][]Cond{}, KeyOnly: keyFields(rt, true),
		KeyTagged: keyFields(rt, false), TTLFrom: s.TTLFrom, TTLAfter: s.TTLAfter}
	known := func(a string) bool {
		_, ok := names[a]
		_, key := d.KeyOnly[a]
		return ok || key
	}
	fail := func(format string, args ...any) {
		panic(fmt.Sprintf("table.NewEntity(%s): ", s.Type) + fmt.Sprintf(format, args...))
	}
	must := func(s string) keytmpl.Template {
		tp, err := keytmpl.Parse(s)
		if err != nil {
			fail("%v", err)
		}
		for _, a := range tp.Attrs() {
			if !known(a) {
				fail("template %q references %q, not an attribute of the type", s, a)
			}
		}
		return tp
	}
	if s.PK == "" || s.SK == "" {
		fail("Def.Keys needs PK and SK templates")
	}
	d.PK, d.SK = must(s.PK), must(s.SK)
	d.KeyChecks = KeyChecks(rt, d.PK, d.SK, d.KeyTagged)
	var err error
	if d.FieldChecks, err = NewFieldChecks(rt, d.PK, d.SK, d.KeyTagged, s.Required, s.Unchecked); err != nil {
		fail("%v", err)
	}
	// The key's own fields never change in place: a patch may not set them.
	indexed := append(d.PK.Attrs(), d.SK.Attrs()...)
	for ix, ks := range s.Indexes {
		if _, err := sc.GSI(ix); err != nil {
			fail("%v", err)
		}
		d.Indexes[ix] = [2]keytmpl.Template{must(ks.PK), must(ks.SK)}
		for _, w := range ks.When {
			c := Cond{Attr: strings.TrimPrefix(w, "!"), Neg: strings.HasPrefix(w, "!")}
			if !known(c.Attr) {
				fail("When %q is not an attribute of the type", w)
			}
			d.When[ix] = append(d.When[ix], c)
		}
		indexed = append(indexed, d.Fields(ix)...)
		if d.ixFields == nil {
			d.ixFields = map[string]bool{}
		}
		for _, a := range d.Fields(ix) {
			d.ixFields[a] = true
		}
	}
	for _, ix := range s.ValidWhileIndexed {
		if _, ok := d.Indexes[ix]; !ok {
			fail("ValidWhileIndexed names %v, which IndexKeys does not declare", ix)
		}
	}
	for _, entry := range s.UniqueOn {
		name, attr, renamed := strings.Cut(entry, "=")
		if !renamed {
			attr = name
		}
		if name == "" || !known(attr) {
			fail("UniqueOn %q: %q is not an attribute of the type", entry, attr)
		}
		d.UniqueOn = append(d.UniqueOn, UniqueDecl{Name: name, Attr: attr})
		indexed = append(indexed, attr)
	}
	for name := range s.UniqueFold {
		if !slices.ContainsFunc(d.UniqueOn, func(u UniqueDecl) bool { return u.Name == name }) {
			fail("UniqueFold %q is not in UniqueOn", name)
		}
	}
	d.Fold = s.UniqueFold
	if s.Custom {
		if len(s.CustomFrom) == 0 {
			fail("Def.CustomUniques needs Uniques and the attributes it reads (From)")
		}
		for _, a := range s.CustomFrom {
			if !known(a) {
				fail("CustomUniques.From %q is not an attribute of the type", a)
			}
		}
		d.Custom = slices.Clone(s.CustomFrom)
		indexed = append(indexed, d.Custom...)
	}
	d.UniqueRaw = len(d.UniqueOn) > 0 && !s.Custom &&
		!slices.ContainsFunc(d.UniqueOn, func(u UniqueDecl) bool { _, ko := d.KeyOnly[u.Attr]; return ko })
	if s.TTLFrom != "" {
		if !known(s.TTLFrom) {
			fail("TTL.From %q is not an attribute of the type", s.TTLFrom)
		}
		indexed = append(indexed, s.TTLFrom)
	} else if s.TTLAfter != 0 {
		fail("TTL.After without TTL.From")
	}
	for _, path := range s.Secrets {
		if prefix, ok := strings.CutSuffix(path, ".*"); ok {
			known, ok := codec.WildField(rt, prefix)
			if !ok {
				fail("Secrets %q: %q is not a struct attribute with a table.Extra field (the members it keeps are the ones sealed)", path, prefix)
			}
			d.Wild = append(d.Wild, codec.WildSecret{Prefix: prefix, Known: known})
			continue
		}
		if !secretField(rt, path) {
			fail("Secrets %q is not a string attribute of the type", path)
		}
	}
	slices.Sort(indexed)
	d.Indexed = slices.Compact(indexed)
	return d
}

// secretField reports whether the attribute path names a string field of
// struct type t ("credentials.accessToken": through the struct the
// credentials attribute holds).
func secretField(t reflect.Type, path string) bool {
	for part := range strings.SplitSeq(path, ".") {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return false
		}
		fi, ok := codec.FieldsOf(t)[part]
		if !ok {
			return false
		}
		t = fi.Typ
	}
	return t.Kind() == reflect.String
}

// keyFields returns the exported fields of struct t tagged `key:"name"`
// by name; only, those stored only in the key (`dynamo:"-"`).
func keyFields(t reflect.Type, only bool) map[string]int {
	out := map[string]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		if name := f.Tag.Get("key"); name != "" && f.IsExported() && (!only || f.Tag.Get("dynamo") == "-") {
			out[name] = i
		}
	}
	return out
}

// FillFromKey sets the key-tagged fields of struct value v (of the
// declared type) from the key attributes av holds, the key winning over
// a stored value; a value that does not decode into its field leaves it
// as is.
func (d *Decl) FillFromKey(v reflect.Value, av Item) {
	for name, i := range d.KeyTagged {
		if a, ok := av[name]; ok {
			f := reflect.New(v.Field(i).Type())
			if dynamo.Unmarshal(a, f.Interface()) == nil {
				v.Field(i).Set(f.Elem())
			}
		}
	}
}

// Match reports whether k has the shape of the declared primary key (false
// for a nil Decl).
func (d *Decl) Match(k Key) bool { return d != nil && d.PK.Matches(k.PK) && d.SK.Matches(k.SK) }

// Uniques returns the unique values UniqueOn declares of the attributes av.
func (d *Decl) Uniques(av Item) []ddb.Unique {
	var us []ddb.Unique
	for _, u := range d.UniqueOn {
		if v, ok := keytmpl.SegmentValue(av[u.Attr]); ok && v != "" {
			if f := d.Fold[u.Name]; f != nil {
				v = f(v)
			}
			us = append(us, ddb.Unique{Name: u.Name, Value: v})
		}
	}
	return us
}

// Encode returns item's (a pointer to a struct) attributes with its
// key-only fields, for keys.
func (d *Decl) Encode(item any) (Item, error) {
	av, err := dynamo.MarshalItem(item)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", codec.ErrInvalidInput, err)
	}
	return d.WithKeyOnly(av, reflect.ValueOf(item).Elem()), nil
}

// WithKeyOnly returns av with the fields of struct value v stored only in
// the key added (a copy: the item written never holds them).
func (d *Decl) WithKeyOnly(av Item, v reflect.Value) Item {
	if len(d.KeyOnly) == 0 {
		return av
	}
	out := maps.Clone(av)
	for name, i := range d.KeyOnly {
		if a, err := dynamo.Marshal(v.Field(i).Interface()); err == nil && a != nil {
			out[name] = a
		}
	}
	return out
}

// Expiry returns the TTL the attributes av give (zero: none).
func (d *Decl) Expiry(av Item) time.Time {
	v, ok := keytmpl.SegmentValue(av[d.TTLFrom])
	if !ok || v == "" {
		return time.Time{}
	}
	tm, err := keytmpl.TimeOf(v, av[d.TTLFrom], time.Unix)
	if err != nil || tm.IsZero() || tm.Unix() <= 0 {
		return time.Time{}
	}
	return tm.Add(d.TTLAfter)
}

// Primary returns the primary key the attributes av give; an empty one is
// a *codec.ValidationError naming the attributes it derives from.
func (d *Decl) Primary(av Item) (Key, error) {
	pk, ok, err := d.PK.Build(av)
	if err != nil {
		return Key{}, err
	}
	if !ok {
		return Key{}, &codec.ValidationError{Field: strings.Join(d.PK.Attrs(), ", "), Reason: "empty: the primary key derives from it", Key: true}
	}
	sk, ok, err := d.SK.Build(av)
	if err != nil {
		return Key{}, err
	}
	if !ok {
		return Key{}, &codec.ValidationError{Field: strings.Join(d.SK.Attrs(), ", "), Reason: "empty: the sort key derives from it", Key: true}
	}
	return Key{PK: pk, SK: sk}, nil
}

// KeyChange is the error of a write (verb: an update, a replace) that
// would move the item old to another primary key (cur's): a
// *codec.ValidationError naming the first attribute of the key templates
// whose value differs ("key" when none does), so the caller learns which
// field it may not change.
func (d *Decl) KeyChange(entity, verb string, old, cur any) error {
	field := "key"
	a, errA := d.Encode(old)
	b, errB := d.Encode(cur)
	if errA == nil && errB == nil {
		for _, attr := range append(d.PK.Attrs(), d.SK.Attrs()...) {
			if !codec.Equal(a[attr], b[attr]) {
				field = attr
				break
			}
		}
	}
	return &codec.ValidationError{Entity: entity, Field: field, Reason: "part of the primary key: a " + verb + " cannot change it", Key: true}
}

// IndexKeys returns the index keys the attributes av give: an index whose
// When conditions av does not meet, or whose templates it cannot fill, is
// absent.
func (d *Decl) IndexKeys(av Item) (map[ddb.Index]keytmpl.IndexKey, error) {
	out := make(map[ddb.Index]keytmpl.IndexKey, len(d.Indexes))
	for ix, pair := range d.Indexes {
		if !d.Holds(ix, av) {
			continue
		}
		pk, ok1, err := pair[0].Build(av)
		if err != nil {
			return nil, err
		}
		sk, ok2, err := pair[1].Build(av)
		if err != nil {
			return nil, err
		}
		if ok1 && ok2 {
			out[ix] = keytmpl.IndexKey{PK: pk, SK: sk}
		}
	}
	return out, nil
}

// Fields returns the attributes index ix derives from.
func (d *Decl) Fields(ix ddb.Index) []string {
	pair := d.Indexes[ix]
	out := append(pair[0].Attrs(), pair[1].Attrs()...)
	for _, c := range d.When[ix] {
		out = append(out, c.Attr)
	}
	return out
}

// Holds reports whether av meets the index's When conditions.
func (d *Decl) Holds(ix ddb.Index, av Item) bool {
	for _, c := range d.When[ix] {
		if truthy(av[c.Attr]) == c.Neg {
			return false
		}
	}
	return true
}

// truthy reports whether an attribute value counts as set.
func truthy(v types.AttributeValue) bool {
	switch v := v.(type) {
	case nil, *types.AttributeValueMemberNULL:
		return false
	case *types.AttributeValueMemberBOOL:
		return v.Value
	case *types.AttributeValueMemberS:
		return v.Value != ""
	case *types.AttributeValueMemberN:
		f, err := strconv.ParseFloat(v.Value, 64)
		return err != nil || f != 0
	}
	return true
}

// MovableIndexes returns the index keys a patch setting set moves in full
// (every field of both templates set), and the fields it may therefore
// change. enc holds the set values as Create encodes them.
func (d *Decl) MovableIndexes(set map[string]any, enc Item, k Key) (map[ddb.Index]keytmpl.IndexKey, map[string]bool, error) {
	if len(set) == 0 || !d.touchesIndex(set) {
		return nil, nil, nil // no index reads what set sets: nothing moves, nothing is allowed
	}
	// The primary key's fields never change: their values come from k.
	av := d.KeyValues(k)
	fixed := map[string]bool{}
	for a := range av {
		fixed[a] = true
	}
	for a := range set {
		// as Create stores the value (enc: the one encoder's output); a
		// value it stores nothing for leaves a sparse index
		if v, ok := enc[a]; ok {
			av[a] = v
		} else {
			delete(av, a)
		}
	}
	moves := map[ddb.Index]keytmpl.IndexKey{}
	allowed := map[string]bool{}
	for ix, pair := range d.Indexes {
		all, touched := true, false
		for _, a := range d.Fields(ix) {
			_, ok := set[a]
			touched = touched || ok
			if !ok && !fixed[a] {
				all = false
			}
		}
		if !all || !touched {
			continue // not moved: a patch that sets none of its fields leaves it alone
		}
		pk, ok1, err := pair[0].Build(av)
		if err != nil {
			return nil, nil, err
		}
		sk, ok2, err := pair[1].Build(av)
		if err != nil {
			return nil, nil, err
		}
		if ok1 && ok2 && d.Holds(ix, av) {
			moves[ix] = keytmpl.IndexKey{PK: pk, SK: sk}
		} else {
			moves[ix] = keytmpl.IndexKey{} // leaves the sparse index
		}
		for _, a := range d.Fields(ix) {
			if !fixed[a] {
				allowed[a] = true
			}
		}
	}
	// A field that another, not fully set, index derives from stays
	// refused, and so does one a unique value or the TTL derives from.
	for ix := range d.Indexes {
		if _, moved := moves[ix]; moved {
			continue
		}
		for _, a := range d.Fields(ix) {
			delete(allowed, a)
		}
	}
	for _, u := range d.UniqueOn {
		delete(allowed, u.Attr)
	}
	for _, a := range d.Custom {
		delete(allowed, a)
	}
	delete(allowed, d.TTLFrom)
	return moves, allowed, nil
}

// touchesIndex reports whether set names an attribute an index key (or
// its When conditions) reads.
func (d *Decl) touchesIndex(set map[string]any) bool {
	for a := range set {
		if d.ixFields[a] {
			return true
		}
	}
	return false
}

// KeyValues returns the attribute values the primary key k holds, by its
// templates (only unmodified references: a time in a key is not read back).
func (d *Decl) KeyValues(k Key) Item {
	av := Item{}
	for _, tk := range []struct {
		t   keytmpl.Template
		key string
	}{{d.PK, k.PK}, {d.SK, k.SK}} {
		if tk.t == nil || !tk.t.Matches(tk.key) {
			continue
		}
		segs := strings.Split(tk.key, keys.Delimiter)
		i := 0
		for _, p := range tk.t {
			switch {
			case p.Attr == "":
			case p.Mod == "":
				av[p.Attr] = &types.AttributeValueMemberS{Value: segs[i]}
			case p.Tf.Reverse != nil:
				if v, ok := p.Tf.Reverse(segs[i]); ok {
					av[p.Attr] = v
				}
			}
			i += p.Segments()
		}
	}
	return av
}

// Partition returns the template of the partition key on index ix
// (ddb.Primary for the table).
func (d *Decl) Partition(ix ddb.Index) keytmpl.Template {
	if ix == ddb.Primary {
		return d.PK
	}
	return d.Indexes[ix][0]
}

// Relayout returns the index partition-key attributes of raw stored under
// another shard count of the sharded index templates (with the shard
// segment of an older count, or none), which a write moves to derived's
// (the item's derived attributes, as a write stores them on a table of
// schema sc). Nil for a nil Decl.
func (d *Decl) Relayout(sc ddb.Schema, raw, derived Item) map[string]bool {
	if d == nil {
		return nil
	}
	var out map[string]bool
	for ix, pair := range d.Indexes {
		n := pair[0].Shards()
		if n == 0 {
			continue
		}
		is, err := sc.GSI(ix)
		if err != nil {
			continue
		}
		want, _ := keytmpl.SegmentValue(derived[is.PK])
		had, stored := keytmpl.SegmentValue(raw[is.PK])
		if want == "" || !stored || had == want {
			continue
		}
		base := want
		if n > 1 {
			base = want[:strings.LastIndex(want, keys.Delimiter)]
		}
		rest, ok := strings.CutPrefix(had, base)
		if !ok {
			continue
		}
		if d, ok := strings.CutPrefix(rest, keys.Delimiter); rest == "" || (ok && d != "" && strings.Trim(d, "0123456789") == "") {
			if out == nil {
				out = map[string]bool{}
			}
			out[is.PK] = true
		}
	}
	return out
}
