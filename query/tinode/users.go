package tinode

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// Users are the access patterns of Tinode users, their tags and devices.
type Users struct {
	// ByID reads the user with an id (TN-1).
	//
	//	u, err := s.Users.ByID.Get(ctx, tn.User{Id: id})
	ByID *table.Pattern[tn.User]
	// Tags reads a user for its tags (TN-5): the user item holds them, so
	// the old TagUnique Source index is not needed; the user's Tags are
	// the list.
	//
	//	u, err := s.Users.Tags.Get(ctx, tn.User{Id: id}) // u.Tags
	Tags *table.Pattern[tn.User]
	// Create creates a user together with the guards of its unique tags
	// (TN-2). A tag held by another user fails the whole create with
	// table.ErrUniqueViolation. CreatedAt/UpdatedAt are set when zero.
	Create func(context.Context, *tn.User) error
	// Update changes a user (TN-3): tag guards move in the same write, so
	// change may edit Tags; a taken tag gives table.ErrUniqueViolation.
	Update func(context.Context, tn.UserID, func(*tn.User) error) (tn.User, error)
	// SoftDelete marks the user deleted (TN-17): State = deleted and
	// DeletedAt (and UpdatedAt) stamped with the store's clock; tags, auth
	// records and subscriptions stay. It returns the user as written.
	SoftDelete func(context.Context, tn.UserID) (tn.User, error)
	// UpsertDevice adds or replaces the user's push device d, keyed by
	// d.DeviceId (TN-16); concurrent device changes are never lost. It
	// returns the user as written.
	UpsertDevice func(context.Context, tn.UserID, tn.Device) (tn.User, error)

	deleteDevice, devices, getMany, addTags, removeTags, resetTags, lookupTag, findByTag, importTag, findByTags, touch, delete table.Op
	s                                                                                                                          *Store
}

func newUsers(s *Store) *Users {
	return &Users{s: s,
		Update: table.Update(s.user, table.WriteDef[tn.User]{ID: "TN-3", Name: "tinode.Users.Update",
			Doc: "Reads the user, applies change and writes it back if nobody wrote in between (retried on a lost race); tag guards move in the same transaction, so change may edit Tags (TN-3)."}, func(id tn.UserID) tn.User { return tn.User{Id: id} }),
		Create: table.Create(s.user, table.WriteDef[tn.User]{ID: "TN-2", Name: "tinode.Users.Create",
			Doc: "Creates a user together with the guards of its unique tags (one per tag), in one transaction (TN-2)."}),
		UpsertDevice: table.UpdateWith(s.user, table.WriteDef[tn.User]{ID: "TN-16", Name: "tinode.Users.UpsertDevice",
			Doc: "Adds or replaces the user's push device, keyed by its DeviceId: read the user, set Devices[DeviceId], write back version-checked (retried on a race, so concurrent device changes are never lost)."},
			func(id tn.UserID) tn.User { return tn.User{Id: id} }, "device", setDevice),
		deleteDevice: table.NewOp(s.t, "TN-16", "tinode.Users.DeleteDevice"),
		devices:      table.NewOp(s.t, "TN-20", "tinode.Users.Devices"),
		getMany:      table.NewOp(s.t, "TN-1", "tinode.Users.GetMany"),
		addTags:      table.NewOp(s.t, "TN-3", "tinode.Users.AddTags"),
		removeTags:   table.NewOp(s.t, "TN-3", "tinode.Users.RemoveTags"),
		resetTags:    table.NewOp(s.t, "TN-3", "tinode.Users.ResetTags"),
		lookupTag:    table.NewOp(s.t, "TN-4", "tinode.Users.LookupTag"),
		findByTag:    table.NewOp(s.t, "TN-4", "tinode.Users.FindByTag"),
		importTag:    table.NewOp(s.t, "TN-3", "tinode.Users.ImportTag"),
		findByTags:   table.NewOp(s.t, "TN-19", "tinode.Users.FindByTags"),
		touch:        table.NewOp(s.t, "TN-1", "tinode.Users.Touch"),
		SoftDelete: table.PatchWith(s.user, table.WriteDef[tn.User]{ID: "TN-17", Name: "tinode.Users.SoftDelete",
			Doc: "Marks the user deleted: State = deleted and DeletedAt, one UpdateItem; tags, auth records and subscriptions stay."},
			func(id tn.UserID) tn.User { return tn.User{Id: id} }, func(tn.UserID) table.Patch { return softDeleted(s.now()) }),
		delete: table.NewOp(s.t, "TN-17", "tinode.Users.Delete"),
		ByID: table.NewPattern(s.user, table.PatternDef[tn.User]{ID: "TN-1", Name: "tinode.Users.ByID",
			Doc: "A user by id.", Reads: table.ReadOne}),
		Tags: table.NewPattern(s.user, table.PatternDef[tn.User]{ID: "TN-5", Name: "tinode.Users.Tags",
			Doc: "A user, for its tags.", Reads: table.ReadOne}),
	}
}

// GetMany returns the users with ids that exist, in the order of ids
// (TN-1): BatchGetItem on USER#{id} / USER, 100 keys per request.
// Repeated ids are read once.
func (us *Users) GetMany(ctx context.Context, ids []tn.UserID) ([]tn.User, error) {
	return table.Run(ctx, us.getMany, func(ctx context.Context) ([]tn.User, error) {
		ks := make([]table.Key, 0, len(ids))
		seen := make(map[tn.UserID]bool, len(ids))
		for i, id := range ids {
			if seen[id] {
				continue
			}
			seen[id] = true
			k, err := us.s.user.CheckedKey(tn.User{Id: id})
			if err != nil {
				return nil, fmt.Errorf("users get many: id %d: %w", i, err)
			}
			ks = append(ks, k)
		}
		if len(ks) == 0 {
			return nil, nil
		}
		return us.s.user.BatchGet(ctx, ks)
	})
}

// AddTags adds tags to the user's tags (TN-3), keeping uniqueness in the
// same transaction: a tag held by another user fails the whole change with
// table.ErrUniqueViolation. Tags the user already holds are kept once. It
// returns the user's tags afterwards.
//
// Requests: a consistent GetItem of the user, whose current tags decide
// which guards to write or free, then one TransactWriteItems checked on the
// version read.
func (us *Users) AddTags(ctx context.Context, id tn.UserID, tags ...string) ([]string, error) {
	return table.Run(ctx, us.addTags, func(ctx context.Context) ([]string, error) {
		if err := checkTagArgs(tags); err != nil {
			return nil, err
		}
		u, err := us.Update(ctx, id, func(u *tn.User) error {
			for _, t := range tags {
				if !slices.Contains(u.Tags, t) {
					u.Tags = append(u.Tags, t)
				}
			}
			return nil
		})
		return u.Tags, err
	})
}

// RemoveTags removes tags from the user and frees their guards in the same
// transaction (TN-3). Tags the user does not hold are ignored.
//
// Requests: a consistent GetItem of the user, whose current tags decide
// which guards to write or free, then one TransactWriteItems checked on the
// version read.
func (us *Users) RemoveTags(ctx context.Context, id tn.UserID, tags ...string) ([]string, error) {
	return table.Run(ctx, us.removeTags, func(ctx context.Context) ([]string, error) {
		if err := checkTagArgs(tags); err != nil {
			return nil, err
		}
		u, err := us.Update(ctx, id, func(u *tn.User) error {
			u.Tags = slices.DeleteFunc(u.Tags, func(t string) bool { return slices.Contains(tags, t) })
			return nil
		})
		return u.Tags, err
	})
}

// ResetTags replaces the user's tags with tags (TN-3): guards of dropped
// tags are deleted and guards of new ones written in the same transaction.
//
// Requests: a consistent GetItem of the user, whose current tags decide
// which guards to write or free, then one TransactWriteItems checked on the
// version read.
func (us *Users) ResetTags(ctx context.Context, id tn.UserID, tags ...string) ([]string, error) {
	return table.Run(ctx, us.resetTags, func(ctx context.Context) ([]string, error) {
		if err := tn.ValidateTags(tags); err != nil {
			return nil, err
		}
		u, err := us.Update(ctx, id, func(u *tn.User) error {
			u.Tags = slices.Clone(tags)
			return nil
		})
		return u.Tags, err
	})
}

func checkTagArgs(tags []string) error {
	if len(tags) == 0 {
		return table.Invalid("Tags", "no tags given")
	}
	for _, t := range tags {
		if err := tn.ValidateTag(t); err != nil {
			return err
		}
	}
	return nil
}

// LookupTag returns the TagUnique row of tag (TN-4): a GetItem on the
// guard UNIQUE#tag#{tag} / UNIQUE, then one on the owner it names
// (Source), both strongly consistent. The owner answers, never the guard
// (table.LookupUnique): a user deleted, or whose tags were changed, behind
// its guard by another writer does not hold the tag, and its orphan guard
// is reported and removed. A free tag, or one a topic holds, gives
// table.ErrNotFound.
func (us *Users) LookupTag(ctx context.Context, tag string) (tn.UniqueTag, error) {
	return table.Run(ctx, us.lookupTag, func(ctx context.Context) (tn.UniqueTag, error) {
		u, err := us.uniqueTag(tag)
		if err != nil {
			return tn.UniqueTag{}, err
		}
		owner, err := us.s.t.LookupUnique(ctx, u)
		if err != nil {
			return tn.UniqueTag{}, err
		}
		holder, err := us.s.user.FromKey(owner)
		if err != nil {
			// a topic's tag (Topics.FindByTags finds it)
			return tn.UniqueTag{}, fmt.Errorf("lookup tag %q: held by %s, not a user: %w", tag, owner.PK, table.ErrNotFound)
		}
		return tn.UniqueTag{Id: tag, Source: holder.Id}, nil
	})
}

func (us *Users) uniqueTag(tag string) (table.Unique, error) {
	if err := tn.ValidateTag(tag); err != nil {
		return table.Unique{}, err
	}
	u := us.s.tagValue(tag)
	if u.Shared {
		return table.Unique{}, table.Invalid("tag", "%q is a shared tag (Options.SharedTags) with many holders; use FindByTags", tag)
	}
	return u, nil
}

// FindByTag returns the user holding tag (TN-4): the guard's GetItem,
// then the user's (Entity.GetByUnique: the user answers, as in LookupTag).
// A free tag, or one a topic holds, gives table.ErrNotFound.
func (us *Users) FindByTag(ctx context.Context, tag string) (tn.User, error) {
	return table.Run(ctx, us.findByTag, func(ctx context.Context) (tn.User, error) {
		u, err := us.uniqueTag(tag)
		if err != nil {
			return tn.User{}, err
		}
		return us.s.user.GetByUnique(ctx, u)
	})
}

// ImportTag loads a TinodeTagUnique row: it adds the tag to its Source user
// (TN-3), so the guard and the user's Tags stay one fact. The user must
// exist (table.ErrNotFound otherwise).
//
// Requests: a consistent GetItem of the user, whose current tags decide
// which guards to write or free, then one TransactWriteItems checked on the
// version read.
func (us *Users) ImportTag(ctx context.Context, t tn.UniqueTag) error {
	return us.importTag.Do(ctx, func(ctx context.Context) error {
		_, err := us.AddTags(ctx, t.Source, t.Id)
		return err
	})
}

// UserMatch is a user found by contact discovery and the tags that matched.
type UserMatch struct {
	User tn.User
	Tags []string
}

// FindByTags returns the users holding any of tags (TN-19, contact
// discovery): one BatchGetItem on the tag guards (under Options.SharedTags
// one Query per shared tag instead), one on the owners they name (the
// engine's confirmation, table.LookupUniques: an owner that no longer holds
// a tag does not match it, and its orphan guard is removed), one on the
// users found, in the order of their first matching tag; a user read
// without the tag (a shared tag's entry left behind by a change another
// writer made) does not match it. Free tags and topics' tags are skipped
// ([Topics.FindByTags] finds topics).
func (us *Users) FindByTags(ctx context.Context, tags ...string) ([]UserMatch, error) {
	return table.Run(ctx, us.findByTags, func(ctx context.Context) ([]UserMatch, error) {
		return findByTags(ctx, us.s, tags, us.s.user, us.GetMany, func(u tn.User) (tn.UserID, []string) { return u.Id, u.Tags },
			func(u tn.User, tags []string) UserMatch { return UserMatch{User: u, Tags: tags} })
	})
}

// Touch records that the user was online (LastSeen, UserAgent) with one
// UpdateItem. A missing user gives table.ErrNotFound.
//
// Pattern: TN-1 (the user record's write side).
func (us *Users) Touch(ctx context.Context, id tn.UserID, when time.Time, userAgent string) error {
	return us.touch.Do(ctx, func(ctx context.Context) error {
		k, err := us.s.user.CheckedKey(tn.User{Id: id})
		if err != nil {
			return err
		}
		set := map[string]any{"LastSeen": when.UTC()}
		p := table.Patch{Set: set}
		if userAgent != "" {
			set["UserAgent"] = userAgent
		} else {
			p.Remove = []string{"UserAgent"}
		}
		_, err = us.s.user.Patch(ctx, k, p)
		return err
	})
}

// Delete hard-deletes the user (TN-17): it marks the user deleted, deletes
// its subscriptions (GSI1 USER#{id}, SK begins_with SUBUPD#; each with its
// topic's SubCnt, TN-24), its credentials (releasing validated values) and
// auth records (GSI1 USER#{id}, SK begins_with AUTH#, in batches), then
// the user item with its tag guards in one transaction. It is resumable: if it
// stops (context, error), calling it again finishes the job. A user that
// does not exist gives table.ErrNotFound.
//
// Requests: the steps are separate requests because their items are
// unbounded in number and marking the user first is what makes the job
// resumable; for a user with one subscription and no credentials or auth
// records that is 8: the marking UpdateItem, the Query of the subscriptions,
// the subscription's GetItem and transaction (as Subscriptions.Delete), one
// Query each for credentials and auth records, then the user's GetItem (its
// tags name the guards to delete) and the final transaction.
func (us *Users) Delete(ctx context.Context, id tn.UserID) error {
	return us.delete.Do(ctx, func(ctx context.Context) error {
		k, err := us.s.user.CheckedKey(tn.User{Id: id})
		if err != nil {
			return err
		}
		if _, err := us.SoftDelete(ctx, id); err != nil {
			return err
		}
		// Each subscription goes with its topic's SubCnt (TN-24).
		for sub, err := range us.s.Subs.ByUser.All(ctx, tn.Subscription{User: id}, table.IncludeHidden()) {
			if err == nil {
				err = us.s.Subs.Delete(ctx, sub.Topic, sub.User)
			}
			if err != nil && !errors.Is(err, table.ErrNotFound) {
				return fmt.Errorf("delete user %s: subscriptions: %w", id, err)
			}
		}
		if err := us.s.Creds.Delete(ctx, id, "", ""); err != nil {
			return fmt.Errorf("delete user %s: credentials: %w", id, err)
		}
		if err := us.s.purgeIndex(ctx, us.s.auth.Partition(table.GSI1, tn.AuthRecord{UserID: id})); err != nil {
			return fmt.Errorf("delete user %s: auth records: %w", id, err)
		}
		return us.s.user.Delete(ctx, k)
	})
}

// now is the table's clock (table.Options.Now), in UTC, to the
// precision Tinode stores its times at (tn.Precision), as the stamps are.
func (s *Store) now() time.Time { return s.t.Now().UTC().Truncate(tn.Precision) }
