package table

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/keys"
)

// Template declares a key as data: templates of literal segments and
// attribute references joined by the key delimiter '#', such as
// "USER#{userId}" and "POST#{at:ts}#{id}". An attribute reference names
// an attribute of the entity (its `dynamo` name), checked by [NewEntity];
// its value is the attribute's string or number, or, after a colon, what
// a named transform makes of it:
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
//   - ":split": a "scheme:value" string as two segments, each escaped;
//   - ":root": the first segment of a slash-separated path, escaped;
//   - ":shardN" (such as ":shard8"): the shard of the value among N,
//     [Shard](value, N), for the last segment of a partition-key template
//     ("USERS#{userId:shard8}" gives USERS#0 .. USERS#7): a partition
//     every item joins is split in N (see [Query.Shards] for reading it
//     whole). ":shard1" leaves the segment out: the key is the unsharded
//     one byte for byte, so a profile picks N without another template.
//     Declared as ":shard" (no count), the count is the profile's:
//     [Template.WithShards] gives it.
//
// [Transforms] lists them with their docs: the engine, the model, the
// pattern documents and NoSQL Workbench exports all read that one
// registry, and a computation a key needs is added there, never kept in a
// closure beside the template.
//
// A field stored only in the key (`dynamo:"-"`, such as an id the item
// repeats nowhere else) is referenced by the name in its `key` tag:
// `UserID UserID `dynamo:"-" key:"userId"“, then "USER#{userId}".
//
// Values are key segments: one holding '#' or control characters (after
// the transform) is refused with a *[ValidationError], so no value can
// reach into another key.
//
// From declared keys the engine derives, never by hand: the primary key
// and index keys of every write, which fields [Entity.Patch] may change
// (an index key whose fields a patch sets in full moves in the same
// UpdateItem; one it sets in part is refused), which fields move which
// index entry and guard for Update, Change and the adoption job, the item
// matcher for items written without a type attribute, samples, and the
// model tools export ([Entity.Model]).
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

type tmplPart struct {
	lit  string    // a literal segment, or
	attr string    // an attribute reference
	mod  string    // its transform's name, "" for none
	tf   transform // the transform, if mod is set
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
			tf, ok := lookupTransform(mod)
			if mod == "shard" {
				return nil, fmt.Errorf("%q: %q takes its shard count from the profile: Template.WithShards", s, seg)
			}
			if name == "" || (mod != "" && !ok) {
				return nil, fmt.Errorf("%q: bad reference %q (transforms: %s)", s, seg, strings.Join(slices.Sorted(maps.Keys(Transforms())), ", "))
			}
			t = append(t, tmplPart{attr: name, mod: mod, tf: tf})
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

// segments returns how many key segments a part writes.
func (p tmplPart) segments() int {
	if p.mod != "" {
		return p.tf.Segments
	}
	return 1
}

// build returns the key for the attribute values av; ok is false when a
// referenced attribute is absent or empty (a sparse index skips the item).
func (t template) build(av Item) (key string, ok bool, err error) {
	parts := make([]string, 0, len(t))
	for _, p := range t {
		if p.attr == "" {
			parts = append(parts, p.lit)
			continue
		}
		v, present := segmentValue(av[p.attr])
		if (!present || v == "") && p.mod != "" && p.tf.Absent != "" {
			parts = append(parts, p.tf.Absent)
			continue
		}
		if !present || v == "" {
			return "", false, nil
		}
		segs := []string{v}
		if p.mod != "" {
			if segs, err = p.tf.Apply(v, av[p.attr]); err != nil {
				return "", false, &ValidationError{Field: p.attr, Reason: err.Error(), Key: true}
			}
		}
		for _, v := range segs {
			if strings.Contains(v, keys.Delimiter) || strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				return "", false, &ValidationError{Field: p.attr, Reason: fmt.Sprintf("%q holds the key delimiter or a control character", v), Key: true}
			}
		}
		parts = append(parts, segs...)
	}
	return strings.Join(parts, keys.Delimiter), true, nil
}

// matches reports whether key has the template's shape: as many segments,
// the same literals.
func (t template) matches(key string) bool {
	segs := strings.Split(key, keys.Delimiter)
	i := 0
	for _, p := range t {
		n := p.segments()
		if i+n > len(segs) || (p.attr == "" && segs[i] != p.lit) {
			return false
		}
		i += n
	}
	return i == len(segs)
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

// prefix returns the begins_with prefix of the keys t builds: its leading
// parts, each a literal or a reference av sets, built as [template.build]
// builds them and followed by the delimiter, so that "SUB#" never matches
// "SUBUPD#..." and "TOPIC#1#" never matches "TOPIC#10#...". With a nil av
// it is the literal segments the template starts with. p is "" when the
// template starts with a reference av does not set; whole is true when
// every part is led (p is then a whole key, without the delimiter). The
// one computation behind [Entity.Partition]'s sort-key narrowing and
// [Template.SortPrefix].
func (t template) prefix(av Item) (p string, whole bool, err error) {
	n := 0
	for n < len(t) {
		if a := t[n].attr; a != "" {
			if _, set := av[a]; !set {
				break
			}
		}
		n++
	}
	if n == 0 {
		return "", false, nil
	}
	key, ok, err := t[:n].build(av)
	if err != nil {
		return "", false, err
	}
	if !ok {
		return "", false, &ValidationError{Field: joinAttrs(t[:n].attrs()), Reason: "empty: the key prefix derives from it", Key: true}
	}
	if n == len(t) {
		return key, true, nil
	}
	return key + keys.Delimiter, false, nil
}

// withoutShard returns the template without a trailing ":shardN" part
// (":shard1" included): the partition a sharded query names, its shards
// read by [Entity.List].
func (t template) withoutShard() template {
	if n := len(t); n > 0 && shardCount(t[n-1].mod) > 0 {
		return t[:n-1]
	}
	return t
}

func joinAttrs(a []string) string { return strings.Join(a, ", ") }
