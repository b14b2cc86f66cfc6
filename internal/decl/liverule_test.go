package decl

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
)

type rec struct{ Deleted bool }

// TestWriteRuleForComposedUpdates: a store method that composes the
// entity's Update itself holds the soft-delete rule its declared writes
// hold (Write.Updating as a declared Update, Write.Ending as a declared
// SoftDelete), so the rule is written once (LB-63, LB-65).
func TestWriteRuleForComposedUpdates(t *testing.T) {
	rule := Write[rec]{Live: func(r *rec) bool { return !r.Deleted }, LiveField: "deletedAt"}
	calls := 0
	end := func(r *rec) error { calls++; r.Deleted = true; return nil }
	keep := func(r *rec) error { calls++; return nil }

	if err := rule.Updating(keep)(&rec{Deleted: true}); !errors.Is(err, ddb.ErrNotFound) {
		t.Errorf("Updating a deleted item: %v, want ErrNotFound", err)
	}
	if err := rule.Ending(end)(&rec{Deleted: true}); !errors.Is(err, ddb.ErrNotFound) {
		t.Errorf("Ending a deleted item: %v, want ErrNotFound", err)
	}
	if calls != 0 {
		t.Errorf("change ran %d times on deleted items, want 0", calls)
	}
	var ve *codec.ValidationError
	if err := rule.Updating(end)(&rec{}); !errors.As(err, &ve) || ve.Field != "deletedAt" {
		t.Errorf("Updating that ends the item: %v, want a *ValidationError naming deletedAt", err)
	}
	r := rec{}
	if err := rule.Ending(end)(&r); err != nil || !r.Deleted {
		t.Errorf("Ending a live item: %v (deleted %v), want it ended", err, r.Deleted)
	}
	if err := rule.Updating(keep)(&rec{}); err != nil {
		t.Errorf("Updating a live item: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Ending with no Live did not panic")
		}
	}()
	Write[rec]{Name: "x.Y.Z"}.Ending(end)
}
