package keys

import (
	"fmt"
	"strconv"
	"strings"
)

// Pattern is the shape of one kind of composite key: a fixed literal prefix
// followed by named segments, such as USER#{userId} or
// EVT#{receivedAt}#{eventId}. K is the key type it builds and parses, [PK],
// [SK] or a caller's own ~string type (for example a GSI key).
//
// Create patterns with [NewPattern], once, as package-level variables. A
// Pattern is immutable and safe for concurrent use. The zero Pattern is not
// usable: its methods return errors.
type Pattern[K ~string] struct {
	literal  string
	names    []string
	template string
	maxBytes int
}

// NewPattern returns the pattern of keys made of prefix followed by one
// segment per name:
//
//	var User = keys.NewPattern[keys.PK]("USER", "userId")           // USER#{userId}
//	var Event = keys.NewPattern[keys.SK]("EVT", "receivedAt", "id") // EVT#{receivedAt}#{id}
//	var Profile = keys.NewPattern[keys.SK]("PROFILE")               // the constant key PROFILE
//
// The prefix may itself contain the [Delimiter] ("TENANT#ORG"), but every
// part between delimiters must be a valid segment. The key length limit is
// [MaxSKBytes] when K is [SK] and [MaxPKBytes] otherwise; see
// [Pattern.WithMaxBytes].
//
// NewPattern panics when the prefix or a segment name is invalid or a name
// is repeated: patterns are fixed by the program, so that is a programming
// error.
func NewPattern[K ~string](prefix string, segmentNames ...string) Pattern[K] {
	if prefix == "" {
		panic("keys: NewPattern: empty prefix")
	}
	for part := range strings.SplitSeq(prefix, Delimiter) {
		if reason := checkSegment(part); reason != "" {
			panic(fmt.Sprintf("keys: NewPattern: prefix %q: part %q %s", prefix, part, reason))
		}
	}
	var tmpl strings.Builder
	tmpl.WriteString(prefix)
	names := make([]string, len(segmentNames))
	for i, name := range segmentNames {
		if reason := checkSegment(name); reason != "" {
			panic(fmt.Sprintf("keys: NewPattern %q: segment name %q %s", prefix, name, reason))
		}
		if strings.ContainsAny(name, "{}") {
			panic(fmt.Sprintf("keys: NewPattern %q: segment name %q contains a brace", prefix, name))
		}
		for _, prev := range names[:i] {
			if prev == name {
				panic(fmt.Sprintf("keys: NewPattern %q: segment name %q repeated", prefix, name))
			}
		}
		names[i] = name
		tmpl.WriteString(Delimiter + "{" + name + "}")
	}
	p := Pattern[K]{literal: prefix, names: names, template: tmpl.String(), maxBytes: MaxPKBytes}
	if _, ok := any(K("")).(SK); ok {
		p.maxBytes = MaxSKBytes
	}
	if len(prefix) > p.maxBytes {
		panic(fmt.Sprintf("keys: NewPattern: prefix of %d bytes is longer than the limit of %d", len(prefix), p.maxBytes))
	}
	return p
}

// WithMaxBytes returns a copy of p whose keys may be at most n bytes long.
// Use it for key types other than [PK] and [SK], such as the sort key of a
// GSI ([MaxSKBytes]), or to keep keys shorter than DynamoDB requires. It
// panics if n is larger than [MaxPKBytes] or shorter than the literal prefix.
func (p Pattern[K]) WithMaxBytes(n int) Pattern[K] {
	if n > MaxPKBytes || n < len(p.literal) || p.literal == "" {
		panic(fmt.Sprintf("keys: %s.WithMaxBytes(%d): out of range [%d, %d]", p.template, n, len(p.literal), MaxPKBytes))
	}
	p.maxBytes = n
	return p
}

// Literal returns the fixed prefix of the pattern, e.g. "USER".
func (p Pattern[K]) Literal() string { return p.literal }

// String returns the pattern's template, e.g. "USER#{userId}", as used in
// error messages and documentation.
func (p Pattern[K]) String() string { return p.template }

// Segments returns the names of the pattern's segments, in order.
func (p Pattern[K]) Segments() []string { return append([]string(nil), p.names...) }

// MaxBytes returns the longest key the pattern builds or parses, in bytes.
func (p Pattern[K]) MaxBytes() int { return p.maxBytes }

// Build returns the key made of the literal prefix and values, joined by the
// [Delimiter]: NewPattern("USER", "userId").Build("42") is "USER#42". It
// needs exactly one value per segment.
//
// Each value must be a valid segment: not empty, valid UTF-8, without control
// characters and without the delimiter (apply [Escape] to values that may
// hold it). Otherwise Build returns a *[SegmentError] naming the segment. A
// key longer than [Pattern.MaxBytes] gives a *[LengthError], a wrong number of
// values a *[KeyError]. All of them match [ErrInvalidKey].
func (p Pattern[K]) Build(values ...string) (K, error) {
	if err := p.usable(); err != nil {
		return "", err
	}
	if len(values) != len(p.names) {
		return "", &KeyError{Pattern: p.template,
			Reason: "Build got " + strconv.Itoa(len(values)) + " values, want " + strconv.Itoa(len(p.names))}
	}
	return p.join(values, false)
}

// MustBuild is like [Pattern.Build] but panics on error. Use it for
// constant keys and in tests, not for values that come from input.
func (p Pattern[K]) MustBuild(values ...string) K {
	k, err := p.Build(values...)
	if err != nil {
		panic(err)
	}
	return k
}

// Prefix returns a begins_with prefix matching the keys of p whose first
// len(values) segments equal values. It takes fewer values than the pattern
// has segments, and the prefix always ends with the [Delimiter]:
//
//	USER#{userId}:           Prefix()    == "USER#"
//	TOPIC#{topicId}#{seq}:   Prefix("1") == "TOPIC#1#"
//
// Ending at a segment boundary is what keeps the condition exact: "TOPIC#1#"
// does not match TOPIC#10#... the way "TOPIC#1" would. Values are validated
// as in [Pattern.Build]; a constant pattern (no segments) has no prefix and
// returns a *[KeyError].
func (p Pattern[K]) Prefix(values ...string) (K, error) {
	if err := p.usable(); err != nil {
		return "", err
	}
	if len(values) >= len(p.names) {
		return "", &KeyError{Pattern: p.template,
			Reason: "Prefix got " + strconv.Itoa(len(values)) + " values, want at most " + strconv.Itoa(len(p.names)-1)}
	}
	return p.join(values, true)
}

// join validates values and returns literal#v1#v2..., with a trailing
// delimiter if trailing is set. It allocates once.
func (p Pattern[K]) join(values []string, trailing bool) (K, error) {
	n := len(p.literal) + len(values)
	if trailing {
		n++
	}
	for _, v := range values {
		n += len(v)
	}
	if n > p.maxBytes {
		return "", &LengthError{Pattern: p.template, Bytes: n, Max: p.maxBytes}
	}
	for i, v := range values {
		if reason := checkSegment(v); reason != "" {
			return "", &SegmentError{Pattern: p.template, Segment: p.names[i], Value: v, Reason: reason}
		}
	}
	if n == len(p.literal) {
		return K(p.literal), nil
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(p.literal)
	for _, v := range values {
		b.WriteString(Delimiter)
		b.WriteString(v)
	}
	if trailing {
		b.WriteString(Delimiter)
	}
	return K(b.String()), nil
}

// Parse is the inverse of [Pattern.Build]: it returns the segment values of
// key, in order. The values are substrings of key; Parse allocates only the
// returned slice.
//
// Parse accepts exactly the keys Build can return. A key with another
// prefix or another number of segments gives a *[KeyError], a bad segment a
// *[SegmentError], a key that is too long a *[LengthError]; all match
// [ErrInvalidKey].
func (p Pattern[K]) Parse(key K) ([]string, error) {
	rest, err := p.rest(string(key))
	if err != nil {
		return nil, err
	}
	out := make([]string, len(p.names))
	for i := range p.names {
		if out[i], rest, err = p.next(string(key), rest, i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Segment returns the value of segment i (counting from 0) of key, without
// allocating. It validates the whole key as [Pattern.Parse] does, and returns
// a *[KeyError] if i is out of range.
func (p Pattern[K]) Segment(key K, i int) (string, error) {
	if i < 0 || i >= len(p.names) {
		if err := p.usable(); err != nil {
			return "", err
		}
		return "", &KeyError{Pattern: p.template,
			Reason: "has no segment " + strconv.Itoa(i)}
	}
	return p.scan(string(key), i)
}

// Matches reports whether key is a valid key of p, that is whether
// [Pattern.Parse] would succeed. It does not allocate.
func (p Pattern[K]) Matches(key K) bool {
	_, err := p.scan(string(key), -1)
	return err == nil
}

// scan validates key and returns its segment want (none if want < 0).
func (p Pattern[K]) scan(key string, want int) (string, error) {
	rest, err := p.rest(key)
	if err != nil {
		return "", err
	}
	var found, seg string
	for i := range p.names {
		if seg, rest, err = p.next(key, rest, i); err != nil {
			return "", err
		}
		if i == want {
			found = seg
		}
	}
	return found, nil
}

// rest checks the length and literal prefix of key and returns what follows
// the literal.
func (p Pattern[K]) rest(key string) (string, error) {
	if err := p.usable(); err != nil {
		return "", err
	}
	if len(key) > p.maxBytes {
		return "", &LengthError{Pattern: p.template, Bytes: len(key), Max: p.maxBytes}
	}
	rest, ok := strings.CutPrefix(key, p.literal)
	if !ok || (rest != "" && rest[0] != Delimiter[0]) {
		return "", &KeyError{Pattern: p.template, Key: key, Reason: "does not start with " + strconv.Quote(p.literal)}
	}
	if len(p.names) == 0 && rest != "" {
		return "", &KeyError{Pattern: p.template, Key: key, Reason: "has segments after the constant " + strconv.Quote(p.literal)}
	}
	return rest, nil
}

// next cuts segment i off rest, which starts with the delimiter, validates
// it and returns it with what follows. Past the last segment rest must be
// empty.
func (p Pattern[K]) next(key, rest string, i int) (seg, after string, err error) {
	if rest == "" {
		return "", "", &KeyError{Pattern: p.template, Key: key,
			Reason: "has " + strconv.Itoa(i) + " segments, want " + strconv.Itoa(len(p.names))}
	}
	rest = rest[1:] // the delimiter
	if j := strings.IndexByte(rest, Delimiter[0]); j >= 0 {
		seg, after = rest[:j], rest[j:]
	} else {
		seg = rest
	}
	if i == len(p.names)-1 && after != "" {
		return "", "", &KeyError{Pattern: p.template, Key: key,
			Reason: "has more than " + strconv.Itoa(len(p.names)) + " segments"}
	}
	if reason := checkSegment(seg); reason != "" {
		return "", "", &SegmentError{Pattern: p.template, Segment: p.names[i], Value: seg, Reason: reason}
	}
	return seg, after, nil
}

// usable reports an error for the zero Pattern.
func (p Pattern[K]) usable() error {
	if p.literal == "" {
		return &KeyError{Pattern: "<zero Pattern>", Reason: "pattern not created with NewPattern"}
	}
	return nil
}
