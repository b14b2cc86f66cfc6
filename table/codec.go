package table

import (
	"fmt"
	"reflect"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
)

// MaxTTLHorizon is how far ahead an expiry may lie: a TTL further away is
// refused as a time in the wrong unit (milliseconds taken for seconds).
const MaxTTLHorizon = 100 * 365 * 24 * time.Hour

// MaxItemBytes is DynamoDB's item size limit (400 KB).
const MaxItemBytes = 400 * 1024

// Item is a raw DynamoDB item.
type Item = map[string]types.AttributeValue

// written is an item ready to send: its attributes, its key, its guards.
type written struct {
	item    Item
	key     Key
	uniques []Unique
	expires int64 // TTL in epoch seconds, 0 for none
	// ix and exp are the index keys and TTL the item derives
	// ([Entity.derivedOf] gives their attributes).
	ix  map[Index]IndexKey
	exp time.Time
}

// derivedOf returns the attributes of the index keys and TTL w derives.
func (e *Entity[T]) derivedOf(w written) (Item, error) { return e.t.c.Derived(w.ix, w.exp) }

// prepare encodes item with its keys, type, TTL and version attributes,
// after Def.Validate when validate is set (without it, validation is left
// to the caller: a write of a difference validates only what it changes).
// Nothing is sent.
func (e *Entity[T]) prepare(item *T, version int64, validate bool) (written, error) {
	var w written
	// Keys derive from the encoded attributes: validate (which may
	// normalize), then encode once and derive everything from that.
	if validate {
		if err := e.def.Validate(item); err != nil {
			return w, err
		}
	}
	src := item
	av, err := dynamo.MarshalItem(src)
	if err != nil {
		return w, fmt.Errorf("%w: encode %s: %v", ErrInvalidInput, e.def.Type, err)
	}
	kav := e.decl.WithKeyOnly(av, reflect.ValueOf(src).Elem()) // before secrets are sealed and key attributes added
	k, err := e.decl.Primary(kav)
	if err == nil {
		err = keytmpl.CheckKey(k)
	}
	if err != nil {
		return w, err
	}
	w.key = k
	var exp time.Time
	if e.hasTTL() && e.t.schema.TTLAttr != "" {
		if exp = e.decl.Expiry(kav); !exp.IsZero() && exp.After(e.t.now().Add(MaxTTLHorizon)) {
			return w, &ValidationError{Entity: e.def.Type, Field: e.t.schema.TTLAttr,
				Reason: fmt.Sprintf("expiry %s is more than 100 years ahead (a time in the wrong unit?)", exp.UTC().Format(time.RFC3339))}
		}
	}
	var ix map[Index]IndexKey
	if len(e.decl.indexes) > 0 {
		if ix, err = e.decl.IndexKeys(kav); err != nil {
			return w, err
		}
	}
	if len(e.decl.UniqueOn) > 0 {
		w.uniques = e.decl.Uniques(kav) // UniqueOn never names a secret
	}
	if e.def.CustomUniques != nil {
		w.uniques = append(w.uniques, e.def.CustomUniques.Uniques(item)...)
	}
	e.finishItem(av, src) // the one encoder's fixes (see fieldenc.go)
	if len(e.def.Secrets) > 0 {
		// the encoding is this call's own: its secrets are sealed in place
		if err := e.sealItem(av, k); err != nil {
			return w, err
		}
	}
	if err := codec.CheckValues(e.def.Type, av); err != nil {
		return w, err
	}
	if err := e.t.c.Stamp(e.def.Type, av, k, version, ix, exp); err != nil {
		return w, err
	}
	w.ix, w.exp = ix, exp
	if !exp.IsZero() {
		w.expires = exp.Unix()
	}
	if err := ddb.CheckUniques(e.def.Type, w.uniques); err != nil {
		return w, err
	}
	if n := ItemSize(av); n > MaxItemBytes {
		return w, fmt.Errorf("%w: %s is %d bytes, the limit is %d", ErrItemTooLarge, e.def.Type, n, MaxItemBytes)
	}
	w.item = av
	return w, nil
}

// decode turns a raw item into T and reports its version.
func (e *Entity[T]) decode(raw Item) (T, int64, error) { return e.decodeWith(raw, false) }

// decodeWith is decode; lenient reads plaintext secrets (adoption).
func (e *Entity[T]) decodeWith(raw Item, lenient bool) (T, int64, error) {
	var v T
	if s := e.t.schema.TypeAttr; s != "" {
		if got, ok := raw[s].(*types.AttributeValueMemberS); ok && got.Value != e.def.Type {
			return v, 0, fmt.Errorf("%w: item is a %q, not a %q", ErrInvalidInput, got.Value, e.def.Type)
		}
	}
	src := raw
	if len(e.def.Secrets) > 0 {
		var err error
		if src, err = e.openItem(raw, e.t.c.KeyOf(raw), lenient); err != nil {
			return v, 0, err
		}
	}
	if err := codec.DecodeItem(src, &v); err != nil {
		return v, 0, fmt.Errorf("decode %s: %w", e.def.Type, err)
	}
	e.fillExtra(raw, &v)
	e.readKeyFields(raw, &v)
	codec.FillNested(reflect.ValueOf(&v).Elem(), src) // the nested catch-alls, secrets opened
	ver := e.t.c.VersionOf(raw)
	e.setVersion(&v, ver)
	e.setRead(&v, raw)
	return v, ver, nil
}

// ItemSize returns the size DynamoDB counts for item: attribute names plus
// values, per the documented rules (numbers approximated from their digits).
func ItemSize(item Item) int { return codec.ItemSize(item) }
