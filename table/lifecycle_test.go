package table_test

import (
	"errors"
	"testing"
	"time"

	"github.com/singletable/singletable/table"
)

type session struct {
	ID        string    `dynamo:"id"`
	CreatedAt time.Time `dynamo:"createdAt"`
	UpdatedAt time.Time `dynamo:"updatedAt"`
}

func TestTimestampsAndTTLAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	clock := &now
	f := newFixture(t, func(o *table.Options) { o.Now = func() time.Time { return *clock } })
	c := ctx(t)
	sessions := table.NewEntity(f.t, table.Def[session]{
		Type:  "Session",
		Keys:  table.Template{PK: "SESSION#{id}", SK: "SESSION"},
		Touch: table.Timestamps(func(s *session) (*time.Time, *time.Time) { return &s.CreatedAt, &s.UpdatedAt }),
		TTL:   table.TTL{From: "createdAt", After: time.Hour},
	})
	s := session{ID: "s1"}
	if err := sessions.Create(c, &s); err != nil {
		t.Fatal(err)
	}
	if !s.CreatedAt.Equal(now) || !s.UpdatedAt.Equal(now) {
		t.Errorf("after create: %v %v", s.CreatedAt, s.UpdatedAt)
	}
	later := now.Add(30 * time.Minute)
	clock = &later
	k := table.Key{PK: "SESSION#s1", SK: "SESSION"}
	got, err := sessions.Update(c, k, func(*session) error { return nil })
	if err != nil || !got.CreatedAt.Equal(now) || !got.UpdatedAt.Equal(later) {
		t.Errorf("after update: %+v %v", got, err)
	}
	past := now.Add(61 * time.Minute) // created + 1h has passed
	clock = &past
	if _, err := sessions.Get(c, k); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("an hour after creation: %v, want ErrNotFound", err)
	}
}
