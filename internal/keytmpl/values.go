package keytmpl

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/keys"
)

// The key builder's side of table.Template: values by attribute name
// built into one side of a key, and read back from it.

var cache sync.Map // string -> Template

// Cached returns template s parsed (cached: a template is a constant of
// the program); a bad template is codec.ErrInvalidInput.
func Cached(s string) (Template, error) {
	if t, ok := cache.Load(s); ok {
		return t.(Template), nil
	}
	t, err := Parse(s)
	if err != nil {
		return nil, fmt.Errorf("%w: template %v", codec.ErrInvalidInput, err)
	}
	cache.Store(s, t)
	return t, nil
}

// Values returns v as attribute values for build: a value in
// digits only is a number (so ":ts" and ":ms" read it as epoch seconds or
// milliseconds), any other a string. A name no template references is
// refused.
func Values(v map[string]string, ts ...Template) (Item, error) {
	av := make(Item, len(v))
	for _, name := range slices.Sorted(maps.Keys(v)) {
		if !slices.ContainsFunc(ts, func(t Template) bool { return slices.Contains(t.Attrs(), name) }) {
			return nil, &codec.ValidationError{Field: name, Reason: "not referenced by the key template", Key: true}
		}
		s := v[name]
		if s != "" && len(s) <= 19 && strings.Trim(s, "0123456789") == "" {
			av[name] = &types.AttributeValueMemberN{Value: s}
		} else {
			av[name] = &types.AttributeValueMemberS{Value: s}
		}
	}
	return av, nil
}

// BuildSide builds one side of a key from v.
func BuildSide(t Template, v map[string]string, what string) (string, error) {
	av, err := Values(v, t)
	if err != nil {
		return "", err
	}
	s, ok, err := t.Build(av)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", &codec.ValidationError{Field: strings.Join(t.Attrs(), ", "), Reason: "empty: the " + what + " derives from it", Key: true}
	}
	return s, nil
}

// ReadSide reads the values key holds by template t (written as src) into
// out.
func ReadSide(t Template, key, src string, out map[string]string) error {
	bad := func(reason string) error {
		return &codec.ValidationError{Field: strings.Join(t.Attrs(), ", "), Reason: fmt.Sprintf("%q is not a key of %q: %s", key, src, reason), Key: true}
	}
	if !t.Matches(key) {
		return bad("another shape")
	}
	segs := strings.Split(key, keys.Delimiter)
	i := 0
	for _, p := range t {
		n := p.Segments()
		part := segs[i : i+n]
		i += n
		for _, s := range part {
			if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				return bad(fmt.Sprintf("segment %q", s))
			}
		}
		if p.Attr == "" {
			continue
		}
		read := func(segs []string) (string, bool, error) { return segs[0], true, nil }
		if p.Mod != "" {
			read = p.Tf.Read
		}
		if read == nil {
			continue // a transform that keeps part of the value
		}
		v, ok, err := read(part)
		if err != nil {
			return bad(fmt.Sprintf("%s: %v", p.Attr, err))
		}
		if !ok {
			continue
		}
		if prev, seen := out[p.Attr]; seen && prev != v {
			return bad(fmt.Sprintf("%s is %q and %q", p.Attr, prev, v))
		}
		out[p.Attr] = v
	}
	return nil
}
