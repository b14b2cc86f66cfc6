package listbackup_test

import (
	"testing"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
)

// BenchmarkForAccount measures an account view's cost (Store.ForAccount,
// once per authenticated request): no request is sent, so the table has
// no client.
func BenchmarkForAccount(b *testing.B) {
	s := listbackup.New(table.New(nil, listbackup.Schema("bench")))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.ForAccount(lb.AccountID("acct-1")); err != nil {
			b.Fatal(err)
		}
	}
}
