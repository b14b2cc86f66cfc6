package listbackup_test

import (
	"testing"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestScopedQueryRequestsUnchanged: the account groups' reads declared as
// patterns (issue 42, stop 49), on the whole store and through
// Store.ForAccount's scoped views, send the same requests byte for byte
// as the methods they replace: the golden file was written by those
// methods (commit d48e131), each with and without an order and a limit.
func TestScopedQueryRequestsUnchanged_LB12_LB15_LB16_LB17_LB23_LB25_LB26_LB28_LB29_LB38_LB39_LB53_LB56_LB57(t *testing.T) {
	f := newFixture(t)
	log := &tabletest.RequestLog{}
	st := storeWith(t, f, log.Option())
	x := ctx(t)
	scope, err := st.ForAccount("acct1")
	if err != nil {
		t.Fatal(err)
	}
	do := func(label string, f func() error) {
		log.Mark(label)
		if err := f(); err != nil {
			log.Note("error " + err.Error())
		}
	}
	type group struct {
		Sources     *listbackup.Sources
		Jobs        *listbackup.Jobs
		Connections *listbackup.Connections
		Webhooks    *listbackup.Webhooks
		APIKeys     *listbackup.APIKeys
		Teams       *listbackup.Teams
		Tags        *listbackup.Tags
	}
	for _, view := range []struct {
		name string
		g    group
	}{
		{"store", group{st.Sources, st.Jobs, st.Connections, st.Webhooks, st.APIKeys, st.Teams, st.Tags}},
		{"scope", group{scope.Sources, scope.Jobs, scope.Connections, scope.Webhooks, scope.APIKeys, scope.Teams, scope.Tags}},
	} {
		s := view.g
		for i, o := range [][]table.ListOption{nil, {table.Desc(), table.Limit(5)}} {
			l := func(what string) string { return view.name + " " + what + " " + []string{"plain", "desc5"}[i] }
			do(l("SourcesByAccount"), func() error { _, err := s.Sources.ByAccount.List(x, lb.Source{AccountID: "acct1"}, o...); return err })
			do(l("SourcesByPlatform"), func() error {
				_, err := s.Sources.ByPlatform.List(x, lb.Source{AccountID: "acct1", Platform: lb.PlatformStripe}, o...)
				return err
			})
			do(l("SourcesByStatus"), func() error {
				_, err := s.Sources.ByStatus.List(x, lb.Source{AccountID: "acct1", Status: lb.SourceActive}, o...)
				return err
			})
			do(l("JobsByAccount"), func() error { _, err := s.Jobs.ByAccount.List(x, lb.Job{AccountID: "acct1"}, o...); return err })
			do(l("JobsByStatus"), func() error {
				_, err := s.Jobs.ByStatus.List(x, lb.Job{AccountID: "acct1", Status: lb.JobPending}, o...)
				return err
			})
			do(l("JobsBySource"), func() error { _, err := s.Jobs.BySource.List(x, lb.Job{SourceID: "src1"}, o...); return err })
			do(l("ConnectionsByAccountPlatform"), func() error {
				_, err := s.Connections.ByAccountPlatform.List(x, lb.Connection{AccountID: "acct1", Platform: lb.PlatformStripe}, o...)
				return err
			})
			do(l("ConnectionsByUserPlatform"), func() error {
				_, err := s.Connections.ByUserPlatform.List(x, lb.Connection{UserID: "user1", Platform: lb.PlatformStripe}, o...)
				return err
			})
			do(l("WebhooksActive"), func() error { _, err := s.Webhooks.Active.List(x, lb.Webhook{AccountID: "acct1"}, o...); return err })
			do(l("WebhooksActiveForEvent"), func() error {
				_, err := s.Webhooks.ActiveForEvent.List(x, lb.Webhook{AccountID: "acct1", Events: []string{string("sync.failed")}}, o...)
				return err
			})
			do(l("APIKeysByAccount"), func() error { _, err := s.APIKeys.ByAccount.List(x, lb.APIKey{AccountID: "acct1"}, o...); return err })
			do(l("APIKeysByAccount revoked"), func() error {
				_, err := s.APIKeys.ByAccount.List(x, lb.APIKey{AccountID: "acct1", Status: lb.KeyRevoked}, o...)
				return err
			})
			do(l("TeamsByAccount"), func() error { _, err := s.Teams.ByAccount.List(x, lb.Team{AccountID: "acct1"}, o...); return err })
			do(l("TagsByResourceType"), func() error {
				_, err := s.Tags.ByResourceType.List(x, lb.Tag{AccountID: "acct1", ResourceType: lb.ResSource}, o...)
				return err
			})
			do(l("TagsByKey"), func() error {
				_, err := s.Tags.ByKey.List(x, lb.Tag{AccountID: "acct1", ResourceType: lb.ResSource, TagKey: "env"}, o...)
				return err
			})
		}
	}
	tabletest.Golden(t, "scoped_query_requests", log.String())
}
