package table

import (
	"context"
	"errors"
	"reflect"

	"github.com/singletable/singletable/internal/codec"
)

// A migration keeps what the live system holds. An item Import copies may
// hold an enum value the entity does not list (another writer stored it:
// a service that stores whatever plan the client sends). Reads are
// tolerant of it, Update carries it through (a write is judged on what it
// changes); Import, which creates the item, keeps it and reports it
// instead of leaving the item behind. Every other check still applies.

// KeptValue is a value [Entity.Import] wrote although the entity's
// Def.Validate does not know it: an enum value ([ValidationError.Unknown])
// the source item holds.
type KeptValue struct {
	// Key is the item's key in this table.
	Key Key
	// Entity is the entity type.
	Entity string
	// Field is the attribute (a dotted path for a nested one), Value the
	// value kept and Allowed the values the entity knows.
	Field, Value string
	Allowed      []string
}

type keptKey struct{}

// WithKeptValues returns a context under which [Entity.Import] and
// [Entity.ImportMany] call report once per value they keep, for each item
// they write (or, in a dry run, would write) and for each item they find
// already copied (Unchanged: an earlier run wrote it, keeping the value),
// so that a run resumed after an interruption reports the items the
// interrupted run wrote after its last checkpoint. report may be called
// from several goroutines at once.
func WithKeptValues(ctx context.Context, report func(KeptValue)) context.Context {
	return context.WithValue(ctx, keptKey{}, report)
}

// reportKept hands kept to the report of ctx, if it has one.
func reportKept(ctx context.Context, k Key, kept []KeptValue) {
	report, _ := ctx.Value(keptKey{}).(func(KeptValue))
	if report == nil {
		return
	}
	for _, kv := range kept {
		kv.Key = k
		report(kv)
	}
}

// importValidate runs Def.Validate on item as Import judges an item it
// copies: an unknown enum value is kept (and listed), every other error
// refuses the item. So that a check after a kept value is not skipped (a
// Validate may stop at its first error), Validate runs again on a copy in
// which the kept field holds one of its allowed values, until it passes or
// fails on something else; item then takes what Validate normalized in the
// copy, with its kept values. A field the copy cannot be given another
// value (not a string field reached through struct fields) keeps its
// error.
func (e *Entity[T]) importValidate(item *T) ([]KeptValue, error) {
	err := e.def.Validate(item)
	if err == nil {
		return nil, nil
	}
	probe := *item
	pv := reflect.ValueOf(&probe).Elem()
	var kept []KeptValue
	for range 64 {
		for _, leaf := range codec.LeafErrors(err) {
			var ve *ValidationError
			if !errors.As(leaf, &ve) || !ve.Unknown || ve.Key || len(ve.Allowed) == 0 || !codec.SetStringPath(pv, ve.Field, ve.Allowed[0]) {
				return nil, err
			}
			kept = append(kept, KeptValue{Entity: e.def.Type, Field: ve.Field, Value: ve.Value, Allowed: ve.Allowed})
		}
		if err = e.def.Validate(&probe); err == nil {
			for _, kv := range kept {
				codec.SetStringPath(pv, kv.Field, kv.Value)
			}
			*item = probe
			return kept, nil
		}
	}
	return nil, err
}
