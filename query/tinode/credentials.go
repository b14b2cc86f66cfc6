package tinode

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// Credentials are the access patterns of credentials under validation
// (TN-30), today's Tinode's Cred* methods: a seventh entity in the same
// table. A credential is the item USER#{user} / CRED#{method}#{value}, so
// a user's credentials are one Query; while unvalidated it is also in the
// sparse GSI2 (CREDUNV / CREDUNV#{updatedAt}#{user}#{method}); once
// validated it holds the guard UNIQUE#cred#{method}:{value}, written in
// the same transaction, so one value is validated for one user at most.
type Credentials struct {
	upsert, getActive, list, confirm, fail, delete, userByCred, unvalidated table.Op
	s                                                                       *Store
}

func newCredentials(s *Store) *Credentials {
	return &Credentials{s: s,
		upsert:      table.NewOp(s.t, "TN-30", "tinode.Credentials.Upsert"),
		getActive:   table.NewOp(s.t, "TN-30", "tinode.Credentials.GetActive"),
		list:        table.NewOp(s.t, "TN-30", "tinode.Credentials.List"),
		confirm:     table.NewOp(s.t, "TN-30", "tinode.Credentials.Confirm"),
		fail:        table.NewOp(s.t, "TN-30", "tinode.Credentials.Fail"),
		delete:      table.NewOp(s.t, "TN-30", "tinode.Credentials.Delete"),
		userByCred:  table.NewOp(s.t, "TN-30", "tinode.Credentials.UserByCred"),
		unvalidated: table.NewOp(s.t, "TN-30", "tinode.Credentials.Unvalidated"),
	}
}

// Upsert records a credential to validate (TN-30, Tinode's CredUpsert) and
// reports whether it was new. For an unvalidated credential (c.Done false)
// the value must not be validated by anyone (table.ErrUniqueViolation,
// one consistent GetItem on its guard); the user's other unvalidated
// credentials of the same method are deleted (a user validates one value
// per method at a time); the same value already pending gets the new Resp
// and its Retries reset (false). A credential created Done takes its guard
// in its transaction and leaves the user's pending values of the method
// alone (as Tinode does). Requests: the guard read, one consistent Query of
// the user's credentials of the method, then one write per change.
func (cs *Credentials) Upsert(ctx context.Context, c *tn.Credential) (bool, error) {
	return table.Run(ctx, cs.upsert, func(ctx context.Context) (bool, error) {
		probe := *c
		if probe.UpdatedAt.IsZero() {
			probe.UpdatedAt = time.Unix(1, 0)
		}
		if err := cs.s.cred.Validate(&probe); err != nil {
			return false, err
		}
		if !c.Done {
			owner, err := cs.s.t.LookupUnique(ctx, tn.CredUnique(c.Method, c.Value))
			switch {
			case err == nil:
				return false, fmt.Errorf("credential %s:%s is validated by %s: %w", c.Method, c.Value, owner.PK, table.ErrUniqueViolation)
			case !errors.Is(err, table.ErrNotFound):
				return false, err
			}
		}
		mine, err := cs.List(ctx, c.User, c.Method, false)
		if err != nil {
			return false, err
		}
		created := true
		for _, old := range mine {
			k, err := cs.s.credKey(old.User, old.Method, old.Value)
			if err != nil {
				return false, err
			}
			switch {
			case old.Value == c.Value && old.Done:
				return false, fmt.Errorf("credential %s:%s is already validated: %w", c.Method, c.Value, table.ErrAlreadyExists)
			case old.Value == c.Value:
				created = false
				u, err := cs.s.cred.Update(ctx, k, func(cur *tn.Credential) error {
					cur.Resp, cur.Retries, cur.Done = c.Resp, 0, c.Done
					return nil
				})
				if err != nil {
					return false, err
				}
				*c = u
			case !old.Done && !c.Done:
				// A new value to validate replaces the pending one; a value
				// recorded as validated leaves other pending values alone.
				if err := cs.s.cred.Delete(ctx, k); err != nil && !errors.Is(err, table.ErrNotFound) {
					return false, err
				}
			}
		}
		if !created {
			return false, nil
		}
		c.Retries = 0
		if err := cs.s.cred.Create(ctx, c); err != nil {
			return false, err
		}
		return true, nil
	})
}

// GetActive returns the user's unvalidated credential of method (TN-30,
// Tinode's CredGetActive): one consistent Query of USER#{user} /
// CRED#{method}#. None gives table.ErrNotFound.
func (cs *Credentials) GetActive(ctx context.Context, user tn.UserID, method string) (tn.Credential, error) {
	return table.Run(ctx, cs.getActive, func(ctx context.Context) (tn.Credential, error) {
		if err := checkMethod(method); err != nil {
			return tn.Credential{}, err
		}
		all, err := cs.List(ctx, user, method, false)
		if err != nil {
			return tn.Credential{}, err
		}
		for _, c := range all {
			if !c.Done {
				return c, nil
			}
		}
		return tn.Credential{}, fmt.Errorf("active credential %s of %s: %w", method, user, table.ErrNotFound)
	})
}

// List returns the user's credentials of method ("": all methods),
// only the validated ones if validatedOnly (TN-30, Tinode's CredGetAll):
// a consistent Query of USER#{user}, SK begins_with CRED#{method}#, one
// request per 1 MB.
func (cs *Credentials) List(ctx context.Context, user tn.UserID, method string, validatedOnly bool) ([]tn.Credential, error) {
	return table.Run(ctx, cs.list, func(ctx context.Context) ([]tn.Credential, error) {
		if err := tn.UserIDs.Check(user); err != nil {
			return nil, err
		}
		if method != "" {
			if err := checkMethod(method); err != nil {
				return nil, err
			}
		}
		q := cs.s.cred.Prefix(table.Primary, tn.Credential{User: user, Method: method})
		q.Consistent = true
		var out []tn.Credential
		for c, err := range cs.s.cred.ListAll(ctx, q) {
			if err != nil {
				return nil, err
			}
			if c.DeletedAt != nil || (validatedOnly && !c.Done) {
				continue
			}
			out = append(out, c)
		}
		return out, nil
	})
}

// Confirm marks the user's unvalidated credential of method validated
// (TN-30, Tinode's CredConfirm): the credential is read, then one
// transaction sets Done (version-checked), writes its guard
// UNIQUE#cred#{method}:{value} and drops it from the unvalidated index. A
// value another user validated first gives table.ErrUniqueViolation; no
// pending credential table.ErrNotFound.
//
// Requests: the consistent Query of Credentials.GetActive that finds the
// pending credential (its value is not known to the caller), then the
// consistent GetItem and transaction of a version-checked update.
func (cs *Credentials) Confirm(ctx context.Context, user tn.UserID, method string) (tn.Credential, error) {
	return table.Run(ctx, cs.confirm, func(ctx context.Context) (tn.Credential, error) {
		c, err := cs.GetActive(ctx, user, method)
		if err != nil {
			return tn.Credential{}, err
		}
		k, err := cs.s.credKey(c.User, c.Method, c.Value)
		if err != nil {
			return tn.Credential{}, err
		}
		return cs.s.cred.Update(ctx, k, func(cur *tn.Credential) error {
			if cur.Done {
				return fmt.Errorf("credential %s:%s: %w", method, cur.Value, table.ErrAlreadyExists)
			}
			cur.Done, cur.Resp = true, ""
			return nil
		})
	})
}

// Fail records a failed confirmation attempt on the user's unvalidated
// credential of method and returns the attempts so far (TN-30, Tinode's
// CredFail): the Query that finds it, then one UpdateItem ADD Retries 1
// (concurrent failures all count).
func (cs *Credentials) Fail(ctx context.Context, user tn.UserID, method string) (int, error) {
	return table.Run(ctx, cs.fail, func(ctx context.Context) (int, error) {
		c, err := cs.GetActive(ctx, user, method)
		if err != nil {
			return 0, err
		}
		k, err := cs.s.credKey(c.User, c.Method, c.Value)
		if err != nil {
			return 0, err
		}
		n, err := cs.s.cred.Add(ctx, k, "Retries", 1)
		return int(n), err
	})
}

// Delete deletes the user's credential method:value, every credential of
// method when value is "", or all the user's credentials when method is
// also "" (TN-30, Tinode's CredDel); validated ones release their guard in
// the same transaction. Requests: the Query, then per credential a
// consistent GetItem and a write. Nothing to delete gives
// table.ErrNotFound when value names one credential.
func (cs *Credentials) Delete(ctx context.Context, user tn.UserID, method, value string) error {
	return cs.delete.Do(ctx, func(ctx context.Context) error {
		if method == "" && value != "" {
			return table.Invalid("Method", "empty while Value is %q", value)
		}
		if method != "" {
			if err := checkMethod(method); err != nil {
				return err
			}
		}
		if value != "" {
			k, err := cs.s.credKey(user, method, value)
			if err != nil {
				return err
			}
			return cs.s.cred.Delete(ctx, k)
		}
		all, err := cs.List(ctx, user, method, false)
		if err != nil {
			return err
		}
		for _, c := range all {
			k, err := cs.s.credKey(c.User, c.Method, c.Value)
			if err != nil {
				return err
			}
			if err := cs.s.cred.Delete(ctx, k); err != nil && !errors.Is(err, table.ErrNotFound) {
				return err
			}
		}
		return nil
	})
}

// UserByCred returns the user whose validated credential is method:value
// (TN-30, Tinode's UserGetByCred): a strongly consistent GetItem on the
// guard UNIQUE#cred#{method}:{value}, then one on the credential it names,
// which answers (table.Entity.GetByUnique): a guard is an index, never the
// truth, so a credential deleted or unvalidated behind the guard's back is
// not found, and its orphan guard is reported and removed. An unvalidated
// or unknown value gives table.ErrNotFound.
func (cs *Credentials) UserByCred(ctx context.Context, method, value string) (tn.UserID, error) {
	return table.Run(ctx, cs.userByCred, func(ctx context.Context) (tn.UserID, error) {
		if err := checkMethod(method); err != nil {
			return "", err
		}
		if _, err := cs.s.credKey("u", method, value); err != nil {
			return "", err
		}
		c, err := cs.s.cred.GetByUnique(ctx, tn.CredUnique(method, value))
		if err != nil {
			return "", err
		}
		return c.User, nil
	})
}

// Unvalidated returns up to limit users with a credential still
// unvalidated and last updated before before, oldest first (TN-30,
// Tinode's UserGetUnvalidated): GSI2 PK = CREDUNV, SK BETWEEN CREDUNV#
// AND CREDUNV#{Timestamp(before)}; one Query page per 1 MB, no Scan. The
// index is eventually consistent: a credential confirmed a moment ago may
// still be listed. All unvalidated credentials share one GSI2 partition,
// which suits the background sweep this serves (a few reads per hour),
// not a request path.
func (cs *Credentials) Unvalidated(ctx context.Context, before time.Time, limit int) ([]tn.UserID, error) {
	return table.Run(ctx, cs.unvalidated, func(ctx context.Context) ([]tn.UserID, error) {
		if limit < 1 || limit > 1000 {
			return nil, table.Invalid("limit", "%d is outside 1..1000", limit)
		}
		if before.IsZero() {
			return nil, table.Invalid("before", "zero")
		}
		q := cs.s.cred.Range(table.GSI2, tn.Credential{}, tn.Credential{UpdatedAt: before})
		var out []tn.UserID
		seen := map[tn.UserID]bool{}
		for c, err := range cs.s.cred.ListAll(ctx, q) {
			if err != nil {
				return nil, err
			}
			if c.Done || seen[c.User] {
				continue
			}
			seen[c.User] = true
			out = append(out, c.User)
			if len(out) == limit {
				break
			}
		}
		return out, nil
	})
}

func checkMethod(method string) error {
	if method == "" {
		return table.Invalid("Method", "empty")
	}
	return tn.CheckKeyValue("Method", method)
}
