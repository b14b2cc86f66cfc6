package table_test

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

type line struct {
	Doc string `dynamo:"doc"`
	N   int    `dynamo:"n"`
}

var lineDef = table.Def[line]{
	Type: "Line",
	Keys: table.Template{PK: "DOC#{doc}", SK: "LINE#{n:3}"},
}

// TestCursorKeysAndAge: cursors name their key, so a rotated key still
// opens its cursors until it is dropped, then they fail cleanly; a
// maximum age refuses old cursors; a table without a key warns once.
func TestCursorKeysAndAge(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	keyA, keyB := bytes.Repeat([]byte{0xA}, 32), bytes.Repeat([]byte{0xB}, 32)
	tb := tabletest.NewTable(t, table.NewSchema("cursors"), func(o *table.Options) {
		o.CursorKey, o.CursorKeyID, o.Now = keyA, "a", clock
	})
	c := ctx(t)
	lines := table.NewEntity(tb, lineDef)
	for i := range 3 {
		if err := lines.Create(c, &line{Doc: "d", N: i}); err != nil {
			t.Fatal(err)
		}
	}
	q := table.Query{PK: "DOC#d"}
	first, err := lines.List(c, q, table.Limit(1))
	if err != nil || first.Cursor == "" {
		t.Fatalf("first page: %v", err)
	}
	with := func(f func(*table.Options)) *table.Entity[line] {
		return table.NewEntity(table.New(tb.Client(), tb.Schema(), func(o *table.Options) { o.Now = clock; f(o) }), lineDef)
	}
	// rotated: B is current, A still accepted
	rotated := with(func(o *table.Options) {
		o.CursorKey, o.CursorKeyID, o.OldCursorKeys = keyB, "b", map[string][]byte{"a": keyA}
	})
	if p, err := rotated.List(c, q, table.Limit(1), table.After(first.Cursor)); err != nil || len(p.Items) != 1 || p.Items[0].N != 1 {
		t.Fatalf("A's cursor after the rotation: %+v, %v", p.Items, err)
	}
	// A dropped: its cursors fail cleanly
	dropped := with(func(o *table.Options) { o.CursorKey, o.CursorKeyID = keyB, "b" })
	if _, err := dropped.List(c, q, table.After(first.Cursor)); !errors.Is(err, table.ErrInvalidCursor) || !strings.Contains(err.Error(), "retired") {
		t.Fatalf("A's cursor after A was dropped: %v", err)
	}
	// maximum age, by the table's clock
	aged := with(func(o *table.Options) { o.CursorKey, o.CursorKeyID, o.CursorMaxAge = keyA, "a", time.Hour })
	if _, err := aged.List(c, q, table.After(first.Cursor)); err != nil {
		t.Fatalf("fresh cursor refused: %v", err)
	}
	now = now.Add(2 * time.Hour)
	if _, err := aged.List(c, q, table.After(first.Cursor)); !errors.Is(err, table.ErrInvalidCursor) || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("2-hour-old cursor with a 1-hour maximum: %v", err)
	}
	if _, err := rotated.List(c, q, table.After(first.Cursor)); err != nil {
		t.Fatalf("no maximum age: the old cursor must still open: %v", err)
	}
}

// TestRandomCursorKeyWarnsOnce: without Options.CursorKey the first table
// of a process says so on its logger; later ones stay quiet. It runs in a
// child process of the test binary, where no table was made before.
func TestRandomCursorKeyWarnsOnce(t *testing.T) {
	if os.Getenv("SINGLETABLE_WARN_CHILD") == "1" {
		l := slog.New(slog.NewTextHandler(os.Stdout, nil))
		for range 3 {
			table.New(nil, table.NewSchema("x"), func(o *table.Options) { o.Logger = l })
		}
		table.New(nil, table.NewSchema("y"), func(o *table.Options) { o.Logger, o.CursorKey = l, []byte("k") })
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRandomCursorKeyWarnsOnce$")
	cmd.Env = append(os.Environ(), "SINGLETABLE_WARN_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), "no Options.CursorKey"); n != 1 {
		t.Fatalf("warned %d times, want once:\n%s", n, out)
	}
}
