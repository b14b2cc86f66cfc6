package keytmpl

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/keys"
)

// Key is the primary key of an item: partition key and sort key values
// (table.Key is this type). Build it from the entity's declaration with
// table.Entity.Key rather than by hand: the templates are the only place
// a key's shape is written.
type Key struct {
	PK string
	SK string

	// err is why the key could not be built ([BadKey]): every method that
	// takes the key returns it, before any request.
	err error
}

// BadKey returns the key that could not be built, for err: [CheckKey]
// and [Key.Err] return err.
func BadKey(err error) Key { return Key{err: err} }

// String formats the key as {PK SK}.
func (k Key) String() string { return "{" + k.PK + " " + k.SK + "}" }

// Equal reports whether k and o are the same key (and, for keys that
// could not be built, the same error). go-cmp uses it, so cmp.Diff
// compares keys without options.
func (k Key) Equal(o Key) bool { return k == o }

// Err returns why table.Entity.Key could not build k (nil for a key that
// holds values).
func (k Key) Err() error { return k.err }

// IndexKey is an item's key in one GSI. An empty PK leaves the item out of
// the index (a sparse index).
type IndexKey struct {
	PK string
	SK string
}

// CheckKey validates a primary key before any request.
func CheckKey(k Key) error {
	if k.err != nil {
		return k.err
	}
	if err := CheckKeyValue("PK", k.PK, keys.MaxPKBytes); err != nil {
		return err
	}
	return CheckKeyValue("SK", k.SK, keys.MaxSKBytes)
}

// CheckKeyValue validates the key value v of field: not empty, at most
// max bytes, valid UTF-8, no control character.
func CheckKeyValue(field, v string, max int) error {
	switch {
	case v == "":
		return &codec.ValidationError{Field: field, Reason: "empty key", Key: true}
	case len(v) > max:
		return &codec.ValidationError{Field: field, Reason: fmt.Sprintf("%d bytes, the limit is %d", len(v), max), Key: true}
	case !utf8.ValidString(v):
		return &codec.ValidationError{Field: field, Reason: "not valid UTF-8", Key: true}
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return &codec.ValidationError{Field: field, Reason: "contains a control character", Key: true}
		}
	}
	return nil
}
