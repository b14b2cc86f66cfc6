package tinode_test

import (
	"testing"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestEmptyKeyFieldsRefusedByTheTemplate: a cache key, a file ID or a
// link owner left empty is a *table.ValidationError naming the field the
// key derives from (the template's own rule, not a check of the store's),
// before any request (TN-31, TN-32, TN-34).
func TestEmptyKeyFieldsRefusedByTheTemplate(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	base := tabletest.NewTable(t, table.NewSchema("tinode"))
	s := tinode.New(table.New(tabletest.NewClient(t, rc.Option()), base.Schema()))
	c := ctx(t)

	wantInvalid(t, s.Cache.Delete(c, ""), "Key")
	_, err := s.Files.Finish(c, "", true, 1, "loc", "etag")
	wantInvalid(t, err, "Id")
	_, err = s.Files.Links(c, tn.LinkOwner(""))
	wantInvalid(t, err, "Owner")
	if n := rc.Total(); n != 0 {
		t.Errorf("%d requests sent (%v), want none", n, rc.Ops())
	}
}
