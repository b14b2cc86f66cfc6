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
	"github.com/singletable/singletable/keys"
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
	derived Item  // the index keys and TTL the item derives
}

// prepare encodes item with its keys, type, TTL and version attributes,
// after Def.Validate when validate is set (without it, validation is left
// to the caller: a write of a difference validates only what it changes).
// Nothing is sent.
func (e *Entity[T]) prepare(item *T, version int64, validate bool) (written, error) {
	w := written{derived: Item{}}
	// Keys derive from the encoded attributes: validate (which may
	// normalize), then encode once and derive everything from that.
	if e.def.Validate != nil && validate {
		if err := e.def.Validate(item); err != nil {
			return w, err
		}
	}
	src := item
	av, err := dynamo.MarshalItem(src)
	if err != nil {
		return w, fmt.Errorf("%w: encode %s: %v", ErrInvalidInput, e.def.Type, err)
	}
	kav := e.decl.withKeyOnly(av, reflect.ValueOf(src).Elem()) // before secrets are sealed and key attributes added
	k, err := e.decl.primary(kav)
	if err == nil {
		err = keytmpl.CheckKey(k)
	}
	if err != nil {
		return w, err
	}
	w.key = k
	var exp time.Time
	if e.fn.expires != nil && e.t.schema.TTLAttr != "" {
		if exp = e.decl.expiry(kav); !exp.IsZero() && exp.After(e.t.now().Add(MaxTTLHorizon)) {
			return w, &ValidationError{Entity: e.def.Type, Field: e.t.schema.TTLAttr,
				Reason: fmt.Sprintf("expiry %s is more than 100 years ahead (a time in the wrong unit?)", exp.UTC().Format(time.RFC3339))}
		}
	}
	var ix map[Index]IndexKey
	if len(e.decl.indexes) > 0 {
		if ix, err = e.decl.indexKeys(kav); err != nil {
			return w, err
		}
	}
	if len(e.decl.uniqueOn) > 0 {
		w.uniques = e.decl.uniques(kav) // UniqueOn never names a secret
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
	s := e.t.schema
	av[s.PK] = &types.AttributeValueMemberS{Value: k.PK}
	av[s.SK] = &types.AttributeValueMemberS{Value: k.SK}
	if s.TypeAttr != "" {
		av[s.TypeAttr] = &types.AttributeValueMemberS{Value: e.def.Type}
	}
	if s.VersionAttr != "" {
		av[s.VersionAttr] = codec.Num(version)
	}
	for i, ik := range ix {
		is, err := s.GSI(i)
		if err != nil {
			return w, err
		}
		if ik.PK == "" {
			continue
		}
		if ik.SK == "" {
			return w, &ValidationError{Entity: e.def.Type, Field: is.SK, Reason: "empty sort key for a non-empty index partition key", Key: true}
		}
		if err := keytmpl.CheckKeyValue(is.PK, ik.PK, keys.MaxPKBytes); err != nil {
			return w, err
		}
		if err := keytmpl.CheckKeyValue(is.SK, ik.SK, keys.MaxSKBytes); err != nil {
			return w, err
		}
		av[is.PK] = &types.AttributeValueMemberS{Value: ik.PK}
		av[is.SK] = &types.AttributeValueMemberS{Value: ik.SK}
		w.derived[is.PK], w.derived[is.SK] = av[is.PK], av[is.SK]
	}
	if !exp.IsZero() {
		av[s.TTLAttr] = codec.Num(exp.Unix())
		w.derived[s.TTLAttr] = av[s.TTLAttr]
		w.expires = exp.Unix()
	}
	if e.fn.unique != nil {
		seen := map[Unique]bool{}
		for _, u := range w.uniques {
			if u.Name == "" || u.Value == "" {
				return w, &ValidationError{Entity: e.def.Type, Field: "unique " + u.Name, Reason: "empty unique value"}
			}
			if err := ddb.CheckUnique(u); err != nil {
				return w, err
			}
			if seen[u] {
				return w, &ValidationError{Entity: e.def.Type, Field: "unique " + u.Name, Reason: fmt.Sprintf("value %q listed twice", u.Value)}
			}
			seen[u] = true
		}
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
