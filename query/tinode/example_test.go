package tinode_test

import (
	"context"
	"fmt"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Save assigns consecutive SeqIds (TN-12); History lists them newest
// first (TN-13).
func ExampleMessages_Save() {
	t, done := tabletest.ForExample("ExampleMessages_Save")
	defer done()
	s := tinode.New(tabletest.NewTable(t, table.NewSchema("tinode-example")))
	ctx := context.Background()
	_ = s.Topics.Create(ctx, &tn.Topic{Id: "grpDemo"})
	for _, text := range []string{"one", "two", "three"} {
		m := tn.Message{Topic: "grpDemo", From: "alice", Content: tn.JSON(text)}
		if err := s.Messages.Save(ctx, &m); err != nil {
			fmt.Println(err)
		}
	}
	page, _ := s.Messages.History(ctx, tinode.HistoryFilter{Topic: "grpDemo"}, table.Limit(2))
	for _, m := range page.Items {
		fmt.Println(m.SeqId, m.Content)
	}
	// Output:
	// 3 "three"
	// 2 "two"
}

// AccessMode prints and parses Tinode's letter form.
func ExampleAccessMode() {
	m, _ := tn.ParseAccessMode("rwj")
	fmt.Println(m, uint32(m), tn.ModeCPublic, tn.ModeNone)
	// Output: JRW 7 JRWPA N
}
