package ferryhook_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
)

// FH-3 (list sources for user, paginated and as an iterator) and FH-11
// sources.create / sources.listByUser.
func TestSourcesListByUser_FH3(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "src@example.com")
	other := mustUser(t, s, "other@example.com")
	mustSource(t, s, other.UserID, "not mine")
	want := map[fh.SourceID]fh.Source{}
	for i := range 5 {
		src := mustSource(t, s, u.UserID, "src "+string(rune('a'+i)))
		want[src.SourceID] = src
	}
	// Keys and profile share the partition; the SK prefix keeps them out.
	if _, err := s.APIKeys.Create(ctx(t), u.UserID, ferryhook.CreateAPIKeyInput{Name: "k"}); err != nil {
		t.Fatal(err)
	}
	got := map[fh.SourceID]fh.Source{}
	var cursor string
	pages := 0
	for {
		p, err := s.Sources.ByUser.List(ctx(t), fh.Source{UserID: u.UserID}, table.Limit(2), table.After(cursor))
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, src := range p.Items {
			got[src.SourceID] = src
		}
		if cursor = p.Cursor; cursor == "" {
			break
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ByUser.List pages (-want +got):\n%s", diff)
	}
	if pages < 3 {
		t.Errorf("%d pages of 2 for 5 sources, want at least 3", pages)
	}
	all, err := table.Collect(s.Sources.ByUser.All(ctx(t), fh.Source{UserID: u.UserID}, table.Limit(2)))
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 5 {
		t.Errorf("ByUser.All gave %d sources, want 5", len(all))
	}
}

// FH-4 (source by ID without the user, for ingestion) and FH-11
// sources.getById.
func TestSourcesGetByID_FH4(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "ingest@example.com")
	src := mustSource(t, s, u.UserID, "Stripe Prod")
	if src.SigningAlgorithm != fh.SigningHMACSHA256 || src.Status != fh.StatusActive {
		t.Fatalf("created source = %+v: want hmac-sha256, active", src)
	}
	got, err := s.Sources.GetByID(ctx(t), src.SourceID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(src, got); diff != "" {
		t.Errorf("GetByID (-want +got):\n%s", diff)
	}
	_, err = s.Sources.GetByID(ctx(t), fh.SourceIDs.New())
	wantIs(t, err, table.ErrNotFound)
}

// FH-11 sources.update / sources.delete, pause and resume, scoped to the
// owner: another user's ID gets ErrNotFound and changes nothing.
func TestSourcesUpdateDeleteScoped_FH11(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "owner@example.com")
	mallory := mustUser(t, s, "mallory@example.com")
	src := mustSource(t, s, u.UserID, "GitHub")

	name := "hijacked"
	_, err := s.Sources.Update(ctx(t), mallory.UserID, src.SourceID, ferryhook.SourceUpdate{Name: &name})
	wantIs(t, err, table.ErrNotFound)
	wantIs(t, s.Sources.Delete(ctx(t), mallory.UserID, src.SourceID), table.ErrNotFound)
	_, err = s.Sources.ByID.Get(ctx(t), fh.Source{UserID: mallory.UserID, SourceID: src.SourceID})
	wantIs(t, err, table.ErrNotFound)
	if got, err := s.Sources.ByID.Get(ctx(t), fh.Source{UserID: u.UserID, SourceID: src.SourceID}); err != nil || got.Name != "GitHub" || got.Status != fh.StatusActive {
		t.Fatalf("after another user's attempts: %+v, %v", got, err)
	}

	name = "GitHub Prod"
	upd, err := s.Sources.Update(ctx(t), u.UserID, src.SourceID, ferryhook.SourceUpdate{Name: &name})
	if err != nil {
		t.Fatal(err)
	}
	want := src
	want.Name = name
	if diff := cmp.Diff(want, upd); diff != "" {
		t.Errorf("Update (-want +got):\n%s", diff)
	}
	paused, err := s.Sources.Update(ctx(t), u.UserID, src.SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusPaused)})
	if err != nil || paused.Status != fh.StatusPaused {
		t.Fatalf("Pause = %v, %v", paused.Status, err)
	}
	resumed, err := s.Sources.Update(ctx(t), u.UserID, src.SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusActive)})
	if err != nil || resumed.Status != fh.StatusActive {
		t.Fatalf("Resume = %v, %v", resumed.Status, err)
	}

	if err := s.Sources.Delete(ctx(t), u.UserID, src.SourceID); err != nil {
		t.Fatal(err)
	}
	wantIs(t, s.Sources.Delete(ctx(t), u.UserID, src.SourceID), table.ErrNotFound)
	_, err = s.Sources.GetByID(ctx(t), src.SourceID)
	wantIs(t, err, table.ErrNotFound)
	_, err = s.Sources.Update(ctx(t), u.UserID, src.SourceID, ferryhook.SourceUpdate{Name: &name})
	wantIs(t, err, table.ErrNotFound)
	p, err := s.Sources.ByUser.List(ctx(t), fh.Source{UserID: u.UserID})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 0 {
		t.Errorf("ByUser.List after delete = %d sources, want 0", len(p.Items))
	}
}

// FH-11 sources.*: bad input.
func TestSourcesBadInput_FH11(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "srcbad@example.com")
	src := mustSource(t, s, u.UserID, "ok")
	cases := []struct {
		in    ferryhook.CreateSourceInput
		field string
	}{
		{ferryhook.CreateSourceInput{Provider: fh.ProviderStripe}, "name"},
		{ferryhook.CreateSourceInput{Name: "x", Provider: "paypal"}, "provider"},
		{ferryhook.CreateSourceInput{Name: "x", Provider: fh.ProviderCustom, SigningSecret: "s", SigningAlgorithm: "md5"}, "signingAlgorithm"},
		{ferryhook.CreateSourceInput{Name: "x", Provider: fh.ProviderCustom, SigningAlgorithm: fh.SigningHMACSHA1}, "signingAlgorithm"},
	}
	for _, c := range cases {
		_, err := s.Sources.Create(ctx(t), u.UserID, c.in)
		wantInvalid(t, err, c.field)
	}
	_, err := s.Sources.Create(ctx(t), "usr_bad", ferryhook.CreateSourceInput{Name: "x", Provider: fh.ProviderGitHub})
	wantInvalid(t, err, "userId")
	_, err = s.Sources.Create(ctx(t), fh.UserIDs.New(), ferryhook.CreateSourceInput{Name: "x", Provider: fh.ProviderGitHub})
	wantIs(t, err, table.ErrNotFound)

	deleted := fh.StatusDeleted
	_, err = s.Sources.Update(ctx(t), u.UserID, src.SourceID, ferryhook.SourceUpdate{Status: &deleted})
	wantInvalid(t, err, "status")
	empty := ""
	_, err = s.Sources.Update(ctx(t), u.UserID, src.SourceID, ferryhook.SourceUpdate{Name: &empty})
	wantInvalid(t, err, "name")
	_, err = s.Sources.Update(ctx(t), u.UserID, src.SourceID, ferryhook.SourceUpdate{})
	wantInvalid(t, err, "update")
	_, err = s.Sources.GetByID(ctx(t), "src_x")
	wantInvalid(t, err, "sourceId")
	_, err = s.Sources.ByUser.List(ctx(t), fh.Source{UserID: u.UserID}, table.Limit(-1))
	wantInvalid(t, err, "limit")
	_, err = s.Sources.ByUser.List(ctx(t), fh.Source{UserID: u.UserID}, table.After("garbage"))
	wantIs(t, err, table.ErrInvalidCursor)
	got, err := s.Sources.ByID.Get(ctx(t), fh.Source{UserID: u.UserID, SourceID: src.SourceID})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(src, got); diff != "" {
		t.Errorf("source changed by bad input (-want +got):\n%s", diff)
	}
}
