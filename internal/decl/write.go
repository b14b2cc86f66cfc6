package decl

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
)

// Write declares one write of one entity (table.WriteDef), as a
// pattern's declaration declares a read: the catalog ID, the store
// field's name and a one-line Doc, once, and the application's rules the
// write applies.
type Write[T any] struct {
	// ID is the catalog ID the write serves ("LB-73"); Name is
	// "package.Type.Field" of the store field holding the write
	// ("listbackup.Labels.Create"), the call's and cost record's name;
	// Doc says in one sentence what it does, for the documents.
	ID, Name, Doc string
	// Also lists further catalog IDs the write serves, for the documents
	// (LB-2 of the unique email a user's Create guards); calls are ID's.
	Also []string
	// Before, if set, runs on the item a Create, Put or Upsert stores (on
	// each of a BatchPut's), inside the call, before the request: the
	// application's defaults (a new ID, a first status). It cannot fail:
	// the entity's own checks, which run after it and before any request,
	// refuse what it leaves wrong.
	Before func(item *T)
	// Live, if set, tells a stored item the application still has (not
	// soft-deleted): an Update of another is ErrNotFound with no write,
	// and a change that ends it is a *ValidationError naming LiveField
	// ("deletedAt": set by the entity's own soft delete only). Only an
	// Update reads the item it writes, so only an Update may declare it
	// (NoLive); a SoftDelete must, and its change ends the item.
	Live      func(item *T) bool
	LiveField string
	// Check, if set, holds the caller's rules on an Update's, a Patch's
	// or a Delete's key fields beyond their own: its error first, no
	// request.
	Check func(key *T) error
}

// NoLive panics when d declares Live for a write of kind that sends no
// read to test it on (a Patch, a Delete): a declaration error, found at
// start-up, instead of a soft-deleted item written as a live one.
func NoLive[T any](d Write[T], kind string) {
	if d.Live != nil {
		panic(fmt.Sprintf("table: %s %s: WriteDef.Live applies to an Update only (a %s reads no item to test); declare it on the entity's Update, or leave it out", kind, d.Name, kind))
	}
}

// NoUniques panics when d declares a write of kind that replaces items
// unconditionally (a Put, a BatchPut) on an entity with unique values
// (uniques), whose guards only a Create or an Update keeps exact: a
// declaration error, found at start-up, instead of every call refused.
func NoUniques[T any](d Write[T], kind string, uniques bool) {
	if uniques {
		panic(fmt.Sprintf("table: %s %s: the entity has unique values, whose guards a %s cannot keep; declare a Create or an Update", kind, d.Name, kind))
	}
}

// Arg returns the check of a declared write's argument of type A
// (table.UpdateWith): the check its type declares (an enumeration of
// table.NewEnum, IDs of table.NewIDs), naming field, then its own
// Validate() error method when it has one (its error is the call's: a
// *codec.ValidationError as it is, another wrapped in one naming field;
// a nil argument is one, reason "nil"); none (nil errors) when A declares
// neither. It panics when only *A has Validate: such an argument would
// pass unchecked.
func Arg[A any](field string) func(A) error {
	t := reflect.TypeFor[A]()
	check := codec.DeclaredCheck(t)
	validates := t.Implements(reflect.TypeFor[validator]())
	if !validates && t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(reflect.TypeFor[validator]()) {
		panic(fmt.Sprintf("table: the argument %s, a %s, would go unchecked: its Validate has a pointer receiver; declare the argument as *%s or give Validate a value receiver", field, t, t))
	}
	return func(a A) error {
		if check != nil {
			if err := check(field, reflect.ValueOf(a).String()); err != nil {
				return err
			}
		}
		if !validates {
			return nil
		}
		return validated(field, a)
	}
}

// validator is an argument type that checks itself (Arg).
type validator interface{ Validate() error }

// validated returns a's Validate error as Arg does: a *codec.ValidationError
// as it is, another wrapped in one naming field, a nil a one too.
func validated(field string, a any) error {
	v, ok := a.(validator)
	if rv := reflect.ValueOf(a); !ok || (rv.Kind() == reflect.Pointer && rv.IsNil()) {
		return &codec.ValidationError{Field: field, Reason: "nil"}
	}
	err := v.Validate()
	if ve := (*codec.ValidationError)(nil); err == nil || errors.As(err, &ve) {
		return err
	}
	return &codec.ValidationError{Field: field, Reason: err.Error()}
}

// Before runs before (when set) on item, then write: a declared write's
// defaults (table.WriteDef.Before).
func Before[T any](ctx context.Context, before func(*T), item *T, write func(context.Context, *T) error) error {
	if before != nil {
		before(item)
	}
	return write(ctx, item)
}

// BeforeEach runs before (when set) on each item of items, then write: a
// declared batch's defaults. A nil item is a *codec.ValidationError
// naming its place, before anything runs.
func BeforeEach[T any](ctx context.Context, before func(*T), items []*T, write func(context.Context, []*T) error) error {
	if i := slices.Index(items, nil); i >= 0 {
		return &codec.ValidationError{Field: fmt.Sprintf("items[%d]", i), Reason: "nil"}
	}
	for _, item := range items {
		if before != nil {
			before(item)
		}
	}
	return write(ctx, items)
}

// Live returns change applied only to an item live keeps (one not
// soft-deleted): another is ddb.ErrNotFound ("deleted: not found"), and
// a change that makes the item refused is a *codec.ValidationError naming
// field (table.WriteDef.Live). A nil live returns change.
func Live[T any](live func(*T) bool, field string, change func(*T) error) func(*T) error {
	if live == nil {
		return change
	}
	return SoftDelete(live, func(item *T) error {
		if err := change(item); err != nil {
			return err
		}
		if !live(item) {
			return &codec.ValidationError{Field: field, Reason: "set by Delete only"}
		}
		return nil
	})
}

// Updating returns change under d's soft-delete rule as a declared
// Update applies it ([Live]): for a store method that composes the
// entity's Update itself, with reads and rules of its own around it.
func (d Write[T]) Updating(change func(*T) error) func(*T) error {
	return Live(d.Live, d.LiveField, change)
}

// Ending returns change under d's soft-delete rule as a declared soft
// delete applies it ([SoftDelete]: a deleted item is not found, and the
// changed item, which change may end, is not held to d.Live): for a
// store method that composes the entity's Update itself. d.Live must be
// set.
func (d Write[T]) Ending(change func(*T) error) func(*T) error {
	return SoftDelete(NeedLive(d).Live, change)
}

// NeedLive returns d, and panics, naming the write, when d declares no
// Live for a soft delete (table.SoftDelete): a declaration error, found
// at start-up, instead of a deleted item deleted again.
func NeedLive[T any](d Write[T]) Write[T] {
	if d.Live == nil {
		panic(fmt.Sprintf("table: SoftDelete %s: WriteDef.Live is required (it tells a live item from a deleted one, which is not found)", d.Name))
	}
	return d
}

// SoftDelete returns change applied only to an item live keeps (one not
// yet soft-deleted): another is ddb.ErrNotFound ("deleted: not found"),
// with no write; the changed item, which change ends, is not held to
// live (table.SoftDelete, whose declaration requires live: NeedLive).
// Live is it with the changed item held to live.
func SoftDelete[T any](live func(*T) bool, change func(*T) error) func(*T) error {
	return func(item *T) error {
		if !live(item) {
			return fmt.Errorf("deleted: %w", ddb.ErrNotFound)
		}
		return change(item)
	}
}

// Checked returns check's error on item, nil when check is nil: a
// declared write's caller checks (table.WriteDef.Check).
func Checked[T any](check func(*T) error, item *T) error {
	if check == nil {
		return nil
	}
	return check(item)
}

// WriteInfo describes a declared write (table.WriteInfo): the
// declaration's ID, Name, Doc and Also, and its Kind.
type WriteInfo struct {
	// ID is the catalog ID its calls are of; Name is "package.Type.Field"
	// of the store field holding it.
	ID, Name string
	// Doc is its one-line doc.
	Doc string
	// Kind is "Create", "Put", "Upsert", "BatchPut", "Update",
	// "SoftDelete", "Patch" or "Delete".
	Kind string
	// Also lists the further catalog IDs it serves.
	Also []string
}

// UniqueInfo describes a declared read by a unique value
// (table.UniqueInfo): the declaration's ID, Name, Doc and Also.
type UniqueInfo struct {
	// ID is the catalog ID its calls are of; Name is "package.Type.Field"
	// of the store field holding it.
	ID, Name string
	// Doc is its one-line doc.
	Doc string
	// Also lists the further catalog IDs it serves.
	Also []string
}

// UniqueRead declares a read of the item holding one unique value
// (table.UniqueDef): the catalog ID, the store field's name and its Doc,
// as a write's, and the unique's name with the caller's check and
// normalization of the value.
type UniqueRead struct {
	// ID, Name, Doc and Also are as a write's (WriteInfo).
	ID, Name, Doc string
	Also          []string
	// Unique is the unique value's name ("email").
	Unique string
	// Check, if set, refuses a value before any request: its error is the
	// read's.
	Check func(value string) error
	// Normalize, if set, gives the stored form of a checked value
	// (lower-cased): the value looked up.
	Normalize func(value string) string
}

// Value returns the value a read of d looks up: v checked, then
// normalized.
func (d UniqueRead) Value(v string) (string, error) {
	if d.Check != nil {
		if err := d.Check(v); err != nil {
			return "", err
		}
	}
	if d.Normalize != nil {
		v = d.Normalize(v)
	}
	return v, nil
}
