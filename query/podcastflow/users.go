package podcastflow

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

// Users serves the user patterns: PF-1, PF-2, PF-3, PF-4, PF-12, PF-13,
// and the writes the platform needs (create, update, role, organization
// and status changes, last login, preferences, delete).
type Users struct {
	// Profile reads a user's profile (PF-1).
	//
	//	u, err := s.Users.Profile.Get(ctx, pf.UserProfile{UserID: id})
	Profile *table.Pattern[pf.UserProfile]
	// Preferences reads a user's preferences (PF-2); table.ErrNotFound when
	// never saved.
	Preferences *table.Pattern[pf.UserPreferences]
	// AllUsers lists every user by userId (PF-4), with no Scan (the
	// document's); its index partition is sharded (Options.IndexShards).
	//
	//	page, err := s.Users.AllUsers.List(ctx, pf.UserProfile{}, table.Limit(50))
	AllUsers *table.Pattern[pf.UserProfile]
	// ByOrganization lists an organization's users by userId (PF-12).
	//
	//	for u, err := range s.Users.ByOrganization.All(ctx, pf.UserProfile{OrganizationID: org}) {
	ByOrganization *table.Pattern[pf.UserProfile]
	// ByRole lists the users with a role by userId (PF-13); the role's
	// partition is sharded as AllUsers'.
	ByRole *table.Pattern[pf.UserProfile]
	// Update applies change to the user (PF-1, its write side) with
	// optimistic concurrency (retried on a lost race) and returns the user
	// as written. Index entries (organization, role, status) and the email
	// guard move in the same write; the userId cannot change. change is
	// arbitrary code that needs the current profile.
	Update func(context.Context, pf.UserID, func(*pf.UserProfile) error) (pf.UserProfile, error)
	// GetByEmail returns the user holding email, compared lower-cased (PF-1,
	// the read beside it). Not in the document; it comes with unique emails.
	GetByEmail func(context.Context, string) (pf.UserProfile, error)
	// ChangeRole sets a user's role; its GSI2 entry (PF-13) moves in the
	// same write.
	ChangeRole func(context.Context, pf.UserID, pf.Role) (pf.UserProfile, error)
	// SetStatus sets a user's status; its GSI3 entry (PF-14) moves in the
	// same write.
	SetStatus func(context.Context, pf.UserID, pf.UserStatus) (pf.UserProfile, error)
	// Reindex rewrites a user's profile through the library, so that an
	// item written by another service in the document's format (which has
	// no GSI keys) joins the indexes of PF-4, PF-12, PF-13 and PF-14.
	Reindex func(context.Context, pf.UserID) (pf.UserProfile, error)
	// PutPreferences writes a user's preferences (PF-2, its write side) as
	// an upsert; the user's existence is not checked, preferences are
	// deleted with the user.
	PutPreferences func(context.Context, *pf.UserPreferences) error

	create, getWithPreferences              table.Op
	moveToOrganization, recordLogin, delete table.Op
	e                                       *entities
}

func newUsers(e *entities) *Users {
	key := func(id pf.UserID) pf.UserProfile { return pf.UserProfile{UserID: id} }
	return &Users{e: e,
		Update: table.Update(e.users, table.WriteDef[pf.UserProfile]{ID: "PF-1", Name: "podcastflow.Users.Update",
			Doc: "Applies change to the user and writes it back with optimistic concurrency (retried on a lost race)."}, key),
		Profile: table.NewPattern(e.users, table.PatternDef[pf.UserProfile]{ID: "PF-1", Name: "podcastflow.Users.Profile",
			Doc: "A user's profile.", Reads: table.ReadOne}),
		Preferences: table.NewPattern(e.prefs, table.PatternDef[pf.UserPreferences]{ID: "PF-2", Name: "podcastflow.Users.Preferences",
			Doc: "A user's preferences.", Reads: table.ReadOne}),
		AllUsers: table.NewPattern(e.users, table.PatternDef[pf.UserProfile]{ID: "PF-4", Name: "podcastflow.Users.AllUsers",
			Doc: "Every user, by userId, one Query per shard per page (no Scan).", Reads: table.ReadPage, Index: IndexAll, WholePartition: true}),
		ByOrganization: table.NewPattern(e.users, table.PatternDef[pf.UserProfile]{ID: "PF-12", Name: "podcastflow.Users.ByOrganization",
			Doc: "An organization's users, by userId.", Reads: table.ReadPage, Index: IndexOrgUsers, WholePartition: true}),
		ByRole: table.NewPattern(e.users, table.PatternDef[pf.UserProfile]{ID: "PF-13", Name: "podcastflow.Users.ByRole",
			Doc: "The users with a role, by userId, one Query per shard per page.", Reads: table.ReadPage, Index: IndexRole, WholePartition: true}),
		create: table.NewOp(e.t, "PF-1", "podcastflow.Users.Create"),
		GetByEmail: table.ByUnique(e.users, table.UniqueDef{ID: "PF-1", Name: "podcastflow.Users.GetByEmail",
			Doc:    "The user holding an email (compared lower-cased): one GetItem on the email guard, one on the profile.",
			Unique: uniqueEmail, Check: func(v string) error { return pf.CheckEmail("email", v) }, Normalize: pf.NormalizeEmail}),
		getWithPreferences: table.NewOp(e.t, "PF-3", "podcastflow.Users.GetWithPreferences"),
		ChangeRole: table.UpdateWith(e.users, table.WriteDef[pf.UserProfile]{ID: "PF-13", Name: "podcastflow.Users.ChangeRole",
			Doc: "Sets a user's role; its GSI2 entry (PF-13) moves in the same write."}, key,
			"role", func(u *pf.UserProfile, role pf.Role) error { u.Role = role; return nil }),
		SetStatus: table.UpdateWith(e.users, table.WriteDef[pf.UserProfile]{ID: "PF-14", Name: "podcastflow.Users.SetStatus",
			Doc: "Sets a user's status; its GSI3 entry (PF-14) moves in the same write."}, key,
			"status", func(u *pf.UserProfile, status pf.UserStatus) error { u.Status = status; return nil }),
		moveToOrganization: table.NewOp(e.t, "PF-12", "podcastflow.Users.MoveToOrganization"),
		recordLogin:        table.NewOp(e.t, "PF-1", "podcastflow.Users.RecordLogin"),
		PutPreferences: table.Upsert(e.prefs, table.WriteDef[pf.UserPreferences]{ID: "PF-2", Name: "podcastflow.Users.PutPreferences",
			Doc: "Writes a user's preferences (an upsert; the user's existence is not checked, preferences are deleted with the user)."}),
		delete: table.NewOp(e.t, "PF-1", "podcastflow.Users.Delete"),
		Reindex: table.Rewrite(e.users, table.WriteDef[pf.UserProfile]{ID: "PF-4", Name: "podcastflow.Users.Reindex",
			Doc:  "Rewrites a user's profile through the library, so that an item another service wrote joins the indexes of PF-4, PF-12, PF-13 and PF-14.",
			Also: []string{"PF-12", "PF-13", "PF-14"}}, key),
	}
}

// UserWithPreferences is a user's profile with its preferences (PF-3).
// Preferences is nil when the user has never saved any.
type UserWithPreferences struct {
	Profile     pf.UserProfile
	Preferences *pf.UserPreferences
}

// Create creates user u. Its email must not be held by another user
// (case-insensitively), and its organization, if any, must exist: both are
// checked in the same transaction that writes the user. Status defaults to
// active. Errors: *table.ValidationError (before any request),
// table.ErrAlreadyExists (the user ID exists), table.ErrUniqueViolation
// (the email is taken), table.ErrNotFound (the organization does not exist).
//
// Pattern: PF-1 (its write side).
func (s *Users) Create(ctx context.Context, u *pf.UserProfile) error {
	return s.create.Do(ctx, func(ctx context.Context) error {
		if u.Status == "" {
			u.Status = pf.UserActive
		}
		ops, err := s.e.users.CreateOp(u)
		if err != nil {
			return err
		}
		ops[0] = ops[0].OnFail(table.ErrAlreadyExists) // its guards: table.ErrUniqueViolation
		if u.OrganizationID != "" {
			orgKey, _ := s.e.orgs.CheckedKey(pf.OrganizationProfile{OrganizationID: u.OrganizationID})
			ops = append(ops, s.e.t.ConditionOp(orgKey).OnFail(fmt.Errorf("organization %s: %w", u.OrganizationID, table.ErrNotFound)))
		}
		if err := s.e.t.Transact(ctx, ops...); err != nil {
			return fmt.Errorf("create user %s: %w", u.UserID, err)
		}
		return nil
	})
}

// GetWithPreferences returns a user's profile and preferences with one
// Query on the item collection (PF-3): PK = USER#{userId}. Items written
// without the entity-type attribute are recognized by their sort key.
// Errors: *table.ValidationError, table.ErrNotFound (no profile).
func (s *Users) GetWithPreferences(ctx context.Context, id pf.UserID) (UserWithPreferences, error) {
	return table.Run(ctx, s.getWithPreferences, func(ctx context.Context) (UserWithPreferences, error) {
		var out UserWithPreferences
		k, err := s.e.users.CheckedKey(pf.UserProfile{UserID: id})
		if err != nil {
			return out, err
		}
		found := false
		_, err = s.e.t.ReadCollection(ctx, table.Query{PK: k.PK, Consistent: true},
			table.Into(s.e.users, func(u pf.UserProfile) { out.Profile, found = u, true }),
			table.Into(s.e.prefs, func(p pf.UserPreferences) { out.Preferences = &p }))
		if err != nil {
			return UserWithPreferences{}, err
		}
		if !found {
			return UserWithPreferences{}, fmt.Errorf("get user %s with preferences: %w", id, table.ErrNotFound)
		}
		return out, nil
	})
}

// MoveToOrganization moves a user to organization org; its GSI1 entry
// (PF-12) moves in the same write, and the organization must exist when
// it lands: a ConditionCheck in the same transaction, not a read before
// it, so an organization deleted in between is noticed. Two requests (the
// user's consistent read, the transaction). Errors: as [Users.Update];
// table.ErrNotFound for a missing organization.
func (s *Users) MoveToOrganization(ctx context.Context, id pf.UserID, org pf.OrgID) (pf.UserProfile, error) {
	return table.Run(ctx, s.moveToOrganization, func(ctx context.Context) (pf.UserProfile, error) {
		k, err := s.e.users.CheckedKey(pf.UserProfile{UserID: id})
		if err != nil {
			return pf.UserProfile{}, err
		}
		ok, err := s.e.orgs.CheckedKey(pf.OrganizationProfile{OrganizationID: org})
		if err != nil {
			return pf.UserProfile{}, err
		}
		u, err := s.e.users.UpdateRequiring(ctx, k, []table.Key{ok}, func(u *pf.UserProfile) error { u.OrganizationID = org; return nil })
		if err != nil {
			return pf.UserProfile{}, fmt.Errorf("move user %s to organization %s: %w", id, org, err)
		}
		return u, nil
	})
}

// RecordLogin sets a user's lastLogin to at, in one UpdateItem (no read;
// updatedAt is left alone: a login is not a profile change). Errors:
// *table.ValidationError, table.ErrNotFound.
//
// Pattern: PF-1 (its write side).
func (s *Users) RecordLogin(ctx context.Context, id pf.UserID, at time.Time) (pf.UserProfile, error) {
	return table.Run(ctx, s.recordLogin, func(ctx context.Context) (pf.UserProfile, error) {
		k, err := s.e.users.CheckedKey(pf.UserProfile{UserID: id})
		if err != nil {
			return pf.UserProfile{}, err
		}
		if at.IsZero() {
			return pf.UserProfile{}, table.Invalid("lastLogin", "zero time")
		}
		return s.e.users.Patch(ctx, k, table.Patch{Set: map[string]any{"lastLogin": pf.Stamp(at)}, NoTouch: true})
	})
}

// Delete deletes a user: its preferences, then its profile and email
// guard (one transaction). Errors: *table.ValidationError,
// table.ErrNotFound (no profile).
//
// Pattern: PF-1 (its write side).
func (s *Users) Delete(ctx context.Context, id pf.UserID) error {
	return s.delete.Do(ctx, func(ctx context.Context) error {
		k, err := s.e.users.CheckedKey(pf.UserProfile{UserID: id})
		if err != nil {
			return err
		}
		if err := s.e.prefs.Delete(ctx, s.e.prefs.Key(pf.UserPreferences{UserID: id})); err != nil && !errors.Is(err, table.ErrNotFound) {
			return err
		}
		return s.e.users.Delete(ctx, k)
	})
}
