package tinode

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/tinode/chat/server/db/common/test_data"
	t "github.com/tinode/chat/server/store/types"
)

func TestMain(m *testing.M) { tabletest.Main(m) }

// newAdapter returns an adapter on a fresh table of its own and Tinode's
// fixtures (a new copy per test: the fixtures are pointers).
func newAdapter(tb testing.TB, opts ...func(*table.Options)) (*Adapter, *test_data.TestData) {
	tb.Helper()
	tbl := tabletest.NewTable(tb, table.NewSchema("tinode"), opts...)
	return New(tbl, Config{}), test_data.InitTestData()
}

// counted returns an adapter on a fresh table whose client counts
// requests.
func counted(tb testing.TB) (*Adapter, *tabletest.RequestCounter, *test_data.TestData) {
	tb.Helper()
	rc := &tabletest.RequestCounter{}
	tbl := tabletest.NewTable(tb, table.NewSchema("tinode"))
	c := table.New(tabletest.NewClient(tb, rc.Option()), tbl.Schema(), func(o *table.Options) { o.Cipher = tabletest.Cipher() })
	return New(c, Config{}), rc, test_data.InitTestData()
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

func wantErr(tb testing.TB, err, want error) {
	tb.Helper()
	if !errors.Is(err, want) {
		tb.Fatalf("err = %v, want %v", err, want)
	}
}

// loadUsers creates the fixture users (the third is soft-deleted).
func loadUsers(tb testing.TB, a *Adapter, td *test_data.TestData) {
	tb.Helper()
	for _, u := range td.Users {
		must(tb, a.UserCreate(u))
	}
}

func uidOf(u *t.User) t.Uid { return t.ParseUid(u.Id) }

func newFixtures() *test_data.TestData { return test_data.InitTestData() }
