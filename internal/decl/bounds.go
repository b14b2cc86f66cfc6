package decl

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
	"github.com/singletable/singletable/keys"
)

// Key conditions from typed fields: what table.Entity's Partition, Prefix,
// Range, SortPrefix and FromKey, and a declared pattern's reads, build.
// Each takes the fields as an addressable struct value v; a field at its
// zero value is unset.

// Top sorts after every character of a key: the end of a prefix range.
const Top = "\U0010FFFF"

// Templates returns index ix's key templates (ddb.Primary: the table's).
func (d *Decl) Templates(entity string, ix ddb.Index) (pk, sk keytmpl.Template, err error) {
	if ix == ddb.Primary {
		return d.PK, d.SK, nil
	}
	pair, ok := d.Indexes[ix]
	if !ok {
		return nil, nil, &codec.ValidationError{Entity: entity, Field: fmt.Sprintf("GSI%d", ix), Reason: "no template for this index in the entity's Def.IndexKeys"}
	}
	return pair[0], pair[1], nil
}

// Narrow returns the partition key of index ix that v's fields build and
// its sort condition: the literal prefix the sort template starts with
// (the whole key when it has no field) or, bySort, the prefix the leading
// sort-key fields set build ([SortBound]).
func (d *Decl) Narrow(entity string, ix ddb.Index, v reflect.Value, bySort bool) (string, ddb.SKCond, error) {
	pk, sk, err := d.Templates(entity, ix)
	if err != nil {
		return "", ddb.SKCond{}, err
	}
	av, err := d.Encode(v.Addr().Interface())
	if err != nil {
		return "", ddb.SKCond{}, err
	}
	pv, ok, err := pk.WithoutShard().Build(av)
	if err == nil && !ok {
		err = &codec.ValidationError{Entity: entity, Field: keytmpl.JoinAttrs(pk.Attrs()), Reason: "empty: the partition key derives from it", Key: true}
	}
	if err != nil {
		return "", ddb.SKCond{}, err
	}
	var p string
	var whole bool
	if bySort {
		p, whole, _, err = SortBound(sk, av, v)
	} else {
		p, whole, err = sk.Prefix(nil)
	}
	return pv, prefixCond(p, whole), err
}

// prefixCond is the sort condition of prefix p: equal when whole, begins
// with otherwise, none when empty.
func prefixCond(p string, whole bool) ddb.SKCond {
	switch {
	case whole:
		return ddb.SKEquals(p)
	case p != "":
		return ddb.SKBeginsWith(p)
	}
	return ddb.SKCond{}
}

// SortBound returns the prefix of sort-key template sk that the leading
// sort-key fields set in av build (a field of v at its zero value is
// unset, and removed from av), whether it is a whole key, and whether any
// sort-key field is set.
func SortBound(sk keytmpl.Template, av Item, v reflect.Value) (p string, whole, set bool, err error) {
	info := codec.FieldsOf(v.Type())
	for _, a := range sk.Attrs() {
		if fi, ok := info[a]; ok {
			if f, ferr := v.FieldByIndexErr(fi.Index); ferr == nil && f.IsZero() {
				delete(av, a)
			}
		}
	}
	lit, _, _ := sk.Prefix(nil)
	p, whole, err = sk.Prefix(av)
	return p, whole, p != lit, err
}

// SortPrefix returns the prefix of sort template sk v's leading sort-key
// fields build, whether it is a whole key, and the attributes v encodes to.
func (d *Decl) SortPrefix(sk keytmpl.Template, v reflect.Value) (p string, whole bool, av Item, err error) {
	if av, err = d.Encode(v.Addr().Interface()); err != nil {
		return "", false, nil, err
	}
	p, whole, _, err = SortBound(sk, av, v)
	return p, whole, av, err
}

// PrefixCond returns the sort condition of the prefix v's leading sort-key
// fields build on sk (a declared pattern's SortPrefix); with
// wholeWhenUnset, none (the whole partition) when v sets none of sk's
// fields (WholeWhenUnset); with wholeBegins, begins_with a whole key
// rather than equal to it (WholeKeyBegins).
func (d *Decl) PrefixCond(sk keytmpl.Template, v reflect.Value, wholeWhenUnset, wholeBegins bool) (ddb.SKCond, error) {
	p, whole, av, err := d.SortPrefix(sk, v)
	if err == nil && wholeWhenUnset && !slices.ContainsFunc(sk.Attrs(), func(a string) bool { _, ok := av[a]; return ok }) {
		return ddb.SKCond{}, nil
	}
	return prefixCond(p, whole && !wholeBegins), err
}

// Range returns the sort condition of index ix from the keys from's
// leading sort-key fields begin up to, not including, the keys to's begin
// (table.Entity.Range): a bound that sets no sort-key field is open; to's
// bound ends after the keys its prefix begins ('$' after the delimiter);
// a to setting every field is a whole key, included.
func (d *Decl) Range(entity string, ix ddb.Index, from, to reflect.Value) (ddb.SKCond, error) {
	_, sk, err := d.Templates(entity, ix)
	if err != nil {
		return ddb.SKCond{}, err
	}
	var b [2]string
	for i, v := range []reflect.Value{from, to} {
		av, err := d.Encode(v.Addr().Interface())
		if err != nil {
			return ddb.SKCond{}, err
		}
		p, whole, set, err := SortBound(sk, av, v)
		if err != nil {
			return ddb.SKCond{}, err
		}
		switch {
		case whole:
		case set:
			p = strings.TrimSuffix(p, keys.Delimiter) // below every key it begins
		case i == 1 && strings.HasSuffix(p, keys.Delimiter):
			p = strings.TrimSuffix(p, keys.Delimiter) + string(rune(keys.Delimiter[0]+1)) // after every key it begins
		case i == 1 && p != "":
			p += Top
		}
		b[i] = p
	}
	if b[1] != "" && b[1] < b[0] {
		return ddb.SKCond{}, &codec.ValidationError{Entity: entity, Field: keytmpl.JoinAttrs(sk.Attrs()), Reason: fmt.Sprintf("reversed range: to %s is before from %s", b[1], b[0]), Key: true}
	}
	return between(b[0], b[1]), nil
}

// between is the condition of sort keys from lo to hi, either open when
// empty.
func between(lo, hi string) ddb.SKCond {
	switch {
	case lo == "" && hi == "":
		return ddb.SKCond{}
	case hi == "":
		return ddb.SKCompare(">=", lo)
	case lo == "":
		return ddb.SKCompare("<=", hi)
	}
	return ddb.SKBetween(lo, hi)
}

// KeyRange returns the condition of the sort keys between the whole keys
// from and to build on sk, both included (a declared pattern's Between).
func (d *Decl) KeyRange(sk keytmpl.Template, from, to reflect.Value) (ddb.SKCond, error) {
	var b [2]string
	for i, v := range []reflect.Value{from, to} {
		av, err := d.Encode(v.Addr().Interface())
		if err != nil {
			return ddb.SKCond{}, err
		}
		k, ok, err := sk.Build(av)
		if err == nil && !ok {
			err = &codec.ValidationError{Field: keytmpl.JoinAttrs(sk.Attrs()), Reason: "empty: the range's sort key derives from it", Key: true}
		}
		if err != nil {
			return ddb.SKCond{}, err
		}
		b[i] = k
	}
	if b[0] > b[1] {
		return ddb.SKCond{}, &codec.ValidationError{Field: keytmpl.JoinAttrs(sk.Attrs()), Reason: fmt.Sprintf("reversed range: to %s is before from %s", b[1], b[0]), Key: true}
	}
	return ddb.SKBetween(b[0], b[1]), nil
}

// PrefixRange returns the condition of the sort keys between the prefixes
// from and to build on sk through field on (a declared pattern's
// RangeOn): a bound leaving on unset is open; a set bound reaches every
// key its prefix begins (up to Top).
func (d *Decl) PrefixRange(sk keytmpl.Template, on string, from, to reflect.Value) (ddb.SKCond, error) {
	var pre [2]string
	var whole, set [2]bool
	for i, v := range []reflect.Value{from, to} {
		var av Item
		var err error
		if pre[i], whole[i], av, err = d.SortPrefix(sk, v); err != nil {
			return ddb.SKCond{}, err
		}
		_, set[i] = av[on]
	}
	lo, hi := pre[0], ""
	if set[0] && !whole[0] {
		lo = strings.TrimSuffix(pre[0], keys.Delimiter) // at or below every key it begins
	}
	switch {
	case !set[1] && pre[1] == "":
	case whole[1]:
		hi = pre[1]
	default:
		hi = pre[1] + Top // every key it begins
	}
	switch {
	case !set[0] && !set[1]:
		return prefixCond(lo, false), nil
	case set[0] && set[1] && hi < lo:
		return ddb.SKCond{}, &codec.ValidationError{Field: on, Reason: fmt.Sprintf("reversed range: to %s is before from %s", pre[1], pre[0]), Key: true}
	}
	return between(lo, hi), nil
}

// FromKey sets v's key fields from primary key k (table.Entity.FromKey).
func (d *Decl) FromKey(entity string, k Key, v reflect.Value) error {
	if !d.PK.Matches(k.PK) || !d.SK.Matches(k.SK) {
		return &codec.ValidationError{Entity: entity, Field: "PK, SK", Reason: fmt.Sprintf("%q / %q is not a key of %s", k.PK, k.SK, entity), Key: true}
	}
	av := d.KeyValues(k)
	if err := codec.DecodeItem(av, v.Addr().Interface()); err != nil {
		return err
	}
	d.FillFromKey(v, av)
	return nil
}

// SortPrefixAt is the prefix of index ix's sort keys v's leading fields
// build with attribute at set to t to the nanosecond (unset when t is
// zero), whatever at's stored form (table.Entity.SortPrefixAt).
func (d *Decl) SortPrefixAt(entity string, ix ddb.Index, v reflect.Value, at string, t time.Time) (string, error) {
	_, sk, err := d.Templates(entity, ix)
	if err != nil {
		return "", err
	}
	if !slices.Contains(sk.Attrs(), at) {
		return "", &codec.ValidationError{Entity: entity, Field: at, Reason: fmt.Sprintf("not in the sort key (%s)", keytmpl.JoinAttrs(sk.Attrs())), Key: true}
	}
	av, err := d.Encode(v.Addr().Interface())
	if err != nil {
		return "", err
	}
	if av == nil {
		av = Item{}
	}
	delete(av, at)
	if !t.IsZero() {
		av[at] = &types.AttributeValueMemberS{Value: t.UTC().Format(time.RFC3339Nano)}
	}
	p, _, err := sk.Prefix(av)
	return p, err
}

// From returns the sort condition of index ix from the keys v's leading
// sort-key fields begin up to the end of the template's keys: [Decl.Range]
// from v to no field set (a declared pattern's SortFrom).
func (d *Decl) From(entity string, ix ddb.Index, v reflect.Value) (ddb.SKCond, error) {
	return d.Range(entity, ix, v, reflect.New(v.Type()).Elem())
}
