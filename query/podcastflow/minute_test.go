package podcastflow_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// TestMinute_PF4_PF13_UserWrites: 1,000 user writes a second (the
// target of docs/performance.md) for a modeled minute with the meter throttling every key past
// its limit per modeled second (capacity.RunMinute at scale 0.01: 600
// calls, 10 a modeled second, against 10 WCU / 30 RCU per key-second):
// creates (a transaction: the user, its email guard, a check of its
// organization), updates (a consistent read and a conditional write) and
// logins (one UpdateItem), every one rewriting the user's entries in
// GSI2 ROLE#{role}#{n}, GSI3 STATUS#{status}#{n} and GSI4 USERS#{n}
// (Options.IndexShards, default 4). No call fails and no key-second passes
// the target (800 WCU/s at full scale). Nothing is lost (every create,
// update and login that returned success is what is stored) and nothing
// is counted twice (PF-4's list of all users, PF-13's list by role and the
// STATUS#active partitions each hold every user once, as many as are
// stored).
func TestMinute_PF4_PF13_UserWrites(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, podcastflow.Schema(""))
	s0 := podcastflow.New(tb)
	const orgs, shards = 20, podcastflow.DefaultIndexShards
	minute := capacity.Minute{Name: "podcastflow/1000-user-writes-per-second", PerSecond: 1_000, Scale: 0.01}
	n := minute.Calls()
	pool := n / 3 // users updated and logged in; as many are created
	for i := range orgs {
		mustCreateOrgs(t, s0, fmt.Sprintf("org%02d", i))
	}
	var wg sync.WaitGroup
	errs := make([]error, pool)
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < pool; i += 8 {
				errs[i] = s0.Users.Create(t.Context(), user(capacity.SpreadID("pool", i, shards), fmt.Sprintf("org%02d", i%orgs), pf.RoleSeller))
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}

	meter := capacity.NewMeter(tabletest.Client(t))
	metered := table.New(tabletest.NewClient(t, meter.Option(), capacity.MinuteRetries()), tb.Schema(), func(o *table.Options) {
		o.Cipher, o.BatchBackoff = tabletest.Cipher(), time.Microsecond
	})
	s := podcastflow.New(metered)
	meter.Learn(metered)
	login := time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)
	minute.Call = func(c context.Context, i int) error {
		id := pf.UserID(capacity.SpreadID("pool", i/3, shards))
		switch i % 3 {
		case 0:
			return s.Users.Create(c, user(capacity.SpreadID("new", i/3, shards), fmt.Sprintf("org%02d", i%orgs), pf.RoleSeller))
		case 1:
			_, err := s.Users.Update(c, id, func(u *pf.UserProfile) error { u.Name = fmt.Sprintf("User %d", i); return nil })
			return err
		}
		_, err := s.Users.RecordLogin(c, id, login.Add(time.Duration(i)*time.Second))
		return err
	}
	res := capacity.RunMinute(t, meter, minute)
	if res.Failed != 0 {
		t.Errorf("%d of %d calls failed at the target rate over %d shards: %v", res.Failed, res.Calls, shards, res.Errors)
	}
	if res.PerSecond.Write > capacity.TargetWrite || res.PerSecond.Read > capacity.TargetRead {
		t.Errorf("hottest key-second %s: %s, past the target", res.Hottest, res.PerSecond)
	}

	// What is stored, read without the meter.
	c := t.Context()
	for k := range pool {
		id := pf.UserID(capacity.SpreadID("pool", k, shards))
		u, err := s0.Users.Profile.Get(c, pf.UserProfile{UserID: id})
		if err != nil {
			t.Fatalf("pool user %s: %v", id, err)
		}
		if want := fmt.Sprintf("User %d", 3*k+1); u.Name != want {
			t.Errorf("user %s: name %q, want %q (its update)", id, u.Name, want)
		}
		if want := login.Add(time.Duration(3*k+2) * time.Second); !u.LastLogin.Equal(want) {
			t.Errorf("user %s: lastLogin %s, want %s (its login)", id, u.LastLogin, want)
		}
		nu, err := s0.Users.Profile.Get(c, pf.UserProfile{UserID: pf.UserID(capacity.SpreadID("new", k, shards))})
		if err != nil || nu.Role != pf.RoleSeller || nu.Status != pf.UserActive {
			t.Errorf("created user %d: %+v, %v", k, nu, err)
		}
	}
	want := 2 * pool
	lists := map[string]int{}
	seen := map[string]map[pf.UserID]bool{}
	once := func(list string, id pf.UserID) {
		if seen[list] == nil {
			seen[list] = map[pf.UserID]bool{}
		}
		if seen[list][id] {
			t.Errorf("%s lists user %s twice", list, id)
		}
		seen[list][id] = true
		lists[list]++
	}
	for u, err := range s0.Users.AllUsers.All(c, pf.UserProfile{}) {
		if err != nil {
			t.Fatal(err)
		}
		once("PF-4 all users (GSI4 USERS#{n})", u.UserID)
	}
	for u, err := range s0.Users.ByRole.All(c, pf.UserProfile{Role: pf.RoleSeller}) {
		if err != nil {
			t.Fatal(err)
		}
		once("PF-13 by role (GSI2 ROLE#seller#{n})", u.UserID)
	}
	for q := (table.Query{Index: podcastflow.IndexStatus, PK: "STATUS#active", Shards: shards, SK: table.SKBeginsWith("USER#")}); ; {
		p, err := tb.QueryItems(c, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range p.Items {
			id, _ := it["userId"].(*types.AttributeValueMemberS)
			if id == nil {
				t.Fatalf("STATUS#active entry without a userId: %v", it)
			}
			once("GSI3 STATUS#active#{n}", pf.UserID(id.Value))
		}
		if q.Cursor = p.Cursor; q.Cursor == "" {
			break
		}
	}
	for list, got := range lists {
		if got != want {
			t.Errorf("%s: %d users, want the %d stored", list, got, want)
		}
	}
	if len(lists) != 3 {
		t.Errorf("lists read: %v", lists)
	}
	t.Logf("%d calls, %d attempts, %d throttled, %d retried, %d failed; %d users stored, listed once each in %d lists", res.Calls, res.Attempts, res.Throttles, res.RetriedBySDK+res.RetriedByEngine, res.Failed, want, len(lists))
}
