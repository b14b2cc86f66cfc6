package ferryhook_test

import (
	"regexp"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

var dateOnly = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// Under ServiceProfile the library writes what the running service's
// db/*.ts writes (issue 26 part 2 leftovers; FH-1, FH-3, FH-5, FH-6, FH-8,
// FH-9, FH-11): an attribute the service writes as null when it has no
// value (ferryhook.ServiceWritesNull) is NULL, never an empty string, and
// usagePeriodStart is a YYYY-MM-DD date (its users.create writes
// now.substring(0, 10)), on create and on ResetUsage. The default profile
// keeps the library's shape (no NULLs, a full timestamp). A user the
// service wrote (date, nulls) reads back its date, and Update and
// ResetUsage leave the service's shape.
func TestServiceProfileWritesNullsAndDates_FH11(t *testing.T) {
	t.Parallel()
	for _, p := range profiles {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, p.schemaOpts, append(p.opts, ferryhook.SigningSecretsAsStored())...)
			s := f.store
			c := ctx(t)
			u, err := s.Users.Create(c, ferryhook.CreateUserInput{Email: "nulls@example.com", Name: "N", GitHubID: "42"})
			if err != nil {
				t.Fatal(err)
			}
			src, err := s.Sources.Create(c, u.UserID, ferryhook.CreateSourceInput{Name: "s", Provider: fh.ProviderCustom})
			if err != nil {
				t.Fatal(err)
			}
			conn, err := s.Connections.Create(c, u.UserID, src.SourceID, ferryhook.CreateConnectionInput{Name: "c", DestinationURL: "https://example.com/h"})
			if err != nil {
				t.Fatal(err)
			}
			nk, err := s.APIKeys.Create(c, u.UserID, ferryhook.CreateAPIKeyInput{Name: "k"})
			if err != nil {
				t.Fatal(err)
			}
			ev, err := s.Events.Create(c, eventInput(src, time.Now()))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Attempts.Create(c, ev.EventID, 1, ferryhook.CreateAttemptInput{ConnectionID: conn.ConnectionID, DestinationURL: conn.DestinationURL}); err != nil {
				t.Fatal(err)
			}
			_ = nk
			service := p.name == "service"
			seen := map[string]bool{}
			for _, tbl := range []*table.Table{f.main, f.events} {
				for _, item := range scanAll(t, tbl) {
					e := entityOfSK(rawS(item, tbl.Schema().SK))
					if e == "" {
						continue
					}
					seen[e] = true
					for _, attr := range ferryhook.ServiceWritesNull[e] {
						v, ok := item[attr]
						_, isNull := v.(*types.AttributeValueMemberNULL)
						switch {
						case service && !ok:
							t.Errorf("%s: %s not written (the service writes null)", e, attr)
						case !service && isNull:
							t.Errorf("%s: %s written NULL in the default profile", e, attr)
						}
						if s, ok := v.(*types.AttributeValueMemberS); ok && s.Value == "" {
							t.Errorf("%s: %s written as an empty string; the service writes null", e, attr)
						}
					}
					if e == "User" {
						if d := rawS(item, "usagePeriodStart"); dateOnly.MatchString(d) != service {
							t.Errorf("%s profile: usagePeriodStart %q", p.name, d)
						}
					}
				}
			}
			for e := range ferryhook.ServiceWritesNull {
				if !seen[e] {
					t.Errorf("no %s written", e)
				}
			}
			k := table.Key{PK: "USER#" + string(u.UserID), SK: "PROFILE"}
			start := time.Date(2026, 12, 1, 15, 4, 5, 0, time.UTC)
			reset, err := s.Users.ResetUsage(c, u.UserID, start)
			if err != nil {
				t.Fatal(err)
			}
			if d := rawS(tabletest.RawItem(t, f.main, k), "usagePeriodStart"); dateOnly.MatchString(d) != service || (service && d != "2026-12-01") {
				t.Errorf("%s profile: ResetUsage stored usagePeriodStart %q", p.name, d)
			}
			if service && (!reset.UsagePeriodStart.DateOnly || !reset.UsagePeriodStart.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))) {
				t.Errorf("ResetUsage returned %+v", reset.UsagePeriodStart)
			}
		})
	}

	// The service writes; the library reads and writes back the same.
	f := newFixture(t, []table.SchemaOption{table.WithLowercaseKeys()}, ferryhook.ServiceProfile())
	s := f.store
	uid := "usr_svcnulls00000001"
	putRaw(t, f.main, map[string]any{"pk": "USER#" + uid, "sk": "PROFILE", "gsi1pk": "EMAIL#sn@example.com", "gsi1sk": "USER",
		"userId": uid, "email": "sn@example.com", "name": "S", "passwordHash": nil, "plan": "free", "stripeCustomerId": nil,
		"stripeSubId": nil, "githubId": nil, "googleId": nil, "usageThisMonth": 0, "usagePeriodStart": "2026-11-01",
		"createdAt": "2026-11-01T00:00:00.000Z", "updatedAt": "2026-11-01T00:00:00.000Z"})
	k := table.Key{PK: "USER#" + uid, SK: "PROFILE"}
	before := tabletest.RawItem(t, f.main, k)
	got, err := s.Users.ByID.Get(ctx(t), fh.User{UserID: fh.UserID(uid)})
	if err != nil {
		t.Fatal(err)
	}
	if got.UsagePeriodStart.String() != "2026-11-01" {
		t.Errorf("usagePeriodStart read as %q", got.UsagePeriodStart.String())
	}
	name := "renamed"
	if _, err := s.Users.Update(ctx(t), fh.UserID(uid), ferryhook.UserUpdate{Name: &name}); err != nil {
		t.Fatal(err)
	}
	after := tabletest.RawItem(t, f.main, k)
	for _, attr := range append([]string{"usagePeriodStart", "usageThisMonth"}, ferryhook.ServiceWritesNull["User"]...) {
		if d := cmpAV(before[attr], after[attr]); d != "" {
			t.Errorf("Update of the name changed %s: %s", attr, d)
		}
	}
}

func cmpAV(a, b types.AttributeValue) string {
	as, bs := avString(a), avString(b)
	if as == bs {
		return ""
	}
	return as + " -> " + bs
}

func avString(v types.AttributeValue) string {
	switch x := v.(type) {
	case nil:
		return "<absent>"
	case *types.AttributeValueMemberS:
		return "S:" + x.Value
	case *types.AttributeValueMemberN:
		return "N:" + x.Value
	case *types.AttributeValueMemberNULL:
		return "NULL"
	}
	return "other"
}
