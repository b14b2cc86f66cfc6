package table_test

import (
	"context"
	"fmt"
	"time"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// The task peers are compared on (issue 15): an entity with a GSI by
// author, create with a unique slug, one page newest first, update one
// field. The lines between the markers are the ones counted (non-blank,
// non-comment): 25 (the check: `awk` in the README), against ElectroDB's 29 for the same task.
func Example_task() {
	t, done := tabletest.ForExample("Example_task")
	defer done()
	tbl := tabletest.NewTable(t, table.NewSchema("blog"))
	ctx := context.Background()

	// --- counted from here ---
	type Post struct {
		ID     string    `dynamo:"id"`
		Author string    `dynamo:"author"`
		Slug   string    `dynamo:"slug"`
		Title  string    `dynamo:"title"`
		At     time.Time `dynamo:"at"`
	}
	posts := table.NewEntity(tbl, table.Def[Post]{
		Type:      "Post",
		Keys:      table.Template{PK: "POST#{id}", SK: "POST"},
		IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "AUTHOR#{author}", SK: "AT#{at:ts}#{id}"}},
		UniqueOn:  []string{"slug"},
	})
	title := table.MustField[Post, string]("title")

	for i, slug := range []string{"hello", "again"} {
		at := time.Date(2026, 11, 22, 10, i, 0, 0, time.UTC)
		if err := posts.Create(ctx, &Post{ID: fmt.Sprint("p", i), Author: "ann", Slug: slug, Title: slug, At: at}); err != nil {
			panic(err)
		}
	}
	page, err := posts.List(ctx, table.Query{Index: table.GSI1, PK: "AUTHOR#ann"}, table.Desc(), table.Limit(10))
	if err != nil {
		panic(err)
	}
	p, err := posts.Change(ctx, table.Key{PK: "POST#p0", SK: "POST"}, table.Set(title, "Hello, world"))
	// --- to here ---

	fmt.Println(len(page.Items), page.Items[0].Slug, page.Items[1].Slug)
	fmt.Println(p.Title, err)
	// Output:
	// 2 again hello
	// Hello, world <nil>
}
