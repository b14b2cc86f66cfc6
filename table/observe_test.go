package table_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/singletable/singletable/table"
)

func TestSlogLoggerRecordsRequests(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	f := newFixture(t, func(o *table.Options) { o.Logger = logger })
	c := ctx(t)
	f.create(t, member{ID: "m1", Email: "a@b.c", Status: "active"})
	if _, err := f.members.List(c, table.Query{Index: table.GSI1, PK: "STATUS#active"}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"op=TransactWriteItems", "op=Query", "entity=Member", "index=GSI1", "capacity="} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}
