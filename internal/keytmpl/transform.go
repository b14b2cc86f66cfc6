package keytmpl

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/keys"
)

// A transform is a named computation a key template applies to an
// attribute's value, written after the attribute and a colon:
// "{createdAt:ts}", "{tagKey:esc}", "{seqId:10}". Every tool reads the
// same registry: the engine builds keys with it, the model and the pattern
// documents show the transform's name and doc, and samples are made
// through it. Add one by adding an entry to [transforms] (with its doc
// line, its sample output and a test), never by a closure beside the
// templates.
type Transform struct {
	// Doc says what the transform does, for documents and errors.
	Doc string
	// Segments is how many key segments the transform writes (1 unless
	// it splits a value, such as "split").
	Segments int
	// Apply returns the key segments of the value v (av is the stored
	// attribute, for transforms that read its type: a number or a string).
	Apply func(v string, av types.AttributeValue) ([]string, error)
	// Reverse, if set, returns the attribute value of a segment (for a
	// Patch, which reads the fields a key holds back from the key).
	Reverse func(seg string) (types.AttributeValue, bool)
	// Read, if set, returns the value a key's segments (Segments of them)
	// hold, as a string ([Template.Parse]); ok is false when they hold
	// none (an Absent segment). Unset: the transform keeps only part of
	// the value, which is not read back.
	Read func(segs []string) (v string, ok bool, err error)
	// Example, if set, is a sample value of the attribute a (for
	// transforms that need a shape: [Entity.Sample]).
	Example func(a string) string
	// Absent, if set, is the segment written when the attribute is absent
	// or empty, where a key would otherwise not be built (an optional field
	// in an index key that must still hold the item).
	Absent string
}

// transforms is the registry of named transforms. A ":N" modifier (digits)
// is the fixed-width number transform of width N (see [widthTransform]).
var Registry = map[string]Transform{
	"esc": {
		Doc:      "the value escaped with keys.Escape (for values that may hold the delimiter: tags, free text)",
		Segments: 1,
		Apply:    func(v string, _ types.AttributeValue) ([]string, error) { return []string{keys.Escape(v)}, nil },
		Reverse: func(seg string) (types.AttributeValue, bool) {
			v, err := keys.Unescape(seg)
			return &types.AttributeValueMemberS{Value: v}, err == nil
		},
		Read: func(segs []string) (string, bool, error) {
			v, err := keys.Unescape(segs[0])
			return v, true, err
		},
	},
	"ts": {
		Doc:      "a time (RFC 3339 string, or epoch seconds of a `unixtime` number) as keys.Timestamp: UTC, fixed-width nanoseconds, byte order is time order",
		Segments: 1,
		Apply: func(v string, av types.AttributeValue) ([]string, error) {
			tm, err := TimeOf(v, av, time.Unix)
			if err != nil {
				return nil, err
			}
			s, err := keys.Timestamp(tm)
			return []string{s}, err
		},
		Read: func(segs []string) (string, bool, error) {
			tm, err := keys.ParseTimestamp(segs[0])
			return tm.Format(time.RFC3339Nano), true, err
		},
	},
	"ms": {
		Doc:      "a time (RFC 3339 string, or a number of Unix milliseconds) as keys.UnixMilli, 13 digits",
		Segments: 1,
		Apply: func(v string, av types.AttributeValue) ([]string, error) {
			tm, err := TimeOf(v, av, func(n, _ int64) time.Time { return time.UnixMilli(n) })
			if err != nil {
				return nil, err
			}
			s, err := keys.UnixMilli(tm)
			return []string{s}, err
		},
		Read: func(segs []string) (string, bool, error) {
			tm, err := keys.ParseUnixMilli(segs[0])
			return strconv.FormatInt(tm.UnixMilli(), 10), true, err
		},
	},
	"split": {
		Doc:      `a "scheme:value" string as two segments, each escaped: "basic:alice" gives "basic#alice"`,
		Segments: 2,
		Apply: func(v string, _ types.AttributeValue) ([]string, error) {
			a, b, ok := strings.Cut(v, ":")
			if !ok || a == "" || b == "" {
				return nil, fmt.Errorf("%q is not scheme:value", v)
			}
			return []string{keys.Escape(a), keys.Escape(b)}, nil
		},
		Read: func(segs []string) (string, bool, error) {
			a, err := keys.Unescape(segs[0])
			if err != nil {
				return "", false, err
			}
			b, err := keys.Unescape(segs[1])
			return a + ":" + b, true, err
		},
		Example: func(a string) string { return "scheme1:" + a + "1" },
	},
	"opt": {
		Doc:      `the value, or "-" when the attribute is absent or empty: an optional field (an enum, never "-") in an index key that must hold the item either way`,
		Segments: 1,
		Apply:    func(v string, _ types.AttributeValue) ([]string, error) { return []string{v}, nil },
		Read:     func(segs []string) (string, bool, error) { return segs[0], segs[0] != "-", nil },
		Absent:   "-",
	},
	"root": {
		Doc:      `the first segment of a slash-separated path, escaped: "/acme/eu/sales" gives "acme"`,
		Segments: 1,
		Apply: func(v string, _ types.AttributeValue) ([]string, error) {
			p := strings.TrimPrefix(v, "/")
			if i := strings.IndexByte(p, '/'); i >= 0 {
				p = p[:i]
			}
			if p == "" {
				return nil, fmt.Errorf("%q has no root segment", v)
			}
			return []string{keys.Escape(p)}, nil
		},
		Example: func(a string) string { return "/root1/" + a + "1" },
	},
}

// widthTransform is ":N" (N digits, 1 to 20): a non-negative integer,
// zero-padded to N digits so byte order is number order ("MSG#{seqId:10}").
func widthTransform(n int) Transform {
	return Transform{
		Doc:      fmt.Sprintf("a non-negative integer zero-padded to %d digits, so byte order is number order", n),
		Segments: 1,
		Apply: func(v string, _ types.AttributeValue) ([]string, error) {
			u, err := strconv.ParseUint(v, 10, 64)
			if err == nil {
				v, err = keys.Uint(u, n)
			}
			if err != nil {
				return nil, fmt.Errorf("%s is not a non-negative integer of at most %d digits", v, n)
			}
			return []string{v}, nil
		},
		Reverse: func(seg string) (types.AttributeValue, bool) {
			u, err := strconv.ParseUint(seg, 10, 64)
			return &types.AttributeValueMemberN{Value: strconv.FormatUint(u, 10)}, err == nil
		},
		Read: func(segs []string) (string, bool, error) {
			if len(segs[0]) != n {
				return "", false, fmt.Errorf("%q is not %d digits", segs[0], n)
			}
			u, err := keys.ParseUint(segs[0])
			return strconv.FormatUint(u, 10), true, err
		},
	}
}

// shardTransform is ":shardN": the value's shard among N ([Shard]), as
// the last segment of a partition key; ":shard1" writes no segment (the
// unsharded key).
func shardTransform(n int) Transform {
	segs := 1
	if n == 1 {
		segs = 0
	}
	return Transform{
		Doc:      fmt.Sprintf("the value's shard among %d (table.Shard: FNV-1a mod N), the last segment of a sharded partition", n),
		Segments: segs,
		Apply: func(v string, _ types.AttributeValue) ([]string, error) {
			if n == 1 {
				return nil, nil
			}
			return []string{strconv.Itoa(Shard(v, n))}, nil
		},
	}
}

// lookupTransform returns the transform named mod ("" is none).
func Lookup(mod string) (Transform, bool) {
	if n := Width(mod); n > 0 {
		return widthTransform(n), true
	}
	if n := ShardCount(mod); n > 0 {
		return shardTransform(n), true
	}
	t, ok := Registry[mod]
	return t, ok
}

// timeOf reads a time from an RFC 3339 string, or from a number by unit.
func TimeOf(v string, av types.AttributeValue, unit func(n, nsec int64) time.Time) (time.Time, error) {
	if _, isNum := av.(*types.AttributeValueMemberN); isNum {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("%s is not a whole number", v)
		}
		return unit(n, 0), nil
	}
	tm, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a time", v)
	}
	return tm, nil
}

// Transforms returns the doc line of every named transform a template may
// apply, by name (":N" for the fixed-width numbers): what documents and
// tools show beside the templates.
func Transforms() map[string]string {
	out := map[string]string{
		":N":      "a non-negative integer zero-padded to N digits (1 to 20), so byte order is number order",
		":shardN": "the value's shard among N (table.Shard: FNV-1a mod N), the last segment of a sharded partition; :shard1 leaves it out",
		":shard":  "a shard segment whose count N the deployment's profile gives (Template.WithShards makes it :shardN)",
	}
	for name, t := range Registry {
		out[":"+name] = t.Doc
	}
	return out
}
