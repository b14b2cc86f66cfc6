package table_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// The task peers are compared on (docs/dx: the same program in ElectroDB,
// guregu/dynamo and hand-written aws-sdk-go-v2): a Note with a GSI by
// author and a unique slug; three notes created; a duplicate id and a
// duplicate slug refused; one page newest first, then the next page with
// its cursor; one field updated in one request that fails on a missing
// note; a typo in a field name refused (here when the program starts:
// MustField panics on "txet", and on a field that is not a string). Every
// error is handled. The lines between the markers are the ones counted
// (non-blank, non-comment; docs/dx/count.sh).
func Example_task() {
	t, done := tabletest.ForExample("Example_task")
	defer done()
	tbl := tabletest.NewTable(t, table.NewSchema("notes"))
	ctx := context.Background()
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	err := func() error {
		// --- counted from here ---
		type Note struct {
			ID, Author, Slug, Text string
			At                     time.Time
		}
		notes := table.NewEntity(tbl, table.Def[Note]{
			Type:      "Note",
			Keys:      table.Template{PK: "NOTE#{ID}", SK: "NOTE"},
			IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "AUTHOR#{Author}", SK: "AT#{At:ts}#{ID}"}},
			UniqueOn:  []string{"Slug"},
		})
		text := table.MustField[Note, string]("Text")
		for i, slug := range []string{"hello", "again", "third"} {
			if err := notes.Create(ctx, &Note{ID: fmt.Sprint("n", i), Author: "ann", Slug: slug, Text: slug, At: at.Add(time.Duration(i) * time.Minute)}); err != nil {
				return err
			}
		}
		dupID := notes.Create(ctx, &Note{ID: "n0", Author: "ann", Slug: "x", At: at})
		dupSlug := notes.Create(ctx, &Note{ID: "n9", Author: "ann", Slug: "hello", At: at})
		page1, err1 := notes.List(ctx, notes.Partition(table.GSI1, Note{Author: "ann"}), table.Desc(), table.Limit(2))
		page2, err2 := notes.List(ctx, notes.Partition(table.GSI1, Note{Author: "ann"}), table.Desc(), table.Limit(2), table.After(page1.Cursor))
		n0, err3 := notes.Change(ctx, notes.Key(Note{ID: "n0"}), table.Set(text, "Hello, world"))
		if err := errors.Join(err1, err2, err3); err != nil {
			return err
		}
		// --- to here ---
		fmt.Println(errors.Is(dupID, table.ErrAlreadyExists), errors.Is(dupSlug, table.ErrAlreadyExists))
		fmt.Println(page1.Items[0].Slug, page1.Items[1].Slug, "|", page2.Items[0].Slug, page2.More())
		fmt.Println(n0.Text)
		_, missing := notes.Change(ctx, notes.Key(Note{ID: "n7"}), table.Set(text, "x"))
		fmt.Println(missing)
		return nil
	}()
	fmt.Println(err)
	// Output:
	// true true
	// third again | hello false
	// Hello, world
	// change Note NOTE#n7/NOTE: singletable: item not found
	// <nil>
}
