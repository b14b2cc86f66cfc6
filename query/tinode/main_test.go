package tinode_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

func TestMain(m *testing.M) { tabletest.Main(m) }

// newStore returns a store on a fresh table of its own.
func newStore(t testing.TB, opts ...func(*table.Options)) *tinode.Store {
	t.Helper()
	return tinode.New(tabletest.NewTable(t, table.NewSchema("tinode"), opts...))
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}

func mustUser(t testing.TB, s *tinode.Store, id tn.UserID, tags ...string) tn.User {
	t.Helper()
	u := tn.User{Id: id, Access: tn.DefaultAccess{Auth: tn.ModeCPublic}, Public: tn.JSON(map[string]string{"fn": string(id)}), Tags: tags}
	if err := s.Users.Create(ctx(t), &u); err != nil {
		t.Fatalf("create user %s: %v", id, err)
	}
	return u
}

func mustTopic(t testing.TB, s *tinode.Store, name tn.TopicName, members ...tn.UserID) tn.Topic {
	t.Helper()
	top := tn.Topic{Id: name, Access: tn.DefaultAccess{Auth: tn.ModeCPublic}}
	var subs []*tn.Subscription
	for _, u := range members {
		subs = append(subs, &tn.Subscription{Topic: name, User: u, ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull})
	}
	if err := s.Topics.Create(ctx(t), &top, subs...); err != nil {
		t.Fatalf("create topic %s: %v", name, err)
	}
	return top
}

func wantInvalid(t testing.TB, err error, field string) {
	t.Helper()
	var ve *table.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want a *table.ValidationError for %s", err, field)
	}
	if ve.Field != field {
		t.Fatalf("validation error names %q (%v), want %q", ve.Field, err, field)
	}
	if !errors.Is(err, table.ErrInvalidInput) {
		t.Fatalf("err = %v does not match table.ErrInvalidInput", err)
	}
}

func wantIs(t testing.TB, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("err = %v, want %v", err, target)
	}
}
