package table

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/singletable/singletable/keys"
)

// Template declares a key as data: templates of literal segments and
// attribute references joined by the key delimiter '#', such as
// "USER#{userId}" and "POST#{at:ts}#{id}". An attribute reference names
// an attribute of the entity (its `dynamo` name), checked by [NewEntity];
// its value is the attribute's string or number, or, with a modifier:
//
//   - ":ts": a time (RFC 3339 string, or epoch seconds of a `unixtime`
//     attribute) as [keys.Timestamp] (UTC, fixed-width nanoseconds, so
//     byte order is time order);
//   - ":ms": a time (RFC 3339 string, or a number of Unix milliseconds) as
//     [keys.UnixMilli], 13 digits;
//   - ":esc": a string passed through [keys.Escape], for values that may
//     hold the delimiter (tags, free text); [Entity.Patch] reads it back
//     with [keys.Unescape];
//   - ":N" (digits, such as ":10"): a non-negative integer, zero-padded to
//     N digits so byte order is number order ("MSG#{seqId:10}");
//   - ":shardN" (such as ":shard8"): the shard of the value among N,
//     [Shard](value, N), for the last segment of a partition-key template
//     ("USERS#{userId:shard8}" gives USERS#0 .. USERS#7): a partition
//     every item joins is split in N (see [Query.Shards] for reading it
//     whole). ":shard1" leaves the segment out: the key is the unsharded
//     one byte for byte, so a profile picks N without another template.
//
// Values are key segments: one holding '#' or control characters (after
// the modifier) is refused with a *[ValidationError], so no value can
// reach into another key.
//
// From declared keys the engine derives, never by hand: the primary key
// and index keys of every write, which fields [Entity.Patch] may change
// (an index key whose fields a patch sets in full moves in the same
// UpdateItem; one it sets in part is refused), the item matcher for items
// written without a type attribute, and the model tools export
// ([Entity.Model]).
type Template struct {
	PK, SK string
	// When makes an index key conditional (index templates only): the
	// item is in the index only while every condition holds. A condition
	// names an attribute that must be set ("isActive": present, not
	// false, not zero, not empty) or, after '!', must not be
	// ("!deletedAt": absent or empty). Soft-deleted, inactive or read
	// items so leave a sparse index in the same write that changes them.
	When []string
}

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

type tmplPart struct {
	lit  string // a literal segment, or
	attr string // an attribute reference
	mod  string // "", "ts" or "ms"
}

type template []tmplPart

func parseTemplate(s string) (template, error) {
	if s == "" {
		return nil, fmt.Errorf("empty template")
	}
	var t template
	for _, seg := range strings.Split(s, keys.Delimiter) {
		switch {
		case strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}"):
			name, mod, _ := strings.Cut(seg[1:len(seg)-1], ":")
			if name == "" || (mod != "" && mod != "ts" && mod != "ms" && mod != "esc" && width(mod) == 0 && shardCount(mod) == 0) {
				return nil, fmt.Errorf("%q: bad reference %q", s, seg)
			}
			t = append(t, tmplPart{attr: name, mod: mod})
			if shardCount(mod) > 0 && len(t) == 1 {
				return nil, fmt.Errorf("%q: a shard segment follows the partition it splits", s)
			}
		case seg == "" || strings.ContainsAny(seg, "{}"):
			return nil, fmt.Errorf("%q: bad literal segment %q", s, seg)
		default:
			t = append(t, tmplPart{lit: seg})
		}
	}
	for _, p := range t[:len(t)-1] {
		if shardCount(p.mod) > 0 {
			return nil, fmt.Errorf("%q: a shard segment must be the last", s)
		}
	}
	return t, nil
}

func (t template) attrs() []string {
	var out []string
	for _, p := range t {
		if p.attr != "" {
			out = append(out, p.attr)
		}
	}
	return out
}

// build returns the key for the attribute values av; ok is false when a
// referenced attribute is absent or empty (a sparse index skips the item).
func (t template) build(av Item) (key string, ok bool, err error) {
	parts := make([]string, len(t))
	for i, p := range t {
		if p.attr == "" {
			parts[i] = p.lit
			continue
		}
		v, present := segmentValue(av[p.attr])
		if !present || v == "" {
			return "", false, nil
		}
		if n := shardCount(p.mod); n > 0 {
			if n == 1 {
				parts = parts[:i] // the last segment: left out
				break
			}
			parts[i] = strconv.Itoa(Shard(v, n))
			continue
		}
		switch p.mod {
		case "":
		case "esc":
			v = keys.Escape(v)
		case "ms":
			if _, isNum := av[p.attr].(*types.AttributeValueMemberN); isNum {
				n, err := strconv.ParseInt(v, 10, 64)
				if err == nil {
					v, err = keys.UnixMilli(time.UnixMilli(n))
				}
				if err != nil {
					return "", false, &ValidationError{Field: p.attr, Reason: fmt.Sprintf("%s is not a time in Unix milliseconds", v), Key: true}
				}
				break
			}
			fallthrough
		default: // a width
			n, err := strconv.ParseUint(v, 10, 64)
			if err == nil {
				v, err = keys.Uint(n, width(p.mod))
			}
			if err != nil {
				return "", false, &ValidationError{Field: p.attr, Reason: fmt.Sprintf("%s is not a non-negative integer of at most %d digits", v, width(p.mod)), Key: true}
			}
		case "ts":
			var tm time.Time
			var err error
			if _, isNum := av[p.attr].(*types.AttributeValueMemberN); isNum {
				var n int64
				if n, err = strconv.ParseInt(v, 10, 64); err == nil {
					tm = time.Unix(n, 0) // a `unixtime` attribute: epoch seconds
				}
			} else {
				tm, err = time.Parse(time.RFC3339Nano, v)
			}
			if err != nil {
				return "", false, &ValidationError{Field: p.attr, Reason: fmt.Sprintf("%q is not a time", v), Key: true}
			}
			if p.mod == "ts" {
				v, err = keys.Timestamp(tm)
			} else {
				v, err = keys.UnixMilli(tm)
			}
			if err != nil {
				return "", false, &ValidationError{Field: p.attr, Reason: err.Error(), Key: true}
			}
		}
		if strings.Contains(v, keys.Delimiter) || strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return "", false, &ValidationError{Field: p.attr, Reason: fmt.Sprintf("%q holds the key delimiter or a control character", v), Key: true}
		}
		parts[i] = v
	}
	return strings.Join(parts, keys.Delimiter), true, nil
}

// matches reports whether key has the template's shape: as many segments,
// the same literals.
func (t template) matches(key string) bool {
	if t.shards() == 1 {
		t = t[:len(t)-1]
	}
	segs := strings.Split(key, keys.Delimiter)
	if len(segs) != len(t) {
		return false
	}
	for i, p := range t {
		if p.attr == "" && segs[i] != p.lit {
			return false
		}
	}
	return true
}

func segmentValue(v types.AttributeValue) (string, bool) {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, true
	case *types.AttributeValueMemberN:
		return v.Value, true
	}
	return "", false
}

// width returns the digits of a ":N" modifier, 0 if mod is not one.
func width(mod string) int {
	n, err := strconv.Atoi(mod)
	if err != nil || n < 1 || n > 20 || strconv.Itoa(n) != mod {
		return 0
	}
	return n
}

// declared is an entity's declared keys, parsed.
type declared struct {
	pk, sk   template
	indexes  map[Index][2]template
	when     map[Index][]cond
	hand     []string                                   // the fields Def.IndexedFields lists by hand
	extra    func(item any) (map[Index]IndexKey, error) // the Indexes closure beside the templates, on a *T
	uniqueOn []string
	fold     map[string]func(string) string
}

// uniques returns the unique values of the attributes av.
func (d *declared) uniques(av Item) []Unique {
	var us []Unique
	for _, a := range d.uniqueOn {
		if v, ok := segmentValue(av[a]); ok && v != "" {
			if f := d.fold[a]; f != nil {
				v = f(v)
			}
			us = append(us, Unique{Name: a, Value: v})
		}
	}
	return us
}

// declare parses def's declared keys, checks every reference against T's
// attributes, and fills in what derives from them. It panics on a
// malformed declaration (a programming error, like a missing Def.Type).
func declare[T any](t *Table, def *Def[T]) *declared {
	if def.Keys.PK == "" && len(def.IndexKeys) == 0 && len(def.UniqueOn) == 0 {
		return nil
	}
	names := fieldsOf(reflect.TypeFor[T]())
	must := func(s string) template {
		tp, err := parseTemplate(s)
		if err != nil {
			panic(fmt.Sprintf("table.NewEntity(%s): %v", def.Type, err))
		}
		for _, a := range tp.attrs() {
			if _, ok := names[a]; !ok {
				panic(fmt.Sprintf("table.NewEntity(%s): template %q references %q, not an attribute of the type", def.Type, s, a))
			}
		}
		return tp
	}
	d := &declared{indexes: map[Index][2]template{}, when: map[Index][]cond{}}
	def.IndexedFields = slices.Clone(def.IndexedFields) // the caller's Def is shared
	d.hand = slices.Clone(def.IndexedFields)
	var derivedFields []string
	if def.Keys.PK != "" {
		if def.Key != nil {
			panic(fmt.Sprintf("table.NewEntity(%s): both Key and Keys", def.Type))
		}
		if def.Keys.SK == "" {
			panic(fmt.Sprintf("table.NewEntity(%s): Keys.SK is empty", def.Type))
		}
		d.pk, d.sk = must(def.Keys.PK), must(def.Keys.SK)
		// The key's own fields never change in place: a patch may not set them.
		derivedFields = append(derivedFields, d.pk.attrs()...)
		derivedFields = append(derivedFields, d.sk.attrs()...)
		def.Key = func(item *T) (Key, error) {
			av, err := dynamo.MarshalItem(item)
			if err != nil {
				return Key{}, fmt.Errorf("%w: %v", ErrInvalidInput, err)
			}
			return d.primary(av)
		}
		if def.Match == nil {
			def.Match = func(k Key) bool { return d.pk.matches(k.PK) && d.sk.matches(k.SK) }
		}
	}
	if len(def.IndexKeys) > 0 {
		for ix, ks := range def.IndexKeys {
			if _, err := t.schema.index(ix); err != nil {
				panic(fmt.Sprintf("table.NewEntity(%s): %v", def.Type, err))
			}
			pair := [2]template{must(ks.PK), must(ks.SK)}
			d.indexes[ix] = pair
			derivedFields = append(derivedFields, pair[0].attrs()...)
			derivedFields = append(derivedFields, pair[1].attrs()...)
			for _, w := range ks.When {
				c := cond{attr: strings.TrimPrefix(w, "!"), neg: strings.HasPrefix(w, "!")}
				if _, ok := names[c.attr]; !ok {
					panic(fmt.Sprintf("table.NewEntity(%s): When %q is not an attribute of the type", def.Type, w))
				}
				d.when[ix] = append(d.when[ix], c)
				derivedFields = append(derivedFields, c.attr)
			}
		}
		// An Indexes closure may keep the indexes no template can state;
		// IndexedFields then lists the fields it reads.
		if closure := def.Indexes; closure != nil {
			d.extra = func(item any) (map[Index]IndexKey, error) { return closure(item.(*T)) }
		}
		def.Indexes = func(item *T) (map[Index]IndexKey, error) {
			av, err := dynamo.MarshalItem(item)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", ErrInvalidInput, err)
			}
			return d.indexKeys(av, item)
		}
	}
	if len(def.UniqueOn) > 0 {
		if def.Unique != nil {
			panic(fmt.Sprintf("table.NewEntity(%s): both Unique and UniqueOn", def.Type))
		}
		for _, a := range def.UniqueOn {
			if _, ok := names[a]; !ok {
				panic(fmt.Sprintf("table.NewEntity(%s): UniqueOn %q is not an attribute of the type", def.Type, a))
			}
		}
		for a := range def.UniqueFold {
			if !slices.Contains(def.UniqueOn, a) {
				panic(fmt.Sprintf("table.NewEntity(%s): UniqueFold %q is not in UniqueOn", def.Type, a))
			}
		}
		d.uniqueOn, d.fold = slices.Clone(def.UniqueOn), def.UniqueFold
		def.Unique = func(item *T) []Unique {
			av, err := dynamo.MarshalItem(item)
			if err != nil {
				return nil
			}
			return d.uniques(av)
		}
		derivedFields = append(derivedFields, d.uniqueOn...)
	}
	for _, f := range derivedFields {
		if !slices.Contains(def.IndexedFields, f) {
			def.IndexedFields = append(def.IndexedFields, f)
		}
	}
	sort.Strings(def.IndexedFields)
	return d
}

func (d *declared) primary(av Item) (Key, error) {
	pk, ok, err := d.pk.build(av)
	if err != nil {
		return Key{}, err
	}
	if !ok {
		return Key{}, &ValidationError{Field: strings.Join(d.pk.attrs(), ", "), Reason: "empty: the primary key derives from it", Key: true}
	}
	sk, ok, err := d.sk.build(av)
	if err != nil {
		return Key{}, err
	}
	if !ok {
		return Key{}, &ValidationError{Field: strings.Join(d.sk.attrs(), ", "), Reason: "empty: the sort key derives from it", Key: true}
	}
	return Key{PK: pk, SK: sk}, nil
}

func (d *declared) indexKeys(av Item, item any) (map[Index]IndexKey, error) {
	out := make(map[Index]IndexKey, len(d.indexes))
	if d.extra != nil {
		ex, err := d.extra(item)
		if err != nil {
			return nil, err
		}
		for ix, ik := range ex {
			if _, dup := d.indexes[ix]; dup {
				return nil, fmt.Errorf("%w: index %d is both a template and the Indexes closure's", ErrInvalidInput, ix)
			}
			out[ix] = ik
		}
	}
	for ix, pair := range d.indexes {
		if !d.holds(ix, av) {
			continue
		}
		pk, ok1, err := pair[0].build(av)
		if err != nil {
			return nil, err
		}
		sk, ok2, err := pair[1].build(av)
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
	out := append(pair[0].attrs(), pair[1].attrs()...)
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
	if d == nil || len(set) == 0 {
		return nil, nil, nil
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
		pk, ok1, err := pair[0].build(av)
		if err != nil {
			return nil, nil, err
		}
		sk, ok2, err := pair[1].build(av)
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
	// refused, and so does one a closure reads (listed by hand).
	for ix := range d.indexes {
		if _, moved := moves[ix]; moved {
			continue
		}
		for _, a := range d.fields(ix) {
			delete(allowed, a)
		}
	}
	for _, a := range d.hand {
		delete(allowed, a)
	}
	return moves, allowed, nil
}

// keyValues returns the attribute values the primary key k holds, by its
// templates (only unmodified references: a time in a key is not read back).
func (d *declared) keyValues(k Key) Item {
	av := Item{}
	for _, tk := range []struct {
		t   template
		key string
	}{{d.pk, k.PK}, {d.sk, k.SK}} {
		if tk.t == nil || !tk.t.matches(tk.key) {
			continue
		}
		segs := strings.Split(tk.key, keys.Delimiter)
		for i, p := range tk.t {
			if i >= len(segs) {
				break // a left-out shard segment
			}
			switch {
			case p.attr == "":
			case p.mod == "":
				av[p.attr] = &types.AttributeValueMemberS{Value: segs[i]}
			case p.mod == "esc":
				if v, err := keys.Unescape(segs[i]); err == nil {
					av[p.attr] = &types.AttributeValueMemberS{Value: v}
				}
			case width(p.mod) > 0:
				if n, err := strconv.ParseUint(segs[i], 10, 64); err == nil {
					av[p.attr] = &types.AttributeValueMemberN{Value: strconv.FormatUint(n, 10)}
				}
			}
		}
	}
	return av
}

// EntityModel is an entity's design as data, for tools (documentation,
// NoSQL Workbench, reviews): its type, key templates, index templates and
// unique attributes. Templates are empty for keys declared as closures.
type EntityModel struct {
	Type    string
	Keys    Template
	Indexes map[string]Template // by index name
	Unique  []string
	// Closures names the parts the entity states in Go code rather than
	// as templates ("key", "indexes", "unique"): what a tool cannot show.
	Closures []string
	// Fields are the attribute names of the Go type, sorted.
	Fields []string
}

// Model returns the entity's design as data.
func (e *Entity[T]) Model() EntityModel {
	m := EntityModel{Type: e.def.Type, Keys: e.def.Keys, Unique: slices.Clone(e.def.UniqueOn)}
	if len(e.def.IndexKeys) > 0 {
		m.Indexes = map[string]Template{}
		for ix, ks := range e.def.IndexKeys {
			is, _ := e.t.schema.index(ix)
			m.Indexes[is.Name] = ks
		}
	}
	if e.def.Keys.PK == "" {
		m.Closures = append(m.Closures, "key")
	}
	if (len(e.def.IndexKeys) == 0 && e.def.Indexes != nil) || (e.decl != nil && e.decl.extra != nil) {
		m.Closures = append(m.Closures, "indexes")
	}
	if len(e.def.UniqueOn) == 0 && e.def.Unique != nil {
		m.Closures = append(m.Closures, "unique")
	}
	for f := range fieldsOf(reflect.TypeFor[T]()) {
		m.Fields = append(m.Fields, f)
	}
	sort.Strings(m.Fields)
	return m
}
