package keytmpl

import (
	"github.com/singletable/singletable/internal/codec"

	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/keys"
)

// Part is one segment of a template: a literal, or an attribute
// reference with its transform.
type Part struct {
	lit  string    // a literal segment, or
	Attr string    // an attribute reference
	Mod  string    // its transform's name, "" for none
	Tf   Transform // the transform, if mod is set
}

// Template is a parsed key template, one Part per segment.
type Template []Part

// Parse parses a template such as "USER#{userId}" (the segment syntax
// of table.Template).
func Parse(s string) (Template, error) {
	if s == "" {
		return nil, fmt.Errorf("empty template")
	}
	var t Template
	for _, seg := range strings.Split(s, keys.Delimiter) {
		switch {
		case strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}"):
			name, mod, _ := strings.Cut(seg[1:len(seg)-1], ":")
			tf, ok := Lookup(mod)
			if mod == "shard" {
				return nil, fmt.Errorf("%q: %q takes its shard count from the profile: Template.WithShards", s, seg)
			}
			if name == "" || (mod != "" && !ok) {
				return nil, fmt.Errorf("%q: bad reference %q (transforms: %s)", s, seg, strings.Join(slices.Sorted(maps.Keys(Transforms())), ", "))
			}
			t = append(t, Part{Attr: name, Mod: mod, Tf: tf})
			if ShardCount(mod) > 0 && len(t) == 1 {
				return nil, fmt.Errorf("%q: a shard segment follows the partition it splits", s)
			}
		case seg == "" || strings.ContainsAny(seg, "{}"):
			return nil, fmt.Errorf("%q: bad literal segment %q", s, seg)
		default:
			t = append(t, Part{lit: seg})
		}
	}
	for _, p := range t[:len(t)-1] {
		if ShardCount(p.Mod) > 0 {
			return nil, fmt.Errorf("%q: a shard segment must be the last", s)
		}
	}
	return t, nil
}

// Attrs returns the attributes the template references, in order.
func (t Template) Attrs() []string {
	var out []string
	for _, p := range t {
		if p.Attr != "" {
			out = append(out, p.Attr)
		}
	}
	return out
}

// segments returns how many key segments a part writes.
func (p Part) Segments() int {
	if p.Mod != "" {
		return p.Tf.Segments
	}
	return 1
}

// build returns the key for the attribute values av; ok is false when a
// referenced attribute is absent or empty (a sparse index skips the item).
func (t Template) Build(av Item) (key string, ok bool, err error) {
	var buf [8]string // the segments of every key of the catalog: no allocation
	parts := buf[:0]
	for _, p := range t {
		if p.Attr == "" {
			parts = append(parts, p.lit)
			continue
		}
		v, present := SegmentValue(av[p.Attr])
		if (!present || v == "") && p.Mod != "" && p.Tf.Absent != "" {
			parts = append(parts, p.Tf.Absent)
			continue
		}
		if !present || v == "" {
			return "", false, nil
		}
		segs := []string{v}
		if p.Mod != "" {
			if segs, err = p.Tf.Apply(v, av[p.Attr]); err != nil {
				return "", false, &codec.ValidationError{Field: p.Attr, Reason: err.Error(), Key: true}
			}
		}
		for _, v := range segs {
			if strings.Contains(v, keys.Delimiter) || strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				return "", false, &codec.ValidationError{Field: p.Attr, Reason: fmt.Sprintf("%q holds the key delimiter or a control character", v), Key: true}
			}
		}
		parts = append(parts, segs...)
	}
	return strings.Join(parts, keys.Delimiter), true, nil
}

// matches reports whether key has the template's shape: as many segments,
// the same literals.
func (t Template) Matches(key string) bool {
	segs := strings.Split(key, keys.Delimiter)
	i := 0
	for _, p := range t {
		n := p.Segments()
		if i+n > len(segs) || (p.Attr == "" && segs[i] != p.lit) {
			return false
		}
		i += n
	}
	return i == len(segs)
}

// SegmentValue returns the key segment of a string or number attribute.
func SegmentValue(v types.AttributeValue) (string, bool) {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, true
	case *types.AttributeValueMemberN:
		return v.Value, true
	}
	return "", false
}

// width returns the digits of a ":N" modifier, 0 if mod is not one.
func Width(mod string) int {
	n, err := strconv.Atoi(mod)
	if err != nil || n < 1 || n > 20 || strconv.Itoa(n) != mod {
		return 0
	}
	return n
}

// prefix returns the begins_with prefix of the keys t builds: its leading
// parts, each a literal or a reference av sets, built as [template.build]
// builds them and followed by the delimiter, so that "SUB#" never matches
// "SUBUPD#..." and "TOPIC#1#" never matches "TOPIC#10#...". With a nil av
// it is the literal segments the template starts with. p is "" when the
// template starts with a reference av does not set; whole is true when
// every part is led (p is then a whole key, without the delimiter). The
// one computation behind [Entity.Partition]'s sort-key narrowing and
// [Template.SortPrefix].
func (t Template) Prefix(av Item) (p string, whole bool, err error) {
	n := 0
	for n < len(t) {
		if a := t[n].Attr; a != "" {
			if _, set := av[a]; !set {
				break
			}
		}
		n++
	}
	if n == 0 {
		return "", false, nil
	}
	key, ok, err := t[:n].Build(av)
	if err != nil {
		return "", false, err
	}
	if !ok {
		return "", false, &codec.ValidationError{Field: JoinAttrs(t[:n].Attrs()), Reason: "empty: the key prefix derives from it", Key: true}
	}
	if n == len(t) {
		return key, true, nil
	}
	return key + keys.Delimiter, false, nil
}

// withoutShard returns the template without a trailing ":shardN" part
// (":shard1" included): the partition a sharded query names, its shards
// read by [Entity.List].
func (t Template) WithoutShard() Template {
	if n := len(t); n > 0 && ShardCount(t[n-1].Mod) > 0 {
		return t[:n-1]
	}
	return t
}

// JoinAttrs lists attribute names for a message.
func JoinAttrs(a []string) string { return strings.Join(a, ", ") }

// MaxShards is the largest shard count a template or a query accepts.
const MaxShards = 256

// Shard returns the shard of id among n (0 when n <= 1): the 32-bit
// FNV-1a hash of id's bytes, mod n. It is stable across processes,
// releases and languages, so every writer and reader of an ID agrees.
func Shard(id string, n int) int {
	if n <= 1 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(n))
}

// shardCount returns N of a "shardN" template modifier, 0 if mod is not
// one.
func ShardCount(mod string) int {
	digits, ok := strings.CutPrefix(mod, "shard")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || n > MaxShards || strconv.Itoa(n) != digits {
		return 0
	}
	return n
}

// shards returns the shard count of the template's trailing shard segment
// (0 when it has none).
func (t Template) Shards() int {
	if len(t) == 0 {
		return 0
	}
	return ShardCount(t[len(t)-1].Mod)
}

// unsharded reports whether pk is the template's partition without its
// shard segment (the PK a reader of every shard names).
func (t Template) Unsharded(pk string) bool {
	n := t.Shards()
	if n <= 1 {
		return false
	}
	return t[:len(t)-1].Matches(pk)
}
