package table_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// A write-sharded list's cursor is held to the cursor contract in every
// part (issue 35): its layout prefix ("L4:", "L4b:") is authenticated by
// the sealed part it comes with, so a prefix alone, changed, inflated or
// removed gives ErrInvalidCursor, and no request is sent for it.
func TestListLayoutCursorPrefix(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := &tabletest.RequestCounter{}
	tb := tabletest.NewTable(t, table.NewSchema("wsprefix"))
	counted := table.New(tabletest.NewClient(t, rc.Option()), tb.Schema())
	msgs := table.NewEntity(counted, table.Def[wsMsg]{Type: "Msg", Keys: table.Template{PK: "T#{topic}", SK: "M#{seq:10}"}})
	l, err := table.NewLayout(4)
	if err != nil {
		t.Fatal(err)
	}
	for seq := 1; seq <= 9; seq++ {
		ops, err := msgs.CreateOp(&wsMsg{Topic: "a", Seq: seq})
		if err != nil {
			t.Fatal(err)
		}
		if err := counted.Transact(ctx, counted.InPartition(ops[0], l.SeqPK("T#a", int64(seq)))); err != nil {
			t.Fatal(err)
		}
	}
	layout := func(context.Context) (table.Layout, error) { return l, nil }
	list := func(base bool, cursor string) (table.Page[wsMsg], error) {
		o, err := table.NewListOptions(table.Limit(2), table.After(cursor))
		if err != nil {
			return table.Page[wsMsg]{}, err
		}
		return table.ListLayout(ctx, msgs, o.Apply(table.Query{PK: "T#a", Desc: true}), base, layout)
	}
	for _, base := range []bool{false, true} {
		p, err := list(base, "")
		if err != nil {
			t.Fatal(err)
		}
		prefix, sealed, ok := strings.Cut(p.Cursor, ":")
		if want := map[bool]string{false: "L4", true: "L4b"}[base]; !ok || prefix != want {
			t.Fatalf("cursor %q, want the prefix %s:", p.Cursor, want)
		}
		rc.Reset()
		if _, err := list(base, p.Cursor); err != nil || rc.Of("Query") == 0 {
			t.Fatalf("the issued cursor: %v (%v)", err, rc.Ops())
		}
		for _, c := range []string{prefix + ":", "L256:", "L256b:", "L2:" + sealed, "L4b:" + sealed, "L4:" + sealed, "L256:" + sealed, sealed, "L04:" + sealed} {
			if c == p.Cursor {
				continue
			}
			rc.Reset()
			if _, err := list(base, c); !errors.Is(err, table.ErrInvalidCursor) {
				t.Errorf("base %v, cursor %.12q...: %v, want ErrInvalidCursor", base, c, err)
			}
			if rc.Total() != 0 {
				t.Errorf("base %v, cursor %.12q...: %v sent, want none", base, c, rc.Ops())
			}
		}
	}
}
