package table

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
	"github.com/singletable/singletable/internal/keytmpl"
	"github.com/singletable/singletable/keys"
)

// cond is one When condition.
type cond struct {
	attr string
	neg  bool
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

// declared is an entity's declarations, parsed.
type declared struct {
	pk, sk   keytmpl.Template
	indexes  map[Index][2]keytmpl.Template
	when     map[Index][]cond
	uniqueOn []uniqueDecl
	fold     map[string]func(string) string
	ttl      TTL
	custom   []string           // the attributes Def.CustomUniques reads
	keyOnly  map[string]int     // fields stored only in the key, by `key` tag: their field index
	wild     []codec.WildSecret // the Secrets paths "m.*": a catch-all whose members are sealed
	// ixFields holds every attribute an index key or its When conditions
	// read (d.fields of every index), filled by declare.
	ixFields map[string]bool
}

// uniqueDecl is one UniqueOn entry: the guard's name and the attribute.
type uniqueDecl struct{ name, attr string }

// uniques returns the unique values of the attributes av.
func (d *declared) uniques(av Item) []Unique {
	var us []Unique
	for _, u := range d.uniqueOn {
		if v, ok := keytmpl.SegmentValue(av[u.attr]); ok && v != "" {
			if f := d.fold[u.name]; f != nil {
				v = f(v)
			}
			us = append(us, Unique{Name: u.name, Value: v})
		}
	}
	return us
}

// derived is what an entity's declarations give the engine, as functions
// of an item: its keys, index keys, unique values, expiry, the fields any
// of them reads, and the matcher of its keys.
type derived[T any] struct {
	key     func(*T) (Key, error)
	indexes func(*T) (map[Index]IndexKey, error) // nil: no index
	unique  func(*T) []Unique                    // nil: no unique value
	// uniqueRaw reads the declared unique values of a stored item (nil
	// when one is computed by CustomUniques or lives only in the key):
	// what the stored bytes hold, without decoding and encoding the item.
	uniqueRaw func(Item) []Unique
	expires   func(*T) time.Time // nil: no TTL
	indexed   []string           // every attribute an index key, guard or the TTL derives from
	match     func(Key) bool
}

// declare parses def's declarations, checks every reference against T's
// attributes, and derives what the engine needs from them. It panics on a
// malformed declaration (a programming error, like a missing Def.Type).
func declare[T any](t *Table, def *Def[T]) (*declared, derived[T]) {
	rt := reflect.TypeFor[T]()
	names := codec.FieldsOf(rt)
	d := &declared{indexes: map[Index][2]keytmpl.Template{}, when: map[Index][]cond{}, keyOnly: keyOnlyFields(rt), ttl: def.TTL}
	known := func(a string) bool {
		_, ok := names[a]
		_, key := d.keyOnly[a]
		return ok || key
	}
	fail := func(format string, args ...any) {
		panic(fmt.Sprintf("table.NewEntity(%s): ", def.Type) + fmt.Sprintf(format, args...))
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
	if def.Keys.PK == "" || def.Keys.SK == "" {
		fail("Def.Keys needs PK and SK templates")
	}
	d.pk, d.sk = must(def.Keys.PK), must(def.Keys.SK)
	var fn derived[T]
	fn.key = func(item *T) (Key, error) {
		av, err := d.encode(item)
		if err != nil {
			return Key{}, err
		}
		return d.primary(av)
	}
	fn.match = func(k Key) bool { return d.pk.Matches(k.PK) && d.sk.Matches(k.SK) }
	// The key's own fields never change in place: a patch may not set them.
	indexed := append(d.pk.Attrs(), d.sk.Attrs()...)
	for ix, ks := range def.IndexKeys {
		if _, err := t.schema.GSI(ix); err != nil {
			fail("%v", err)
		}
		pair := [2]keytmpl.Template{must(ks.PK), must(ks.SK)}
		d.indexes[ix] = pair
		for _, w := range ks.When {
			c := cond{attr: strings.TrimPrefix(w, "!"), neg: strings.HasPrefix(w, "!")}
			if !known(c.attr) {
				fail("When %q is not an attribute of the type", w)
			}
			d.when[ix] = append(d.when[ix], c)
		}
		indexed = append(indexed, d.fields(ix)...)
		if d.ixFields == nil {
			d.ixFields = map[string]bool{}
		}
		for _, a := range d.fields(ix) {
			d.ixFields[a] = true
		}
	}
	for _, ix := range def.ValidWhileIndexed {
		if _, ok := d.indexes[ix]; !ok {
			fail("ValidWhileIndexed names %v, which IndexKeys does not declare", ix)
		}
	}
	if len(d.indexes) > 0 {
		fn.indexes = func(item *T) (map[Index]IndexKey, error) {
			av, err := d.encode(item)
			if err != nil {
				return nil, err
			}
			return d.indexKeys(av)
		}
	}
	for _, entry := range def.UniqueOn {
		name, attr, renamed := strings.Cut(entry, "=")
		if !renamed {
			attr = name
		}
		if name == "" || !known(attr) {
			fail("UniqueOn %q: %q is not an attribute of the type", entry, attr)
		}
		d.uniqueOn = append(d.uniqueOn, uniqueDecl{name: name, attr: attr})
		indexed = append(indexed, attr)
	}
	for name := range def.UniqueFold {
		if !slices.ContainsFunc(d.uniqueOn, func(u uniqueDecl) bool { return u.name == name }) {
			fail("UniqueFold %q is not in UniqueOn", name)
		}
	}
	d.fold = def.UniqueFold
	if def.CustomUniques != nil {
		if def.CustomUniques.Uniques == nil || len(def.CustomUniques.From) == 0 {
			fail("Def.CustomUniques needs Uniques and the attributes it reads (From)")
		}
		for _, a := range def.CustomUniques.From {
			if !known(a) {
				fail("CustomUniques.From %q is not an attribute of the type", a)
			}
		}
		d.custom = slices.Clone(def.CustomUniques.From)
		indexed = append(indexed, d.custom...)
	}
	switch custom := def.CustomUniques; {
	case len(d.uniqueOn) > 0 && custom != nil:
		fn.unique = func(item *T) []Unique {
			av, err := d.encode(item)
			if err != nil {
				return nil
			}
			return append(d.uniques(av), custom.Uniques(item)...)
		}
	case len(d.uniqueOn) > 0:
		fn.unique = func(item *T) []Unique {
			av, err := d.encode(item)
			if err != nil {
				return nil
			}
			return d.uniques(av)
		}
		if !slices.ContainsFunc(d.uniqueOn, func(u uniqueDecl) bool { _, ko := d.keyOnly[u.attr]; return ko }) {
			fn.uniqueRaw = d.uniques
		}
	case custom != nil:
		fn.unique = custom.Uniques
	}
	if def.TTL.From != "" {
		if !known(def.TTL.From) {
			fail("TTL.From %q is not an attribute of the type", def.TTL.From)
		}
		indexed = append(indexed, def.TTL.From)
		fn.expires = func(item *T) time.Time {
			av, err := d.encode(item)
			if err != nil {
				return time.Time{}
			}
			return d.expiry(av)
		}
	} else if def.TTL.After != 0 {
		fail("TTL.After without TTL.From")
	}
	for _, path := range def.Secrets {
		if prefix, ok := strings.CutSuffix(path, ".*"); ok {
			known, ok := codec.WildField(rt, prefix)
			if !ok {
				fail("Secrets %q: %q is not a struct attribute with a table.Extra field (the members it keeps are the ones sealed)", path, prefix)
			}
			d.wild = append(d.wild, codec.WildSecret{Prefix: prefix, Known: known})
			continue
		}
		if !secretField(rt, path) {
			fail("Secrets %q is not a string attribute of the type", path)
		}
	}
	slices.Sort(indexed)
	fn.indexed = slices.Compact(indexed)
	return d, fn
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

// encode returns item's attributes with its key-only fields, for keys.
func (d *declared) encode(item any) (Item, error) {
	av, err := dynamo.MarshalItem(item)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidInput, err)
	}
	return d.withKeyOnly(av, reflect.ValueOf(item).Elem()), nil
}

// withKeyOnly returns av with the fields stored only in the key added (a
// copy: the item written never holds them).
func (d *declared) withKeyOnly(av Item, v reflect.Value) Item {
	if len(d.keyOnly) == 0 {
		return av
	}
	out := maps.Clone(av)
	for name, i := range d.keyOnly {
		if a, err := dynamo.Marshal(v.Field(i).Interface()); err == nil && a != nil {
			out[name] = a
		}
	}
	return out
}

// keyOnlyFields returns the fields of struct t stored only in the key
// (`dynamo:"-" key:"name"`) by name.
func keyOnlyFields(t reflect.Type) map[string]int {
	out := map[string]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		if name := f.Tag.Get("key"); name != "" && f.Tag.Get("dynamo") == "-" && f.IsExported() {
			out[name] = i
		}
	}
	return out
}

// expiry returns the TTL the attributes av give (zero: none).
func (d *declared) expiry(av Item) time.Time {
	v, ok := keytmpl.SegmentValue(av[d.ttl.From])
	if !ok || v == "" {
		return time.Time{}
	}
	tm, err := keytmpl.TimeOf(v, av[d.ttl.From], time.Unix)
	if err != nil || tm.IsZero() || tm.Unix() <= 0 {
		return time.Time{}
	}
	return tm.Add(d.ttl.After)
}

func (d *declared) primary(av Item) (Key, error) {
	pk, ok, err := d.pk.Build(av)
	if err != nil {
		return Key{}, err
	}
	if !ok {
		return Key{}, &ValidationError{Field: strings.Join(d.pk.Attrs(), ", "), Reason: "empty: the primary key derives from it", Key: true}
	}
	sk, ok, err := d.sk.Build(av)
	if err != nil {
		return Key{}, err
	}
	if !ok {
		return Key{}, &ValidationError{Field: strings.Join(d.sk.Attrs(), ", "), Reason: "empty: the sort key derives from it", Key: true}
	}
	return Key{PK: pk, SK: sk}, nil
}

func (d *declared) indexKeys(av Item) (map[Index]IndexKey, error) {
	out := make(map[Index]IndexKey, len(d.indexes))
	for ix, pair := range d.indexes {
		if !d.holds(ix, av) {
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
			out[ix] = IndexKey{PK: pk, SK: sk}
		}
	}
	return out, nil
}

// fields returns the attributes index ix derives from.
func (d *declared) fields(ix Index) []string {
	pair := d.indexes[ix]
	out := append(pair[0].Attrs(), pair[1].Attrs()...)
	for _, c := range d.when[ix] {
		out = append(out, c.attr)
	}
	return out
}

// holds reports whether av meets the index's When conditions.
func (d *declared) holds(ix Index, av Item) bool {
	for _, c := range d.when[ix] {
		if truthy(av[c.attr]) == c.neg {
			return false
		}
	}
	return true
}

// movableIndexes returns the index keys a patch setting set moves in full
// (every field of both templates set), and the fields it may therefore
// change. enc holds the set values as Create encodes them.
func (d *declared) movableIndexes(set map[string]any, enc Item, k Key) (map[Index]IndexKey, map[string]bool, error) {
	if len(set) == 0 || !d.touchesIndex(set) {
		return nil, nil, nil // no index reads what set sets: nothing moves, nothing is allowed
	}
	// The primary key's fields never change: their values come from k.
	av := d.keyValues(k)
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
	moves := map[Index]IndexKey{}
	allowed := map[string]bool{}
	for ix, pair := range d.indexes {
		all, touched := true, false
		for _, a := range d.fields(ix) {
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
		if ok1 && ok2 && d.holds(ix, av) {
			moves[ix] = IndexKey{PK: pk, SK: sk}
		} else {
			moves[ix] = IndexKey{} // leaves the sparse index
		}
		for _, a := range d.fields(ix) {
			if !fixed[a] {
				allowed[a] = true
			}
		}
	}
	// A field that another, not fully set, index derives from stays
	// refused, and so does one a unique value or the TTL derives from.
	for ix := range d.indexes {
		if _, moved := moves[ix]; moved {
			continue
		}
		for _, a := range d.fields(ix) {
			delete(allowed, a)
		}
	}
	for _, u := range d.uniqueOn {
		delete(allowed, u.attr)
	}
	for _, a := range d.custom {
		delete(allowed, a)
	}
	delete(allowed, d.ttl.From)
	return moves, allowed, nil
}

// touchesIndex reports whether set names an attribute an index key (or
// its When conditions) reads.
func (d *declared) touchesIndex(set map[string]any) bool {
	for a := range set {
		if d.ixFields[a] {
			return true
		}
	}
	return false
}

// keyValues returns the attribute values the primary key k holds, by its
// templates (only unmodified references: a time in a key is not read back).
func (d *declared) keyValues(k Key) Item {
	av := Item{}
	for _, tk := range []struct {
		t   keytmpl.Template
		key string
	}{{d.pk, k.PK}, {d.sk, k.SK}} {
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
