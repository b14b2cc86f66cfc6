package decl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
)

// Keys from attribute values given as strings, by templates' text
// (table.Template's Key, Partition, SortKey, SortPrefix, Parse,
// References): the same grammar and checks an entity's writes use.

// templates returns the parsed templates pk and sk (cached: a template is
// a constant of the program).
func templates(pkText, skText string) (pk, sk keytmpl.Template, err error) {
	if pk, err = keytmpl.Cached(pkText); err != nil {
		return nil, nil, err
	}
	if sk, err = keytmpl.Cached(skText); err != nil {
		return nil, nil, err
	}
	return pk, sk, nil
}

// MapKey is the primary key templates pkText and skText give values v.
func MapKey(pkText, skText string, v map[string]string) (Key, error) {
	pk, sk, err := templates(pkText, skText)
	if err != nil {
		return Key{}, err
	}
	av, err := keytmpl.Values(v, pk, sk)
	if err != nil {
		return Key{}, err
	}
	return (&Decl{PK: pk, SK: sk}).Primary(av)
}

// MapSide is one side of a key (what names it in errors) built from v by
// template text, without a trailing shard segment when unsharded.
func MapSide(text string, v map[string]string, what string, unsharded bool) (string, error) {
	t, err := keytmpl.Cached(text)
	if err != nil {
		return "", err
	}
	if unsharded {
		t = t.WithoutShard()
	}
	return keytmpl.BuildSide(t, v, what)
}

// MapSortPrefix is the begins_with prefix of sort template skText the
// values v set build; a whole key is refused.
func MapSortPrefix(skText string, v map[string]string) (string, error) {
	sk, err := keytmpl.Cached(skText)
	if err != nil {
		return "", err
	}
	av, err := keytmpl.Values(v, sk)
	if err != nil {
		return "", err
	}
	p, whole, err := sk.Prefix(av)
	if err == nil && whole {
		err = &codec.ValidationError{Field: strings.Join(sk.Attrs(), ", "), Reason: fmt.Sprintf("%q: a prefix leaves out at least one reference", skText), Key: true}
	}
	if err != nil {
		return "", err
	}
	return p, nil
}

// MapParse is the attribute values key k holds by templates pkText and
// skText.
func MapParse(pkText, skText string, k Key) (map[string]string, error) {
	pk, sk, err := templates(pkText, skText)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	if err := keytmpl.ReadSide(pk, k.PK, pkText, out); err != nil {
		return nil, err
	}
	if err := keytmpl.ReadSide(sk, k.SK, skText, out); err != nil {
		return nil, err
	}
	return out, nil
}

// MapReferences is the attributes templates pkText and skText reference,
// in order, each once.
func MapReferences(pkText, skText string) ([]string, error) {
	pk, sk, err := templates(pkText, skText)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, a := range append(pk.Attrs(), sk.Attrs()...) {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out, nil
}
