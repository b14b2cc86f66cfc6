package tinode

import (
	"context"
	"fmt"
	"strings"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// Auth are the access patterns of authentication records.
type Auth struct {
	// ByUnique reads the record with unique "scheme:value" (TN-6).
	//
	//	rec, err := s.Auth.ByUnique.Get(ctx, tn.AuthRecord{Unique: "basic:alice"})
	ByUnique *table.Pattern[tn.AuthRecord]
	// ByUser lists a user's auth records, ordered by unique (TN-7). GSI1
	// is eventually consistent: a record added a moment ago may be missing.
	//
	//	for rec, err := range s.Auth.ByUser.All(ctx, tn.AuthRecord{UserID: user}) {
	ByUser *table.Pattern[tn.AuthRecord]
	// Add creates an auth record (TN-6). Its key is the unique value, so a
	// value already held by any user is table.ErrAlreadyExists.
	Add func(context.Context, *tn.AuthRecord) error
	// Delete deletes the auth record of a unique value (TN-6).
	Delete func(context.Context, tn.AuthUnique) error

	update, getByScheme, deleteAllByUser, deleteScheme table.Op
	s                                                  *Store
}

func newAuth(s *Store) *Auth {
	return &Auth{s: s,
		Delete: table.Delete(s.auth, table.WriteDef[tn.AuthRecord]{ID: "TN-6", Name: "tinode.Auth.Delete",
			Doc: "Deletes the auth record of a unique value (TN-6)."}, func(unique tn.AuthUnique) tn.AuthRecord { return tn.AuthRecord{Unique: unique} }),
		Add: table.Create(s.auth, table.WriteDef[tn.AuthRecord]{ID: "TN-6", Name: "tinode.Auth.Add",
			Doc: "Creates an auth record (TN-6), keyed by its unique value, never overwriting: a unique value already held (by any user) gives table.ErrAlreadyExists."}),
		update:          table.NewOp(s.t, "TN-6", "tinode.Auth.Update"),
		getByScheme:     table.NewOp(s.t, "TN-7", "tinode.Auth.GetByScheme"),
		deleteAllByUser: table.NewOp(s.t, "TN-7", "tinode.Auth.DeleteAllByUser"),
		deleteScheme:    table.NewOp(s.t, "TN-29", "tinode.Auth.DeleteScheme"),
		ByUnique: table.NewPattern(s.auth, table.PatternDef[tn.AuthRecord]{ID: "TN-6", Name: "tinode.Auth.ByUnique",
			Doc: "An auth record by its unique scheme:value.", Reads: table.ReadOne}),
		ByUser: table.NewPattern(s.auth, table.PatternDef[tn.AuthRecord]{ID: "TN-7", Name: "tinode.Auth.ByUser",
			Doc: "A user's auth records, by unique.", Reads: table.ReadPage, Index: table.GSI1,
			Check: func(a *tn.AuthRecord) error { return tn.UserIDs.Check(a.UserID) }}),
	}
}

// Update changes the record unique (TN-6, TN-29: Tinode's AuthUpdRecord). If rec.Unique equals unique the
// record is rewritten in place (version-checked); otherwise the old record
// is deleted and rec created in one transaction, so a login change never
// leaves both or neither (a taken new value gives table.ErrAlreadyExists).
// rec.UserID must be the owner of the old record (table.ErrConflict
// otherwise). A missing record gives table.ErrNotFound.
//
// Requests: a consistent GetItem of the old record (its owner and version
// are checked), then one write: an UpdateItem in place, or the transaction
// when the unique changes.
func (a *Auth) Update(ctx context.Context, unique tn.AuthUnique, rec tn.AuthRecord) (tn.AuthRecord, error) {
	return table.Run(ctx, a.update, func(ctx context.Context) (tn.AuthRecord, error) {
		k, err := a.s.auth.CheckedKey(tn.AuthRecord{Unique: unique})
		if err != nil {
			return tn.AuthRecord{}, err
		}
		if err := a.s.auth.Validate(&rec); err != nil {
			return tn.AuthRecord{}, err
		}
		if rec.Unique == unique {
			return a.s.auth.Update(ctx, k, func(cur *tn.AuthRecord) error {
				if cur.UserID != rec.UserID {
					return fmt.Errorf("auth %s belongs to another user: %w", unique, table.ErrConflict)
				}
				*cur = rec
				return nil
			})
		}
		old, err := a.s.auth.Get(ctx, k, table.Consistent())
		if err != nil {
			return tn.AuthRecord{}, err
		}
		if old.UserID != rec.UserID {
			return tn.AuthRecord{}, fmt.Errorf("auth %s belongs to another user: %w", unique, table.ErrConflict)
		}
		create, err := a.s.auth.CreateOp(&rec)
		if err != nil {
			return tn.AuthRecord{}, err
		}
		// The first failing action decides: the old record gone, or the new
		// unique value taken.
		create[0] = create[0].OnFail(fmt.Errorf("auth update %s: %w", rec.Unique, table.ErrAlreadyExists))
		del := a.s.auth.DeleteOp(k).OnFail(fmt.Errorf("auth update %s: %w", unique, table.ErrNotFound))
		if err := a.s.t.Transact(ctx, append([]table.TxOp{del}, create...)...); err != nil {
			return tn.AuthRecord{}, err
		}
		return rec, nil
	})
}

func (a *Auth) byUser(user tn.UserID, scheme string) (table.Query, error) {
	if err := tn.UserIDs.Check(user); err != nil {
		return table.Query{}, err
	}
	q := a.s.auth.Partition(table.GSI1, tn.AuthRecord{UserID: user})
	if scheme == "" {
		return q, q.Err()
	}
	// {unique:split} writes the scheme as the first of its two segments:
	// one scheme's records begin with the index sort key of any of its
	// values, cut after the scheme.
	if strings.Contains(scheme, ":") {
		return table.Query{}, table.Invalid("scheme", "%q holds ':'", scheme)
	}
	const probe = "v"
	sk, err := a.s.auth.SortPrefix(table.GSI1, tn.AuthRecord{Unique: tn.NewAuthUnique(scheme, probe)})
	if err != nil {
		return table.Query{}, table.Invalid("scheme", "%v", err)
	}
	q.SK = table.SKBeginsWith(strings.TrimSuffix(sk, probe))
	return q, nil
}

// GetByScheme returns the user's record of one scheme, such as "basic"
// (TN-7): GSI1 PK = USER#{user}, SK begins_with AUTH#{scheme}#. No record
// gives table.ErrNotFound.
func (a *Auth) GetByScheme(ctx context.Context, user tn.UserID, scheme string) (tn.AuthRecord, error) {
	return table.Run(ctx, a.getByScheme, func(ctx context.Context) (tn.AuthRecord, error) {
		if scheme == "" {
			return tn.AuthRecord{}, table.Invalid("scheme", "empty")
		}
		q, err := a.byUser(user, scheme)
		if err != nil {
			return tn.AuthRecord{}, err
		}
		p, err := a.s.auth.List(ctx, q, table.Limit(1))
		if err != nil {
			return tn.AuthRecord{}, err
		}
		if len(p.Items) == 0 {
			return tn.AuthRecord{}, fmt.Errorf("auth %s of user %s: %w", scheme, user, table.ErrNotFound)
		}
		return p.Items[0], nil
	})
}

// DeleteAllByUser deletes every auth record of the user (TN-7): pages of
// GSI1 USER#{user} / AUTH#..., each batch-deleted. Resumable.
//
// Requests: per page a Query and a BatchWriteItem, and a last Query that
// finds none left (the purge starts again from the top each round instead of
// keeping a cursor, so it can resume): 3 for one page.
func (a *Auth) DeleteAllByUser(ctx context.Context, user tn.UserID) error {
	return a.deleteAllByUser.Do(ctx, func(ctx context.Context) error {
		if err := tn.UserIDs.Check(user); err != nil {
			return err
		}
		return a.s.purgeIndex(ctx, a.s.auth.Partition(table.GSI1, tn.AuthRecord{UserID: user}))
	})
}

// DeleteScheme deletes all of the user's auth records of one scheme, such
// as every "token" record, in one transaction (TN-29, Tinode's
// AuthDelScheme): GSI1 PK = USER#{user}, SK begins_with AUTH#{scheme}#,
// then one TransactWriteItems deleting them (chunks of 100 beyond 100
// records). It returns how many it deleted (0: none). GSI1 is eventually
// consistent, so a record added a moment ago may remain.
func (a *Auth) DeleteScheme(ctx context.Context, user tn.UserID, scheme string) (int, error) {
	return table.Run(ctx, a.deleteScheme, func(ctx context.Context) (int, error) {
		if scheme == "" {
			return 0, table.Invalid("scheme", "empty")
		}
		q, err := a.byUser(user, scheme)
		if err != nil {
			return 0, err
		}
		var ops []table.TxOp
		for rec, err := range a.s.auth.ListAll(ctx, q) {
			if err != nil {
				return 0, err
			}
			k, err := a.s.auth.CheckedKey(tn.AuthRecord{Unique: rec.Unique})
			if err != nil {
				return 0, err
			}
			ops = append(ops, a.s.auth.DeleteOp(k))
		}
		n := 0
		for len(ops) > 0 {
			chunk := ops[:min(len(ops), table.MaxTxItems)]
			ops = ops[len(chunk):]
			if err := a.s.t.Transact(ctx, chunk...); err != nil {
				return n, fmt.Errorf("auth delete scheme %s of %s: %w", scheme, user, err)
			}
			n += len(chunk)
		}
		return n, nil
	})
}
