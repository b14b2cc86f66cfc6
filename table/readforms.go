package table

import (
	"fmt"
	"reflect"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/secret"
)

// keepReadForms makes a whole-item write (Create, Put, PutOp, BatchPut) of
// an item that carries its read image ([ReadState]) write back what it
// read unchanged: av, the item's encoding, is rewritten attribute by
// attribute like an Update's ([keepStored]): a part of a field the caller
// did not change keeps its stored form (a set inside a map[string]any,
// which decodes to a slice, stays a set; an empty string in a nested
// struct field, which the struct cannot tell from absence, stays stored),
// and a field stored but encoded by neither the read nor the new value
// (an empty string in a top-level field without `allowempty`) is kept.
// What the caller changed is written as given; attributes the engine
// derives (keys, index keys, type, version, TTL, token) are its own, and
// secrets are written as sealed by this write. An item without a read
// image (built by hand, or of a type without a ReadState field) is
// written as encoded.
func (e *Entity[T]) keepReadForms(item *T, av Item) error {
	if e.isPartial(item) {
		return errPartial
	}
	raw := e.readOf(item)
	if raw == nil {
		return nil
	}
	back, _, err := e.decodeWith(raw, true)
	if err != nil {
		return err
	}
	old, err := e.encodePlain(&back)
	if err != nil {
		return fmt.Errorf("%w: encode %s: %v", ErrInvalidInput, e.def.Type, err)
	}
	s := e.t.schema
	managed := map[string]bool{s.PK: true, s.SK: true, s.TypeAttr: true, s.VersionAttr: true, s.TTLAttr: true, s.TokenAttr: true}
	for _, ix := range s.Indexes {
		managed[ix.PK], managed[ix.SK] = true, true
	}
	for attr, nv := range av {
		if managed[attr] || raw[attr] == nil {
			continue
		}
		av[attr] = e.keepStored(attr, raw[attr], old[attr], nv)
	}
	fields := codec.FieldsOf(reflect.TypeFor[T]())
	for attr, sv := range raw {
		if _, ok := fields[attr]; !ok || managed[attr] {
			continue
		}
		_, inOld := old[attr]
		_, inNew := av[attr]
		if !inOld && !inNew && !e.isSecret(attr) {
			av[attr] = sv
		}
	}
	return nil
}

// isSecret reports whether top-level attribute attr holds a secret.
func (e *Entity[T]) isSecret(attr string) bool {
	for _, path := range e.def.Secrets {
		if secret.Top(path) == attr {
			return true
		}
	}
	return false
}
