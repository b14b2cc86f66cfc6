package table

import (
	"maps"
	"reflect"
)

// ReadState is what a read saw of an item: the stored image, every
// attribute as DynamoDB returned it (the library's own and those the Go
// type does not know). It travels with the item the caller got, the way
// its version does, so that [Entity.Replace] can require, in the same
// request as its write, that the stored item is still exactly what the
// caller read: a change by any writer in between (another service's
// PutItem or UpdateItem, which never advances the version) fails the
// replace with [ErrConflict] instead of being overwritten.
//
// An entity type opts in by holding one field of this type, tagged
// `dynamo:"-"` (it is not an attribute):
//
//	type Settings struct {
//		Name string           `dynamo:"name"`
//		Read table.ReadState `dynamo:"-" json:"-"`
//	}
//
// The engine finds the field by its type ([NewEntity]); every read
// (Get, List, queries, batches, transactions) fills it, and every write
// that knows the resulting image (Create, Update, Replace, Patch) refreshes
// it.
//
// A ReadState compares equal to every other (Equal), so tests comparing
// items with go-cmp ignore it; copying an item copies what it was read as.
type ReadState struct{ r *readImage }

type readImage struct {
	item    Item // never modified once set
	partial bool // read with a projection (see Projection)
}

// Equal reports true: what a read saw is not part of the item's value
// (go-cmp uses this method).
func (ReadState) Equal(ReadState) bool { return true }

// IsZero reports whether the item carries no read (built by hand).
func (s ReadState) IsZero() bool { return s.r == nil }

var readStateType = reflect.TypeFor[ReadState]()

// setRead records raw as what item was read as (nothing if T has no
// ReadState field). raw is copied: the caller's map may change later.
func (e *Entity[T]) setRead(item *T, raw Item) {
	if e.readIdx == nil || item == nil {
		return
	}
	f := reflect.ValueOf(item).Elem().FieldByIndex(e.readIdx)
	if raw == nil {
		f.Set(reflect.ValueOf(ReadState{}))
		return
	}
	f.Set(reflect.ValueOf(ReadState{r: &readImage{item: maps.Clone(raw)}}))
}

// readOf returns the image item was read as (nil: none).
func (e *Entity[T]) readOf(item *T) Item {
	if e.readIdx == nil || item == nil {
		return nil
	}
	rs := reflect.ValueOf(item).Elem().FieldByIndex(e.readIdx).Interface().(ReadState)
	if rs.r == nil {
		return nil
	}
	return rs.r.item
}
