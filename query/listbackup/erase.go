package listbackup

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// erasePage is the page size of the erasure queries.
const erasePage = 100

// Remove removes user from account (LB-68): the user leaves every team
// of the account, then the membership is deleted. Requests: one
// consistent GetItem of the membership, one Query page per 100 teams of
// the account (GSI1 TEAMS#{accountId}), a consistent read and a
// conditional write per team the user is in, then one conditional
// DeleteItem: 3 requests for an account without teams. The membership
// goes last, so a call interrupted halfway can be repeated. The user's
// API keys, connections and sources in the account are kept (they belong
// to the account). Errors: *table.ValidationError, table.ErrNotFound (not
// a member).
func (s *Memberships) Remove(ctx context.Context, user lb.UserID, account lb.AccountID) error {
	return s.remove.Do(ctx, func(ctx context.Context) error {
		k, err := s.e.memberships.CheckedKey(lb.Membership{UserID: user, AccountID: account})
		if err != nil {
			return err
		}
		if _, err := s.e.memberships.Get(ctx, k, table.Consistent()); err != nil {
			return err
		}
		if err := s.e.leaveTeams(ctx, user, account); err != nil {
			return fmt.Errorf("remove %s from account %s: %w", user, account, err)
		}
		return s.e.memberships.Delete(ctx, k)
	})
}

// leaveTeams takes user out of every team of account.
func (e *entities) leaveTeams(ctx context.Context, user lb.UserID, account lb.AccountID) error {
	for tm, err := range e.teamStore.ByAccount.All(ctx, lb.Team{AccountID: account}, table.Limit(erasePage)) {
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(tm.Members, func(m lb.TeamMember) bool { return m.UserID == user }) {
			continue
		}
		k, err := e.teams.CheckedKey(lb.Team{TeamID: tm.TeamID})
		if err != nil {
			return err
		}
		_, err = e.teams.Update(ctx, k, func(t *lb.Team) error {
			t.Members = slices.DeleteFunc(t.Members, func(m lb.TeamMember) bool { return m.UserID == user })
			return nil
		})
		if err != nil && !isNotFound(err) {
			return err
		}
	}
	return nil
}

// Erase deletes user id with all their data (LB-68, erasure):
//
//  1. every membership (Query PK = USER#{userId}, SK begins_with MEMBER#,
//     strongly consistent), after taking the user out of the teams of
//     each account as [Memberships.Remove] does;
//  2. every refresh token (GSI1 RTUSER#{userId}), with its family item
//     (RTFAM#{family}) in the same batch;
//  3. every API key (GSI3 APIKEYUSER#{userId});
//  4. every notification (PK = NOTIF#{userId});
//  5. what ListBackup's own code keeps per user: every inbox notification
//     (GSI1 INBOX#{userId}, LB-80), every MFA code (PK = MFA#{userId},
//     LB-76) and every team membership of its team-members table (GSI1
//     USERTEAMS#{userId}, LB-72);
//  6. last, the user item and its unique guards (email, username), in one
//     transaction conditioned on the version read (table.Entity.Delete),
//     which frees the email and username for a new user.
//
// It is batched: each kind is read 100 items per Query page and deleted
// with BatchWriteItem (25 keys per request, unprocessed keys retried),
// so n items cost about n/100 Queries and n/25 BatchWriteItems, plus, per
// membership, one Query page per 100 teams of the account and a
// consistent read and a conditional write per team the user is in, one
// GetItem up front and a GetItem and a transaction for the user. It is
// resumable: every step finds only what is left, and the user item goes
// last, so calling Erase again after an interruption (error, cancelled
// context, crash) finishes the job; a user already erased gives
// table.ErrNotFound. Connections, sources, jobs and activities the user
// created belong to their accounts and are kept (activities expire after
// 90 days, LB-22). Items already past their TTL but not yet removed by
// DynamoDB are invisible to the queries, and are left to the TTL deletion.
// Under faults: batch deletes are unconditional, so a resent one is
// harmless, and a *table.BatchError's unknown keys are found again by the
// next call; a lost response of the final transaction is covered by its
// idempotency token.
// Errors: *table.ValidationError, table.ErrNotFound (no such user), and
// the first failing request's error (*table.BatchError for a batch).
func (s *Users) Erase(ctx context.Context, id lb.UserID) error {
	return s.erase.Do(ctx, func(ctx context.Context) error {
		k, err := s.e.users.CheckedKey(lb.User{UserID: id})
		if err != nil {
			return err
		}
		if _, err := s.e.users.Get(ctx, k, table.Consistent()); err != nil {
			return err
		}
		q := s.e.memberships.Partition(table.Primary, lb.Membership{UserID: id})
		q.Consistent, q.OnlyType = true, TypeMembership
		_, err = s.e.sweep(ctx, q, s.e.memberships.DeleteOp, func(raw table.Item) error {
			acct, ok := raw["accountId"].(*types.AttributeValueMemberS)
			if !ok {
				return nil // not ours to interpret; the membership is still deleted
			}
			return s.e.leaveTeams(ctx, id, lb.AccountID(acct.Value))
		})
		if err != nil {
			return fmt.Errorf("erase user %s: memberships: %w", id, err)
		}
		// The user's items in other partitions, each a partition of userId
		// (read consistently where it is the table's).
		e := s.e
		steps := []struct {
			what string
			q    table.Query
			typ  string
			del  func(table.Key) table.TxOp
		}{
			{"refresh tokens", partition(e.refreshTokens, table.GSI1, lb.RefreshToken{UserID: id}), TypeRefreshToken, e.refreshTokens.DeleteOp},
			{"API keys", partition(e.apiKeys, table.GSI3, lb.APIKey{UserID: id}), TypeAPIKey, e.apiKeys.DeleteOp},
			{"notifications", partition(e.notifications, table.Primary, lb.Notification{UserID: id}), TypeNotification, e.notifications.DeleteOp},
			{"inbox notifications", partition(e.inbox, table.GSI1, lb.InboxNotification{UserID: id}), TypeInbox, e.inbox.DeleteOp},
			{"MFA codes", partition(e.mfaCodes, table.Primary, lb.MFACode{UserID: id}), TypeMFACode, e.mfaCodes.DeleteOp},
			{"team memberships", partition(e.teamMembers, table.GSI1, lb.TeamMembership{UserID: id}), TypeTeamMember, e.teamMembers.DeleteOp},
		}
		for _, st := range steps {
			q := st.q
			q.Consistent, q.OnlyType = q.Index == table.Primary, st.typ
			var extra func(table.Item) []table.TxOp
			if st.what == "refresh tokens" {
				extra = s.e.familyOf
			}
			if _, err := s.e.sweepWith(ctx, q, st.del, nil, extra); err != nil {
				return fmt.Errorf("erase user %s: %s: %w", id, st.what, err)
			}
		}
		if err := s.e.users.Delete(ctx, k); err != nil {
			return fmt.Errorf("erase user %s: %w", id, err)
		}
		return nil
	})
}

func isNotFound(err error) bool { return errors.Is(err, table.ErrNotFound) }

// sweep deletes every item q returns, a page of 100 at a time (one Query,
// then BatchWriteItem), calling before on each item of a page before the
// page is deleted; it returns how many items it deleted.
func (e *entities) sweep(ctx context.Context, q table.Query, del func(table.Key) table.TxOp, before func(table.Item) error) (int, error) {
	return e.sweepWith(ctx, q, del, before, nil)
}

// familyOf returns the deletion of a refresh token's family item.
func (e *entities) familyOf(raw table.Item) []table.TxOp {
	f, ok := raw["tokenFamily"].(*types.AttributeValueMemberS)
	if !ok {
		return nil
	}
	id := lb.TokenFamilyID(f.Value)
	k, err := e.families.CheckedKey(lb.TokenFamily{Family: id})
	if err != nil {
		return nil
	}
	return []table.TxOp{e.families.DeleteOp(k).Unconditional()}
}

// sweepWith is sweep; extra adds actions to a page's batch per item (each
// key once per batch).
func (e *entities) sweepWith(ctx context.Context, q table.Query, del func(table.Key) table.TxOp, before func(table.Item) error, extra func(table.Item) []table.TxOp) (int, error) {
	n := 0
	q.Limit = erasePage
	for {
		p, err := e.t.QueryItems(ctx, q)
		if err != nil {
			return n, err
		}
		ops := make([]table.TxOp, 0, len(p.Items))
		seen := map[table.Key]bool{}
		for _, raw := range p.Items {
			if before != nil {
				if err := before(raw); err != nil {
					return n, err
				}
			}
			ops = append(ops, del(e.t.KeyOf(raw)).Unconditional())
			if extra != nil {
				for _, op := range extra(raw) {
					if k := op.Key(); !seen[k] {
						seen[k] = true
						ops = append(ops, op)
					}
				}
			}
		}
		if err := e.t.BatchWrite(ctx, ops...); err != nil {
			return n, err
		}
		n += len(ops)
		if !p.More() {
			return n, nil
		}
		q.Cursor = p.Cursor
	}
}
