package table_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// sdDoc is a document that is soft-deleted: DeletedAt stamped, the item kept.
type sdDoc struct {
	ID        string    `dynamo:"id"`
	Title     string    `dynamo:"title"`
	DeletedAt time.Time `dynamo:"deletedAt,omitempty"`
}

// sdRule is the soft-delete rule of documents, declared once.
var sdRule = table.WriteDef[sdDoc]{
	Live:      func(d *sdDoc) bool { return d.DeletedAt.IsZero() },
	LiveField: "deletedAt",
}

// A soft delete declared with its rule, and a method that composes
// Entity.Update itself (a rule of its own around the change) holding the
// same rule through WriteDef.Updating: a deleted document is not found to
// either, and a change that would delete it is refused.
func ExampleWriteDef() {
	t, done := tabletest.ForExample("ExampleWriteDef")
	defer done()
	ctx := context.Background()
	docs := table.NewEntity(tabletest.NewTable(t, table.NewSchema("example")), table.Def[sdDoc]{
		Type: "Doc", Keys: table.Template{PK: "DOC#{id}", SK: "DOC"}})
	key := func(id string) sdDoc { return sdDoc{ID: id} }
	del := sdRule
	del.ID, del.Name = "EX-3", "example.Docs.Delete"
	remove := table.SoftDelete(docs, del, key, func(d *sdDoc) error { d.DeletedAt = time.Now(); return nil })

	// rename is a method with its own rule (a title is never blank).
	rename := func(id, title string) error {
		_, err := docs.Update(ctx, docs.Key(sdDoc{ID: id}), sdRule.Updating(func(d *sdDoc) error {
			if title == "" {
				return table.Invalid("title", "blank")
			}
			d.Title = title
			return nil
		}))
		return err
	}
	_ = docs.Create(ctx, &sdDoc{ID: "d1", Title: "Draft"})
	fmt.Println(rename("d1", "Plan"))
	_, err := docs.Update(ctx, docs.Key(sdDoc{ID: "d1"}), sdRule.Updating(func(d *sdDoc) error {
		d.DeletedAt = time.Now() // only the declared soft delete ends a document
		return nil
	}))
	var ve *table.ValidationError
	fmt.Println(errors.As(err, &ve), ve.Field)
	fmt.Println(remove(ctx, "d1"))
	fmt.Println(errors.Is(rename("d1", "Again"), table.ErrNotFound), errors.Is(remove(ctx, "d1"), table.ErrNotFound))
	// Output:
	// <nil>
	// true deletedAt
	// <nil>
	// true true
}
