package feed_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/tabletest"
)

type Task struct {
	ID     string `dynamo:"id"`
	Title  string `dynamo:"title"`
	Status string `dynamo:"status"`
}

// A Router with a typed handler per entity, behind a Consumer that reads
// the table's stream to its end: each write arrives as a typed change,
// with the fields that changed; the unique guard of a task's title and the
// consumer's own checkpoint never reach the handler.
func ExampleConsumer() {
	t, done := tabletest.ForExample("ExampleConsumer")
	defer done()
	ctx := context.Background()
	tbl := tabletest.NewTable(t, table.NewSchema("tasks", table.WithStream(types.StreamViewTypeNewAndOldImages)))
	tasks := table.NewEntity(tbl, table.Def[Task]{
		Type:     "Task",
		Keys:     table.Template{PK: "TASK#{id}", SK: "TASK"},
		UniqueOn: []string{"title"},
	})

	r := feed.NewRouter(tbl)
	feed.Handle(r, tasks, func(_ context.Context, c table.ItemChange[Task]) error {
		status := ""
		if c.New != nil {
			status = c.New.Status
		}
		fmt.Println(c.Event, c.Key.PK, strings.Join(c.Changed(), ","), status)
		return nil
	})
	c := &feed.Consumer{Table: tbl, Name: "example", Handler: r}

	if err := tasks.Create(ctx, &Task{ID: "t1", Title: "write docs", Status: "open"}); err != nil {
		panic(err)
	}
	if _, err := tasks.Update(ctx, tasks.Key(Task{ID: "t1"}), func(t *Task) error { t.Status = "done"; return nil }); err != nil {
		panic(err)
	}
	if err := c.CatchUp(ctx); err != nil {
		panic(err)
	}
	if err := tasks.Delete(ctx, tasks.Key(Task{ID: "t1"})); err != nil {
		panic(err)
	}
	if err := c.CatchUp(ctx); err != nil { // continues where it stopped
		panic(err)
	}
	// Output:
	// created TASK#t1 id,status,title open
	// modified TASK#t1 status done
	// removed TASK#t1 id,status,title
}
