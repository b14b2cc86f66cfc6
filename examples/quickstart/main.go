// Command quickstart is the tour of package table: one entity on the
// generic single-table schema, created, read, updated, counted, queried
// through a GSI page by page, and protected by a unique guard.
//
//	go run ./examples/quickstart
//
// It starts a throwaway DynamoDB Local (Docker, or Java 17+ with the jar
// downloaded once into the user cache), or uses DYNAMODB_ENDPOINT and keeps
// the table there so you can browse it:
//
//	DYNAMODB_ENDPOINT=http://localhost:8000 go run ./examples/quickstart
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/singletable/singletable/internal/exampleenv"
	"github.com/singletable/singletable/table"
)

// Note is the example's entity.
type Note struct {
	ID        string    `dynamo:"id"`
	Author    string    `dynamo:"author"`
	Slug      string    `dynamo:"slug"` // unique across notes
	Text      string    `dynamo:"text"`
	Likes     int64     `dynamo:"likes"`
	CreatedAt time.Time `dynamo:"createdAt"`
	UpdatedAt time.Time `dynamo:"updatedAt"`
}

// The note's keys, declared as data: PK = NOTE#{id}, SK = NOTE, and
// GSI1 (an author's notes in creation order) = AUTHOR#{author} /
// NOTE#{createdAt}#{id}. The engine builds them on every write, refuses a
// patch of a field they derive from unless it moves the index with it,
// and shows them to tools (singletable doc, workbench, model).
var noteDef = table.Def[Note]{
	Type: "Note",
	Keys: table.Template{PK: "NOTE#{id}", SK: "NOTE"},
	IndexKeys: map[table.Index]table.Template{
		table.GSI1: {PK: "AUTHOR#{author}", SK: "NOTE#{createdAt:ts}#{id}"},
	},
	Validate: func(n *Note) error {
		if strings.TrimSpace(n.Text) == "" {
			return table.Invalid("text", "empty")
		}
		return nil
	},
	UniqueOn: []string{"slug"}, // a guard item per slug, written in the note's transaction
	// createdAt on create, updatedAt on every write, to the millisecond.
	Timestamps: table.Timestamps{Created: "createdAt", Updated: "updatedAt", Precision: time.Millisecond},
}

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	client, keep, stop, err := exampleenv.Open(ctx)
	if err != nil {
		return err
	}
	defer stop()

	t0 := time.Now()
	tbl, drop, err := exampleenv.Table(ctx, client, keep, table.NewSchema("quickstart"))
	if err != nil {
		return err
	}
	defer drop()
	fmt.Printf("created table %s (%d GSIs, TTL on) in %v\n", tbl.Name(), len(tbl.Schema().Indexes), time.Since(t0).Round(time.Millisecond))
	notes := table.NewEntity(tbl, noteDef)

	for i, text := range []string{"hello, single table", "keys are typed", "indexes never go stale", "cursors are sealed", "guards keep slugs unique"} {
		n := Note{ID: fmt.Sprintf("n%d", i+1), Author: "ada", Slug: fmt.Sprintf("note-%d", i+1), Text: text}
		if err := notes.Create(ctx, &n); err != nil {
			return err
		}
	}
	fmt.Println("created 5 notes by ada")

	dup := Note{ID: "n1", Author: "bob", Slug: "other", Text: "overwrite?"}
	err = notes.Create(ctx, &dup)
	fmt.Printf("create n1 again: ErrAlreadyExists=%v\n", errors.Is(err, table.ErrAlreadyExists))
	taken := Note{ID: "n9", Author: "bob", Slug: "note-1", Text: "same slug"}
	err = notes.Create(ctx, &taken)
	fmt.Printf("create with a taken slug: ErrUniqueViolation=%v\n", errors.Is(err, table.ErrUniqueViolation))
	bad := Note{ID: "n#1", Author: "bob", Slug: "x", Text: "bad id"}
	err = notes.Create(ctx, &bad)
	fmt.Printf("create with id %q: ErrInvalidKey=%v (%v)\n", bad.ID, errors.Is(err, table.ErrInvalidKey), err)

	k := table.Key{PK: "NOTE#n1", SK: "NOTE"}
	n, err := notes.Update(ctx, k, func(n *Note) error { n.Author = "grace"; return nil })
	if err != nil {
		return err
	}
	fmt.Printf("moved n1 to author %s; its GSI1 entry moved in the same write\n", n.Author)
	likes, err := notes.Add(ctx, k, "likes", 3)
	if err != nil {
		return err
	}
	fmt.Printf("n1 likes after an atomic add: %d\n", likes)

	q := table.Query{Index: table.GSI1, PK: "AUTHOR#ada", SK: table.SKBeginsWith("NOTE#"), Desc: true, Limit: 2}
	for page := 1; ; page++ {
		p, err := notes.List(ctx, q)
		if err != nil {
			return err
		}
		var ids []string
		for _, n := range p.Items {
			ids = append(ids, n.ID)
		}
		if len(ids) > 0 { // a page that ends exactly at the end is followed by an empty one
			fmt.Printf("ada's notes, newest first, page %d: %v\n", page, ids)
		}
		if !p.More() {
			break
		}
		q.Cursor = p.Cursor
	}
	owner, err := tbl.LookupUnique(ctx, table.Unique{Name: "slug", Value: "note-3"})
	if err != nil {
		return err
	}
	fmt.Printf("slug note-3 belongs to %s\n", owner.PK)

	_, err = notes.Get(ctx, table.Key{PK: "NOTE#missing", SK: "NOTE"})
	fmt.Printf("get a missing note: ErrNotFound=%v\n", errors.Is(err, table.ErrNotFound))
	return nil
}
