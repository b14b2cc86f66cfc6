package listbackup_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestGetRequestsUnchanged: the by-ID reads declared as patterns (issue
// 42, stop 50: Accounts.ByID, Sources.ByID, Connections.ByID,
// Webhooks.ByID, OAuthTokens.BySource), on the whole store and through
// Store.ForAccount's scoped views, send the same GetItem byte for byte as
// the Get methods they replace: the golden file was written by those
// methods (main at 42df174), for a stored item, a soft-deleted one, a
// missing one, another account's and an empty ID. Only the error's kind
// is logged: its text changed (the engine's, naming the entity).
func TestGetRequestsUnchanged_LB5_LB9_LB14_LB27_LB32_LB55(t *testing.T) {
	f := newFixture(t)
	x := ctx(t)
	for _, a := range []lb.Account{
		{AccountID: "acct1", AccountName: "One", AccountPath: "/one/", AccountType: lb.AccountConglomerate},
		{AccountID: "acct2", AccountName: "Two", AccountPath: "/two/", AccountType: lb.AccountConglomerate},
	} {
		must(t, f.Accounts.Create(x, &a))
	}
	must(t, f.Accounts.Delete(x, "acct2"))
	for _, id := range []lb.SourceID{"s1", "s2"} {
		must(t, f.Sources.Create(x, &lb.Source{AccountID: "acct1", SourceID: id, SourceName: "Shop", Platform: lb.PlatformStripe, ConnectionType: lb.ConnOAuth}))
	}
	must(t, f.Sources.Delete(x, "s2"))
	for _, id := range []lb.ConnectionID{"c1", "c2"} {
		must(t, f.Connections.Create(x, &lb.Connection{ConnectionID: id, AccountID: "acct1", UserID: "u1", Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth}))
	}
	must(t, f.Connections.Delete(x, "c2"))
	for _, id := range []lb.WebhookID{"w1", "w2"} {
		must(t, f.Webhooks.Create(x, &lb.Webhook{WebhookID: id, AccountID: "acct1", URL: "https://example.com/h", Events: []string{"sync.completed"}, IsActive: true, Secret: "whsec_1"}))
	}
	must(t, f.Webhooks.Delete(x, "w2"))
	must(t, f.OAuthTokens.Save(x, &lb.OAuthToken{SourceID: "s1", AccountID: "acct1", Platform: lb.PlatformKeap, Tokens: lb.OAuthTokenSet{AccessToken: "at"}}))

	log := &tabletest.RequestLog{}
	st := storeWith(t, f, log.Option())
	scope, err := st.ForAccount("acct1")
	must(t, err)
	other, err := st.ForAccount("acct9")
	must(t, err)
	var ve *table.ValidationError
	note := func(err error) {
		switch {
		case err == nil:
			log.Note("ok")
		case errors.Is(err, table.ErrNotFound):
			log.Note("error not found")
		case errors.As(err, &ve):
			log.Note("invalid " + ve.Field)
		default:
			log.Note("error " + err.Error())
		}
	}
	var e error
	for _, id := range []lb.AccountID{"acct1", "acct2", "acct3", ""} {
		log.Mark("Accounts " + string(id))
		_, e = st.Accounts.ByID.Get(x, lb.Account{AccountID: id})
		note(e)
	}
	for _, sc := range []struct {
		name string
		s    *listbackup.AccountScope
	}{{"acct1", scope}, {"acct9", other}} {
		log.Mark("AccountScope " + sc.name)
		_, e = sc.s.Get(x)
		note(e)
	}
	for _, v := range []struct {
		name        string
		sources     *listbackup.Sources
		connections *listbackup.Connections
		webhooks    *listbackup.Webhooks
	}{{"store", st.Sources, st.Connections, st.Webhooks}, {"scope", scope.Sources, scope.Connections, scope.Webhooks}, {"other", other.Sources, other.Connections, other.Webhooks}} {
		for _, id := range []string{"1", "2", "3", ""} {
			log.Mark(v.name + " Sources s" + id)
			_, e = v.sources.ByID.Get(x, lb.Source{SourceID: lb.SourceID("s" + id)})
			note(e)
			log.Mark(v.name + " Connections c" + id)
			_, e = v.connections.ByID.Get(x, lb.Connection{ConnectionID: lb.ConnectionID("c" + id)})
			note(e)
			log.Mark(v.name + " Webhooks w" + id)
			_, e = v.webhooks.ByID.Get(x, lb.Webhook{WebhookID: lb.WebhookID("w" + id)})
			note(e)
		}
	}
	for _, id := range []lb.SourceID{"s1", "s3", ""} {
		log.Mark("OAuthTokens " + string(id))
		_, e = st.OAuthTokens.BySource.Get(x, lb.OAuthToken{SourceID: id})
		note(e)
	}
	tabletest.Golden(t, "get_requests", log.String())
}
