package decl

import (
	"context"
	"fmt"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
)

// Before returns write run on an item after before (when set) ran on it:
// a declared write's defaults (table.WriteDef.Before). An error before
// returns is the write's, with no request.
func Before[T any](before func(*T) error, write func(context.Context, *T) error) func(context.Context, *T) error {
	if before == nil {
		return write
	}
	return func(ctx context.Context, item *T) error {
		if err := before(item); err != nil {
			return err
		}
		return write(ctx, item)
	}
}

// Live returns change applied only to an item live keeps (one not
// soft-deleted): another is ddb.ErrNotFound ("deleted: not found"), and
// a change that makes the item refused is a *codec.ValidationError naming
// field (table.WriteDef.Live). A nil live returns change.
func Live[T any](live func(*T) bool, field string, change func(*T) error) func(*T) error {
	if live == nil {
		return change
	}
	return func(item *T) error {
		if !live(item) {
			return fmt.Errorf("deleted: %w", ddb.ErrNotFound)
		}
		if err := change(item); err != nil {
			return err
		}
		if !live(item) {
			return &codec.ValidationError{Field: field, Reason: "set by Delete only"}
		}
		return nil
	}
}

// WriteInfo describes a declared write (table.WriteInfo): the
// declaration's ID, Name, Doc and Also, and its Kind.
type WriteInfo struct {
	// ID is the catalog ID its calls are of; Name is "package.Type.Field"
	// of the store field holding it.
	ID, Name string
	// Doc is its one-line doc.
	Doc string
	// Kind is "Create", "Put", "Update", "Patch" or "Delete".
	Kind string
	// Also lists the further catalog IDs it serves.
	Also []string
}
