package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// AccountScope is the store as one account sees it (issue 11: tenant
// scoping enforced by signatures). Obtain it with [Store.ForAccount] once
// the caller's account is authenticated, and hand request handlers only
// this: its by-ID reads and writes (Sources.ByID, Jobs.Update, Webhooks.Delete,
// APIKeys.Revoke, ...) reach only items whose accountId is the account.
// An ID of another account's item gives table.ErrNotFound and changes
// nothing, on reads and on writes, because every write carries the
// condition "accountId = account" in the same request (table.Scoped);
// lists of another account's partition come back empty, and a cursor
// minted for another account's list is refused by its seal. The Store's
// own fields stay unscoped, for back-office jobs that cross accounts.
type AccountScope struct {
	// Account is the account the scope is restricted to.
	Account     lb.AccountID
	Sources     *Sources
	Jobs        *Jobs
	Connections *Connections
	Webhooks    *Webhooks
	APIKeys     *APIKeys
	Teams       *Teams
	Tags        *Tags
	get         table.Op
	accounts    *Accounts
}

// ForAccount returns the store restricted to account (see [AccountScope]).
// An invalid account ID is a *table.ValidationError.
func (s *Store) ForAccount(account lb.AccountID) (*AccountScope, error) {
	if err := lb.AccountIDs.Check(account); err != nil {
		return nil, err
	}
	return &AccountScope{Account: account, accounts: s.Accounts,
		Sources: s.Sources.in(account), Jobs: s.Jobs.in(account),
		Connections: s.Connections.in(account), Webhooks: s.Webhooks.in(account),
		APIKeys: s.APIKeys.in(account), Teams: s.Teams.in(account), Tags: s.Tags.in(account),
		get: s.scopeGet,
	}, nil
}

// Get returns the scope's own account (LB-9), read by Accounts.ByID (a
// soft-deleted account is not found): a request handler holds the scope
// alone, not the Store's Accounts. Errors: table.ErrNotFound.
func (a *AccountScope) Get(ctx context.Context) (lb.Account, error) {
	return table.Run(ctx, a.get, func(ctx context.Context) (lb.Account, error) {
		return a.accounts.ByID.Get(ctx, lb.Account{AccountID: a.Account})
	})
}

// items is an entity seen whole (acct "") or through one account's scope:
// the one place where the group types (Sources, Jobs, ...) choose.
func items[T any](e *table.Entity[T], acct lb.AccountID) table.Writer[T] {
	if acct == "" {
		return e
	}
	return e.In(string(acct))
}

func (s *Sources) v() table.Items[lb.Source] { return items(s.e.sources, s.acct) }
func (s *Jobs) v() table.Items[lb.Job]       { return items(s.e.jobs, s.acct) }
func (s *APIKeys) v() table.Items[lb.APIKey] { return items(s.e.apiKeys, s.acct) }
func (s *Teams) v() table.Items[lb.Team]     { return items(s.e.teams, s.acct) }
func (s *Tags) v() table.Items[lb.Tag]       { return items(s.e.tags, s.acct) }
