package listbackup_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// LB-64: update and delete a team; change a member's role (in a team and
// in the account).
func TestTeamsUpdateDeleteAndRoles_LB64(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	must(t, f.Teams.Create(c, &lb.Team{AccountID: "a1", TeamID: "t1", TeamName: "Ops",
		Members: []lb.TeamMember{{UserID: "u1", Role: lb.TeamRoleLead}, {UserID: "u2", Role: lb.TeamRoleMember}}}))
	must(t, f.Teams.Create(c, &lb.Team{AccountID: "a1", TeamID: "t2", TeamName: "Dev"}))

	tm, err := f.Teams.Update(c, "t1", func(t *lb.Team) error { t.TeamName = "Operations"; t.Description = "24/7"; return nil })
	must(t, err)
	if tm.TeamName != "Operations" || !tm.UpdatedAt.Equal(t0) {
		t.Errorf("LB-64 update returned %+v", tm)
	}
	_, err = f.Teams.Update(c, "t1", func(t *lb.Team) error { t.AccountID = "a2"; return nil })
	wantInvalid(t, err, "accountId")
	_, err = f.Teams.Update(c, "nope", func(*lb.Team) error { return nil })
	wantIs(t, err, table.ErrNotFound)

	tm, err = f.Teams.SetMemberRole(c, "t1", "u2", lb.TeamRoleLead)
	must(t, err)
	got, err := f.Teams.ByID.Get(c, lb.Team{TeamID: "t1"})
	must(t, err)
	want := []lb.TeamMember{{UserID: "u1", Role: lb.TeamRoleLead}, {UserID: "u2", Role: lb.TeamRoleLead}}
	if diff := cmp.Diff(want, got.Members); diff != "" || got.TeamName != "Operations" || got.Description != "24/7" {
		t.Errorf("LB-64 role change (-want +got):\n%s\n%+v", diff, got)
	}
	_, err = f.Teams.SetMemberRole(c, "t1", "u9", lb.TeamRoleLead)
	wantIs(t, err, table.ErrNotFound)

	// The account member's role moves its LB-10 index entry.
	must(t, f.Memberships.Add(c, &lb.Membership{UserID: "u1", AccountID: "a1", Role: lb.MemberViewer}))
	_, err = f.Memberships.SetRole(c, listbackup.MembershipRef{UserID: "u1", AccountID: "a1"}, lb.MemberAdmin)
	must(t, err)
	p, err := f.Memberships.ByAccount.List(c, lb.Membership{AccountID: "a1", Role: lb.MemberAdmin})
	if diff := cmp.Diff([]lb.UserID{"u1"}, ids(collect(t, p, err), func(m lb.Membership) lb.UserID { return m.UserID })); diff != "" {
		t.Errorf("LB-64 account role (-want +got):\n%s", diff)
	}

	must(t, f.Teams.Delete(c, "t1"))
	_, err = f.Teams.ByID.Get(c, lb.Team{TeamID: "t1"})
	wantIs(t, err, table.ErrNotFound)
	wantIs(t, f.Teams.Delete(c, "t1"), table.ErrNotFound)
	tp, err := f.Teams.ByAccount.List(c, lb.Team{AccountID: "a1"})
	if diff := cmp.Diff([]lb.TeamID{"t2"}, ids(collect(t, tp, err), func(x lb.Team) lb.TeamID { return x.TeamID })); diff != "" {
		t.Errorf("LB-64 list after delete (-want +got):\n%s", diff)
	}
}

// stored returns the item with key k as DynamoDB holds it (deleted or
// not), or nil.
func stored(t *testing.T, f *fixture, k table.Key) map[string]types.AttributeValue {
	t.Helper()
	out, err := f.tbl.Client().GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName: aws.String(f.tbl.Name()), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}},
	})
	must(t, err)
	return out.Item
}

// LB-65: update and soft-delete a source and a connection; soft-deleted
// ones are kept in the table but are not found and are in no list.
func TestSourcesConnectionsUpdateSoftDelete_LB65(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	for _, s := range []lb.Source{
		{AccountID: "a1", SourceID: "s1", SourceName: "Keap", Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth},
		{AccountID: "a1", SourceID: "s2", SourceName: "Stripe", Platform: lb.PlatformStripe, ConnectionType: lb.ConnAPIKey},
	} {
		must(t, f.Sources.Create(c, &s))
	}
	must(t, f.Schedules.Create(c, &lb.SyncSchedule{SourceID: "s1", ScheduleID: "h1", ScheduleType: lb.ScheduleHourly,
		DataTypes: []string{"contacts"}, IsActive: true, NextRunAt: t0.Add(-time.Minute)}))
	f.clock.Add(time.Minute)
	s, err := f.Sources.Update(c, "s1", func(s *lb.Source) error { s.SourceName = "Keap EU"; return nil }) // LB-65 update
	must(t, err)
	if s.SourceName != "Keap EU" || !s.UpdatedAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("LB-65 source update: %+v", s)
	}
	_, err = f.Sources.Update(c, "s1", func(s *lb.Source) error { s.AccountID = "a2"; return nil })
	wantInvalid(t, err, "accountId")

	must(t, f.Sources.Delete(c, "s1")) // LB-65 soft delete
	_, err = f.Sources.ByID.Get(c, lb.Source{SourceID: "s1"})
	wantIs(t, err, table.ErrNotFound)
	wantIs(t, f.Sources.Delete(c, "s1"), table.ErrNotFound)
	_, err = f.Sources.Update(c, "s1", func(*lb.Source) error { return nil })
	wantIs(t, err, table.ErrNotFound)
	wantIs(t, f.Sources.Delete(c, "nope"), table.ErrNotFound)
	p, err := f.Sources.ByAccount.List(c, lb.Source{AccountID: "a1"})
	if diff := cmp.Diff([]lb.SourceID{"s2"}, srcIDs(collect(t, p, err))); diff != "" {
		t.Errorf("LB-65 list after soft delete (-want +got):\n%s", diff)
	}
	p, err = f.Sources.ByStatus.List(c, lb.Source{AccountID: "a1", Status: lb.SourceDisconnected})
	if got := collect(t, p, err); len(got) != 0 {
		t.Errorf("LB-65: deleted source listed by status: %+v", got)
	}
	due, err := f.Schedules.Due(c, f.clock.Now())
	if got := collect(t, due, err); len(got) != 0 {
		t.Errorf("LB-65: a deleted source's schedule is still due: %+v", got)
	}
	k := listbackup.Key(lb.Source{SourceID: "s1"})
	it := stored(t, f, k)
	if it == nil || it["status"] == nil || it["deletedAt"] == nil || it["GSI1PK"] != nil || it["GSI2PK"] != nil {
		t.Errorf("LB-65: soft-deleted source as stored: %v", it)
	}

	must(t, f.Connections.Create(c, &lb.Connection{ConnectionID: "c1", AccountID: "a1", UserID: "u1", Platform: lb.PlatformKeap,
		ConnectionType: lb.ConnOAuth, Credentials: lb.ConnectionCredentials{AccessToken: "at", RefreshToken: "rt"}}))
	must(t, f.Connections.Create(c, &lb.Connection{ConnectionID: "c2", AccountID: "a1", UserID: "u1", Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth}))
	cn, err := f.Connections.Update(c, "c1", func(c *lb.Connection) error { c.Status = lb.ConnectionError; return nil }) // LB-65 update
	must(t, err)
	if cn.Status != lb.ConnectionError || cn.Credentials.AccessToken != "at" {
		t.Errorf("LB-65 connection update: %+v", cn)
	}
	_, err = f.Connections.Update(c, "c1", func(c *lb.Connection) error { c.UserID = "u2"; return nil })
	wantInvalid(t, err, "userId")
	must(t, f.Connections.Delete(c, "c1")) // LB-65 soft delete
	_, err = f.Connections.ByID.Get(c, lb.Connection{ConnectionID: "c1"})
	wantIs(t, err, table.ErrNotFound)
	wantIs(t, f.Connections.Delete(c, "c1"), table.ErrNotFound)
	cid := func(x lb.Connection) lb.ConnectionID { return x.ConnectionID }
	cp, err := f.Connections.ByAccountPlatform.List(c, lb.Connection{AccountID: "a1", Platform: lb.PlatformKeap})
	if diff := cmp.Diff([]lb.ConnectionID{"c2"}, ids(collect(t, cp, err), cid)); diff != "" {
		t.Errorf("LB-65 LB-28 after delete (-want +got):\n%s", diff)
	}
	cp, err = f.Connections.ByUserPlatform.List(c, lb.Connection{UserID: "u1", Platform: lb.PlatformKeap})
	if diff := cmp.Diff([]lb.ConnectionID{"c2"}, ids(collect(t, cp, err), cid)); diff != "" {
		t.Errorf("LB-65 LB-29 after delete (-want +got):\n%s", diff)
	}
	k = listbackup.Key(lb.Connection{ConnectionID: "c1"})
	it = stored(t, f, k)
	if it == nil || it["deletedAt"] == nil || it["GSI1PK"] != nil || it["GSI2PK"] != nil {
		t.Errorf("LB-65: soft-deleted connection as stored: %v", it)
	}
	if cr, ok := it["credentials"]; ok {
		if _, ok := cr.(*types.AttributeValueMemberM).Value["accessToken"]; ok {
			t.Errorf("LB-65: a deleted connection keeps its access token: %v", cr)
		}
	}
}

// LB-67: a webhook delete is soft: the item stays, Get does not find it,
// active lists exclude it.
func TestWebhookSoftDelete_LB67(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	for _, w := range []lb.Webhook{
		{WebhookID: "w1", AccountID: "a1", URL: "https://a.example/h", Events: []string{"sync.completed"}, IsActive: true, Secret: "s1"},
		{WebhookID: "w2", AccountID: "a1", URL: "https://b.example/h", Events: []string{"sync.completed"}, IsActive: true, Secret: "s2"},
	} {
		must(t, f.Webhooks.Create(c, &w))
	}
	f.clock.Add(time.Hour)
	must(t, f.Webhooks.Delete(c, "w1"))
	_, err := f.Webhooks.ByID.Get(c, lb.Webhook{WebhookID: "w1"})
	wantIs(t, err, table.ErrNotFound)
	wantIs(t, f.Webhooks.Delete(c, "w1"), table.ErrNotFound)
	_, err = f.Webhooks.Update(c, "w1", func(w *lb.Webhook) error { w.IsActive = true; return nil })
	wantIs(t, err, table.ErrNotFound)
	wid := func(x lb.Webhook) lb.WebhookID { return x.WebhookID }
	p, err := f.Webhooks.Active.List(c, lb.Webhook{AccountID: "a1"})
	if diff := cmp.Diff([]lb.WebhookID{"w2"}, ids(collect(t, p, err), wid)); diff != "" {
		t.Errorf("LB-67 active after delete (-want +got):\n%s", diff)
	}
	p, err = f.Webhooks.ActiveForEvent.List(c, lb.Webhook{AccountID: "a1", Events: []string{string("sync.completed")}})
	if diff := cmp.Diff([]lb.WebhookID{"w2"}, ids(collect(t, p, err), wid)); diff != "" {
		t.Errorf("LB-67 active for event after delete (-want +got):\n%s", diff)
	}
	k := listbackup.Key(lb.Webhook{WebhookID: "w1"})
	it := stored(t, f, k)
	want := &types.AttributeValueMemberN{Value: strconv.FormatInt(t0.Add(time.Hour).Unix(), 10)}
	if it == nil || !cmp.Equal(want, it["deletedAt"], cmpopts.IgnoreUnexported(types.AttributeValueMemberN{})) ||
		!cmp.Equal(&types.AttributeValueMemberBOOL{Value: false}, it["isActive"], cmpopts.IgnoreUnexported(types.AttributeValueMemberBOOL{})) || it["GSI1PK"] != nil {
		t.Errorf("LB-67: soft-deleted webhook as stored: %v", it)
	}
	_, err = f.Webhooks.Update(c, "w2", func(w *lb.Webhook) error { w.AccountID = "a9"; return nil })
	wantInvalid(t, err, "accountId")
}

// LB-66: update and delete a tag; the delete detaches its resources.
func TestTagsUpdateDelete_LB66(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	must(t, f.Tags.Create(c, &lb.Tag{AccountID: "a1", TagID: "t1", TagKey: "env", TagValue: "prod", ResourceType: lb.ResSource}))
	must(t, f.Tags.Create(c, &lb.Tag{AccountID: "a1", TagID: "t2", TagKey: "env", TagValue: "dev", ResourceType: lb.ResSource}))
	ref := listbackup.TagRef{AccountID: "a1", ResourceType: lb.ResSource, TagKey: "env", TagValue: "prod"}
	for _, r := range []string{"s1", "s2"} {
		_, err := f.Tags.Attach(c, ref, r, "u1")
		must(t, err)
	}
	tg, err := f.Tags.Update(c, ref, func(t *lb.Tag) error { t.Color, t.Description = "#00ff00", "live"; return nil }) // LB-66 update
	must(t, err)
	if tg.Color != "#00ff00" || tg.Description != "live" || len(tg.Resources) != 2 {
		t.Errorf("LB-66 update: %+v", tg)
	}
	_, err = f.Tags.Update(c, ref, func(t *lb.Tag) error { t.TagValue = "production"; return nil })
	wantInvalid(t, err, "tagValue")
	_, err = f.Tags.Update(c, ref, func(t *lb.Tag) error { t.Color = "green"; return nil })
	wantInvalid(t, err, "color")

	must(t, f.Tags.Delete(c, ref)) // LB-66 delete
	_, err = f.Tags.Get(c, "t1")
	wantIs(t, err, table.ErrNotFound)
	wantIs(t, f.Tags.Delete(c, ref), table.ErrNotFound)
	_, err = f.Tags.Attach(c, ref, "s3", "u1")
	wantIs(t, err, table.ErrNotFound)
	p, err := f.Tags.ByResourceType.List(c, lb.Tag{AccountID: "a1", ResourceType: lb.ResSource})
	if diff := cmp.Diff([]lb.TagID{"t2"}, ids(collect(t, p, err), func(x lb.Tag) lb.TagID { return x.TagID })); diff != "" {
		t.Errorf("LB-66 list after delete (-want +got):\n%s", diff)
	}
	// The resources went with the tag: a new tag of the same key and value
	// starts with none.
	must(t, f.Tags.Create(c, &lb.Tag{AccountID: "a1", TagID: "t3", TagKey: "env", TagValue: "prod", ResourceType: lb.ResSource}))
	tg, err = f.Tags.Get(c, "t3")
	must(t, err)
	if len(tg.Resources) != 0 {
		t.Errorf("LB-66: resources survived the delete: %+v", tg.Resources)
	}
}

// LB-63: update and soft-delete an account.
func TestAccountsUpdateDelete_LB63(t *testing.T) {
	f := newFixture(t)
	seedTree(t, f)
	c := ctx(t)
	a, err := f.Accounts.Update(c, "sub", func(a *lb.Account) error { a.AccountName = "Acme Europe"; a.Plan = lb.PlanStarter; return nil })
	must(t, err)
	if a.AccountName != "Acme Europe" || a.AccountPath != "/acme/eu/" {
		t.Errorf("LB-63 update: %+v", a)
	}
	_, err = f.Accounts.Update(c, "sub", func(a *lb.Account) error { a.AccountPath = "/x/"; return nil })
	wantInvalid(t, err, "accountPath")
	_, err = f.Accounts.Update(c, "sub", func(a *lb.Account) error { a.ParentAccountID = "other"; return nil })
	wantInvalid(t, err, "parentAccountId")
	_, err = f.Accounts.Update(c, "nope", func(*lb.Account) error { return nil })
	wantIs(t, err, table.ErrNotFound)

	wantIs(t, f.Accounts.Delete(c, "div"), table.ErrConflict) // has a child (loc)
	must(t, f.Accounts.Delete(c, "loc"))
	must(t, f.Accounts.Delete(c, "div"))
	_, err = f.Accounts.ByID.Get(c, lb.Account{AccountID: "div"})
	wantIs(t, err, table.ErrNotFound)
	wantIs(t, f.Accounts.Delete(c, "div"), table.ErrNotFound)
	_, err = f.Accounts.Update(c, "div", func(*lb.Account) error { return nil })
	wantIs(t, err, table.ErrNotFound)
	// No new child under a deleted account.
	wantIs(t, f.Accounts.Create(c, &lb.Account{AccountID: "lyon", AccountName: "Lyon", ParentAccountID: "div",
		AccountPath: "/acme/eu/retail/lyon/", AccountType: lb.AccountLocation, Level: 3}), table.ErrNotFound)
	p, err := f.Accounts.Subtree.List(c, lb.Account{AccountPath: "/acme/eu/"})
	if diff := cmp.Diff([]lb.AccountID{"sub", "loc2"}, acctIDs(collect(t, p, err))); diff != "" {
		t.Errorf("LB-63 subtree after delete (-want +got):\n%s", diff)
	}
	p, err = f.Accounts.Children.List(c, lb.Account{ParentAccountID: "sub"})
	if diff := cmp.Diff([]lb.AccountID{"loc2"}, acctIDs(collect(t, p, err))); diff != "" {
		t.Errorf("LB-63 children after delete (-want +got):\n%s", diff)
	}
	p, err = f.Accounts.ByType.List(c, lb.Account{AccountType: lb.AccountDivision})
	if got := collect(t, p, err); len(got) != 0 {
		t.Errorf("LB-63: deleted division still listed by type: %v", acctIDs(got))
	}
	k := listbackup.Key(lb.Account{AccountID: "div"})
	it := stored(t, f, k)
	if it == nil || it["deletedAt"] == nil || it["GSI1PK"] != nil || it["GSI3PK"] != nil {
		t.Errorf("LB-63: soft-deleted account as stored: %v", it)
	}
}

type pathLevel struct {
	Path  string
	Level int
}

func pathsOf(t *testing.T, s *listbackup.Store, ids ...lb.AccountID) map[lb.AccountID]pathLevel {
	t.Helper()
	out := map[lb.AccountID]pathLevel{}
	for _, id := range ids {
		a, err := s.Accounts.ByID.Get(ctx(t), lb.Account{AccountID: id})
		must(t, err)
		out[id] = pathLevel{a.AccountPath, a.Level}
	}
	return out
}

// LB-63: move an account and its subtree under another parent; the move
// is resumable after an interruption.
func TestAccountsMoveSubtreeResumable_LB63(t *testing.T) {
	t.Parallel()
	clk := &clock{t: t0}
	var requests, cancelAt atomic.Int64
	var cancelMu sync.Mutex
	var cancel context.CancelFunc
	tbl := tabletest.NewTable(t, listbackup.Schema("listbackup"), func(o *table.Options) {
		o.Now = clk.Now
		o.Observer = func(context.Context, table.Event) {
			if requests.Add(1) == cancelAt.Load() {
				cancelMu.Lock()
				cancel()
				cancelMu.Unlock()
			}
		}
	})
	f := &fixture{Store: listbackup.New(tbl), tbl: tbl, clock: clk}
	seedTree(t, f)
	c := ctx(t)
	// A deeper subtree than the seed: 30 more accounts under /acme/eu/hq/.
	for i := range 30 {
		id := lb.AccountID(fmt.Sprintf("desk%02d", i))
		must(t, f.Accounts.Create(c, &lb.Account{AccountID: id, AccountName: string(id), ParentAccountID: "loc2",
			AccountPath: "/acme/eu/hq/" + string(id) + "/", AccountType: lb.AccountLocation, Level: 3}))
	}
	_, err := f.Accounts.Move(c, "sub", "div") // into its own subtree
	wantInvalid(t, err, "parentAccountId")
	_, err = f.Accounts.Move(c, "nope", "other")
	wantIs(t, err, table.ErrNotFound)

	// Interrupt the move after its 9th request: the mark is written, the
	// descendants are partly rewritten.
	cancelMu.Lock()
	mctx, cn := context.WithCancel(c)
	cancel = cn
	cancelMu.Unlock()
	cancelAt.Store(requests.Load() + 9)
	_, err = f.Accounts.Move(mctx, "sub", "other")
	if err == nil {
		t.Fatal("LB-63: the interrupted move reported success")
	}
	a, err := f.Accounts.ByID.Get(c, lb.Account{AccountID: "sub"})
	must(t, err)
	if !a.Move.Pending() || a.Move.ToPath != "/other/eu/" || a.AccountPath != "/acme/eu/" || a.ParentAccountID != "root" {
		t.Errorf("LB-63 mid-move account: %+v", a)
	}
	// Readers mid-move: the account is still in its old parent's children.
	p, err := f.Accounts.Children.List(c, lb.Account{ParentAccountID: "root"})
	if diff := cmp.Diff([]lb.AccountID{"sub", "subx"}, acctIDs(collect(t, p, err))); diff != "" {
		t.Errorf("LB-63 mid-move children of root (-want +got):\n%s", diff)
	}
	_, err = f.Accounts.Move(c, "sub", "root")
	wantIs(t, err, table.ErrConflict) // another move is under way
	wantIs(t, f.Accounts.Delete(c, "sub"), table.ErrConflict)

	// Resume: the same call finishes the job.
	cancelAt.Store(0)
	a, err = f.Accounts.Move(c, "sub", "other")
	must(t, err)
	if a.Move.Pending() || a.AccountPath != "/other/eu/" || a.ParentAccountID != "other" || a.Level != 1 {
		t.Errorf("LB-63 moved account: %+v", a)
	}
	want := map[lb.AccountID]pathLevel{
		"sub": {"/other/eu/", 1}, "div": {"/other/eu/retail/", 2}, "loc": {"/other/eu/retail/paris/", 3},
		"loc2": {"/other/eu/hq/", 2}, "desk07": {"/other/eu/hq/desk07/", 3}, "subx": {"/acme/eux/", 1}, "root": {"/acme/", 0},
	}
	if diff := cmp.Diff(want, pathsOf(t, f.Store, "sub", "div", "loc", "loc2", "desk07", "subx", "root")); diff != "" {
		t.Errorf("LB-63 paths after move (-want +got):\n%s", diff)
	}
	all, err := table.Collect(f.Accounts.Subtree.All(c, lb.Account{AccountPath: "/other/"}, table.Limit(10)))
	must(t, err)
	if len(all) != 1+4+30 || all[0].AccountID != "other" || all[1].AccountID != "sub" {
		t.Errorf("LB-63 subtree of /other/: %d accounts %v", len(all), acctIDs(all))
	}
	for _, x := range all {
		if !strings.HasPrefix(x.AccountPath, "/other/") {
			t.Errorf("LB-63: %s listed under /other/ with path %s", x.AccountID, x.AccountPath)
		}
	}
	p, err = f.Accounts.Subtree.List(c, lb.Account{AccountPath: "/acme/"})
	if diff := cmp.Diff([]lb.AccountID{"root", "subx"}, acctIDs(collect(t, p, err))); diff != "" {
		t.Errorf("LB-63 old tree after move (-want +got):\n%s", diff)
	}
	p, err = f.Accounts.Children.List(c, lb.Account{ParentAccountID: "other"})
	if diff := cmp.Diff([]lb.AccountID{"sub"}, acctIDs(collect(t, p, err))); diff != "" {
		t.Errorf("LB-63 children of the new parent (-want +got):\n%s", diff)
	}
	// Moving again to the same parent changes nothing.
	before := requests.Load()
	_, err = f.Accounts.Move(c, "sub", "other")
	must(t, err)
	if n := requests.Load() - before; n != 1 {
		t.Errorf("LB-63: a move to the current parent sent %d requests, want 1", n)
	}
}

// interruptible is a fixture whose context, armed with interruptAfter,
// is cancelled once n more requests have been sent.
type interruptible struct {
	*fixture
	cancelAt atomic.Int64
	mu       sync.Mutex
	cancel   context.CancelFunc
}

func newInterruptible(t *testing.T) *interruptible {
	t.Helper()
	t.Parallel()
	f := &interruptible{fixture: &fixture{clock: &clock{t: t0}}}
	f.tbl = tabletest.NewTable(t, listbackup.Schema("listbackup"), func(o *table.Options) {
		o.Now = f.clock.Now
		o.Observer = func(context.Context, table.Event) {
			if f.requests.Add(1) == f.cancelAt.Load() {
				f.mu.Lock()
				f.cancel()
				f.mu.Unlock()
			}
		}
	})
	f.Store = listbackup.New(f.tbl)
	return f
}

// interruptAfter returns a context cancelled after n more requests.
func (f *interruptible) interruptAfter(t *testing.T, n int64) context.Context {
	f.mu.Lock()
	c, cancel := context.WithCancel(ctx(t))
	f.cancel = cancel
	f.mu.Unlock()
	f.cancelAt.Store(f.requests.Load() + n)
	return c
}

// seedUserData gives user u memberships in a1 and a2 (and a team in
// each), refresh tokens, API keys and notifications; it returns an API
// key's plaintext.
func seedUserData(t *testing.T, f *fixture, u lb.UserID, tokens int) string {
	t.Helper()
	c := ctx(t)
	must(t, f.Users.Create(c, newUser(string(u), string(u)+"@example.com", "user-"+string(u))))
	var key string
	for _, a := range []lb.AccountID{"a1", "a2"} {
		must(t, f.Memberships.Add(c, &lb.Membership{UserID: u, AccountID: a, Role: lb.MemberMember}))
		team := lb.TeamID("team-" + string(a))
		_, err := f.Teams.ByID.Get(c, lb.Team{TeamID: team})
		if errors.Is(err, table.ErrNotFound) {
			must(t, f.Teams.Create(c, &lb.Team{AccountID: a, TeamID: team, TeamName: "T"}))
		}
		_, err = f.Teams.Update(c, team, func(t *lb.Team) error {
			t.Members = append(t.Members, lb.TeamMember{UserID: u, Role: lb.TeamRoleMember})
			return nil
		})
		must(t, err)
		plain, _, err := f.APIKeys.Create(c, listbackup.NewAPIKey{AccountID: a, UserID: u, Name: "ci", Permissions: []string{"read"}})
		must(t, err)
		key = plain
	}
	for range tokens {
		_, _, err := f.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: u, AccountID: "a1"})
		must(t, err)
	}
	for i := range 3 {
		must(t, f.Notifications.Send(c, &lb.Notification{UserID: u, NotificationID: lb.NotificationID(fmt.Sprint("n", i)), AccountID: "a1",
			Type: lb.NotifyInApp, Category: lb.CategoryJob, Message: "hi"}))
	}
	return key
}

// LB-68: remove a user from an account (membership and the account's
// teams).
func TestMembershipRemove_LB68(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	seedUserData(t, f, "u1", 1)
	seedUserData(t, f, "u2", 1)
	must(t, f.Memberships.Remove(c, "u1", "a1"))
	_, err := f.Memberships.ByID.Get(c, lb.Membership{UserID: "u1", AccountID: "a1"})
	wantIs(t, err, table.ErrNotFound)
	wantIs(t, f.Memberships.Remove(c, "u1", "a1"), table.ErrNotFound)
	p, err := f.Memberships.ByAccount.List(c, lb.Membership{AccountID: "a1"})
	if diff := cmp.Diff([]lb.UserID{"u2"}, ids(collect(t, p, err), func(m lb.Membership) lb.UserID { return m.UserID })); diff != "" {
		t.Errorf("LB-68 members of a1 (-want +got):\n%s", diff)
	}
	tm, err := f.Teams.ByID.Get(c, lb.Team{TeamID: "team-a1"})
	must(t, err)
	if diff := cmp.Diff([]lb.TeamMember{{UserID: "u2", Role: lb.TeamRoleMember}}, tm.Members); diff != "" {
		t.Errorf("LB-68 team of a1 (-want +got):\n%s", diff)
	}
	tm, err = f.Teams.ByID.Get(c, lb.Team{TeamID: "team-a2"})
	must(t, err)
	if len(tm.Members) != 2 {
		t.Errorf("LB-68: the team of another account changed: %+v", tm.Members)
	}
	_, err = f.Memberships.ByID.Get(c, lb.Membership{UserID: "u1", AccountID: "a2"})
	must(t, err)
}

// LB-68: erase a user with all their data, batched and resumable; the
// email and username are free again.
func TestUserErase_LB68(t *testing.T) {
	f := newInterruptible(t)
	c := ctx(t)
	key1 := seedUserData(t, f.fixture, "u1", 30) // 30 tokens: more than one BatchWriteItem
	key2 := seedUserData(t, f.fixture, "u2", 2)
	// What ListBackup's own code keeps per user (LB-72, LB-76, LB-80).
	for _, u := range []lb.UserID{"u1", "u2"} {
		for i := range 3 {
			must(t, f.Inbox.Create(c, &lb.InboxNotification{NotificationID: lb.NotificationID(fmt.Sprintf("n-%s-%d", u, i)), AccountID: "a1", UserID: u,
				Type: "info", Title: "t", Message: "m", Status: "unread"}))
		}
		must(t, f.MFACodes.Create(c, &lb.MFACode{CodeID: lb.MFACodeID("mfa-" + string(u)), UserID: u, Code: "123456",
			CreatedAt: f.clock.Now(), ExpiresAt: f.clock.Now().Add(5 * time.Minute)}))
		must(t, f.TeamMembers.Add(c, &lb.TeamMembership{TeamID: "code-team", UserID: u, Role: "member"}))
	}

	// Interrupted after 6 requests: the user is still there.
	if err := f.Users.Erase(f.interruptAfter(t, 6), "u1"); err == nil {
		t.Fatal("LB-68: the interrupted erasure reported success")
	}
	f.cancelAt.Store(0)
	_, err := f.Users.ByID.Get(c, lb.User{UserID: "u1"})
	must(t, err)
	// Calling again finishes the job.
	must(t, f.Users.Erase(c, "u1"))
	wantIs(t, f.Users.Erase(c, "u1"), table.ErrNotFound)

	_, err = f.Users.ByID.Get(c, lb.User{UserID: "u1"})
	wantIs(t, err, table.ErrNotFound)
	_, err = f.Users.GetByEmail(c, "u1@example.com")
	wantIs(t, err, table.ErrNotFound)
	mp, err := f.Memberships.ByUser.List(c, lb.Membership{UserID: "u1"})
	if got := collect(t, mp, err); len(got) != 0 {
		t.Errorf("LB-68: memberships left: %+v", got)
	}
	rp, err := f.RefreshTokens.ByUser.List(c, lb.RefreshToken{UserID: "u1"})
	if got := collect(t, rp, err); len(got) != 0 {
		t.Errorf("LB-68: %d refresh tokens left", len(got))
	}
	// their family items went with them (a test may Scan; requests do not)
	out, err := f.tbl.Client().Scan(c, &dynamodb.ScanInput{TableName: aws.String(f.tbl.Name()), ConsistentRead: aws.Bool(true),
		FilterExpression:          aws.String("#t = :t"),
		ExpressionAttributeNames:  map[string]string{"#t": "_type"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":t": &types.AttributeValueMemberS{Value: listbackup.TypeTokenFamily}}})
	must(t, err)
	for _, it := range out.Items {
		if u, _ := it["userId"].(*types.AttributeValueMemberS); u != nil && u.Value == "u1" {
			t.Errorf("LB-68: token family %v of u1 left", it["tokenFamily"])
		}
	}
	if len(out.Items) != 2 {
		t.Errorf("LB-68: %d token families left, want u2's 2", len(out.Items))
	}
	_, err = f.APIKeys.Validate(c, key1)
	wantIs(t, err, table.ErrNotFound)
	kp, err := f.APIKeys.ByAccount.List(c, lb.APIKey{AccountID: "a1"})
	if diff := cmp.Diff([]lb.UserID{"u2"}, ids(collect(t, kp, err), func(k lb.APIKey) lb.UserID { return k.UserID })); diff != "" {
		t.Errorf("LB-68 API keys of a1 (-want +got):\n%s", diff)
	}
	np, err := f.Notifications.ByUser.List(c, lb.Notification{UserID: "u1"})
	if got := collect(t, np, err); len(got) != 0 {
		t.Errorf("LB-68: notifications left: %+v", got)
	}
	for _, team := range []lb.TeamID{"team-a1", "team-a2"} {
		tm, err := f.Teams.ByID.Get(c, lb.Team{TeamID: team})
		must(t, err)
		if diff := cmp.Diff([]lb.TeamMember{{UserID: "u2", Role: lb.TeamRoleMember}}, tm.Members); diff != "" {
			t.Errorf("LB-68 %s (-want +got):\n%s", team, diff)
		}
	}
	for _, u := range []lb.UserID{"u1", "u2"} {
		want := 0
		if u == "u2" {
			want = 1
		}
		ip, err := f.Inbox.ByUser.List(c, lb.InboxNotification{UserID: u})
		if got := collect(t, ip, err); len(got) != 3*want {
			t.Errorf("LB-68: %s has %d inbox notifications, want %d", u, len(got), 3*want)
		}
		cp, err := f.MFACodes.ByUser.List(c, lb.MFACode{UserID: u})
		if got := collect(t, cp, err); len(got) != want {
			t.Errorf("LB-68: %s has %d MFA codes, want %d", u, len(got), want)
		}
		tp, err := f.TeamMembers.ByUser.List(c, lb.TeamMembership{UserID: u})
		if got := collect(t, tp, err); len(got) != want {
			t.Errorf("LB-68: %s is in %d teams of the team-members table, want %d", u, len(got), want)
		}
	}
	// Guards released: a new user may take the email and username.
	must(t, f.Users.Create(c, newUser("u9", "U1@example.com", "user-u1")))

	// The other user is untouched.
	_, err = f.Users.ByID.Get(c, lb.User{UserID: "u2"})
	must(t, err)
	_, err = f.APIKeys.Validate(c, key2)
	must(t, err)
	rp, err = f.RefreshTokens.ByUser.List(c, lb.RefreshToken{UserID: "u2"})
	if got := collect(t, rp, err); len(got) != 2 {
		t.Errorf("LB-68: u2 has %d refresh tokens, want 2", len(got))
	}
	np, err = f.Notifications.ByUser.List(c, lb.Notification{UserID: "u2"})
	if got := collect(t, np, err); len(got) != 3 {
		t.Errorf("LB-68: u2 has %d notifications, want 3", len(got))
	}
	mp, err = f.Memberships.ByUser.List(c, lb.Membership{UserID: "u2"})
	if got := collect(t, mp, err); len(got) != 2 {
		t.Errorf("LB-68: u2 has %d memberships, want 2", len(got))
	}
}

// Bad input to the LB-63..LB-68 writes is refused before any request.
func TestWritesBadInputSendsNothing_LB63_LB64_LB65_LB66_LB67_LB68(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	noop := func(*lb.Team) error { return nil }
	_, err := f.Teams.Update(c, "", noop)
	wantInvalid(t, err, "teamId")
	wantInvalid(t, f.Teams.Delete(c, "t#1"), "teamId")
	_, err = f.Teams.SetMemberRole(c, "t1", "u1", "boss")
	wantInvalid(t, err, "role")
	_, err = f.Teams.SetMemberRole(c, "t1", "", lb.TeamRoleLead)
	wantInvalid(t, err, "userId")
	_, err = f.Sources.Update(c, "", func(*lb.Source) error { return nil })
	wantInvalid(t, err, "sourceId")
	wantInvalid(t, f.Sources.Delete(c, ""), "sourceId")
	_, err = f.Connections.Update(c, "c#", func(*lb.Connection) error { return nil })
	wantInvalid(t, err, "connectionId")
	wantInvalid(t, f.Connections.Delete(c, ""), "connectionId")
	wantInvalid(t, f.Webhooks.Delete(c, ""), "webhookId")
	bad := listbackup.TagRef{AccountID: "a1", ResourceType: "planet", TagKey: "k", TagValue: "v"}
	_, err = f.Tags.Update(c, bad, func(*lb.Tag) error { return nil })
	wantInvalid(t, err, "resourceType")
	wantInvalid(t, f.Tags.Delete(c, listbackup.TagRef{AccountID: "a1", ResourceType: lb.ResSource, TagKey: "", TagValue: "v"}), "tagKey")
	_, err = f.Accounts.Update(c, "", func(*lb.Account) error { return nil })
	wantInvalid(t, err, "accountId")
	wantInvalid(t, f.Accounts.Delete(c, "a#"), "accountId")
	_, err = f.Accounts.Move(c, "", "p")
	wantInvalid(t, err, "accountId")
	_, err = f.Accounts.Move(c, "a1", "")
	wantInvalid(t, err, "parentAccountId")
	_, err = f.Accounts.Move(c, "a1", "a1")
	wantInvalid(t, err, "parentAccountId")
	wantInvalid(t, f.Memberships.Remove(c, "", "a1"), "userId")
	wantInvalid(t, f.Memberships.Remove(c, "u1", ""), "accountId")
	wantInvalid(t, f.Users.Erase(c, ""), "userId")
	if n := f.requests.Load(); n != 0 {
		t.Errorf("bad input sent %d requests, want 0", n)
	}
}
