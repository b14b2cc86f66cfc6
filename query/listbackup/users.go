package listbackup

import (
	"context"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Users serves LB-1..LB-4: users by ID, email and username (both unique),
// and profile updates. The read by ID is declared ([table.Pattern]): its
// field.
type Users struct {
	// ByID reads a user (LB-1).
	//
	//	u, err := s.Users.ByID.Get(ctx, lb.User{UserID: id})
	ByID *table.Pattern[lb.User]
	// Create creates a user (LB-1, its write side; LB-2, LB-3 uniqueness).
	// Its email and username must not be held by another user (compared
	// normalized): guard items are written in the same transaction. Status
	// defaults to active.
	Create func(context.Context, *lb.User) error
	// GetByEmail returns the user holding email (LB-2), compared
	// normalized, through its guard item. Uniqueness is enforced on create
	// and on change.
	GetByEmail func(context.Context, string) (lb.User, error)
	// GetByUsername returns the user holding username (LB-3), compared
	// lower-cased, through its guard item.
	GetByUsername func(context.Context, string) (lb.User, error)
	// Update applies change to the user (LB-4) for attributes keys or
	// guards derive from (email, username) and secrets (mfaSecret); the
	// user and its guards move in one transaction. Beyond its form's
	// errors: table.ErrConflict (after retries).
	Update func(context.Context, lb.UserID, func(*lb.User) error) (lb.User, error)

	erase, updateProfile table.Op
	e                    *entities
}

func newUsers(e *entities) *Users {
	return &Users{e: e,
		Create: table.Create(e.users, table.WriteDef[lb.User]{ID: "LB-1", Name: "listbackup.Users.Create", Also: []string{"LB-2", "LB-3"},
			Doc:    "Creates a user.",
			Before: func(u *lb.User) { orDefault(&u.Status, lb.UserActive) }}),
		erase: table.NewOp(e.t, "LB-68", "listbackup.Users.Erase"),
		GetByEmail: table.ByUnique(e.users, table.UniqueDef{ID: "LB-2", Name: "listbackup.Users.GetByEmail",
			Doc:    "The user holding an email, compared normalized: a GetItem of its guard, then of the user.",
			Unique: UniqueEmail, Check: func(v string) error { return lb.CheckEmail("email", v) }, Normalize: lb.NormalizeEmail}, table.Consistent()),
		GetByUsername: table.ByUnique(e.users, table.UniqueDef{ID: "LB-3", Name: "listbackup.Users.GetByUsername",
			Doc:    "The user holding a username, compared lower-cased: a GetItem of its guard, then of the user.",
			Unique: UniqueUsername, Check: func(v string) error { return lb.CheckUsername("username", v) }, Normalize: lb.NormalizeUsername}, table.Consistent()),
		updateProfile: table.NewOp(e.t, "LB-4", "listbackup.Users.UpdateProfile"),
		Update: table.Update(e.users, table.WriteDef[lb.User]{ID: "LB-4", Name: "listbackup.Users.Update",
			Doc: "Applies change to the user for attributes keys or guards derive from (email, username) and secrets (mfaSecret): a consistent read, then one transaction that writes the user and moves its guards."},
			func(id lb.UserID) lb.User { return lb.User{UserID: id} }),
		ByID: table.NewPattern(e.users, table.PatternDef[lb.User]{ID: "LB-1", Name: "listbackup.Users.ByID",
			Doc: "A user by ID.", Reads: table.ReadOne}),
	}
}

// ProfileChange lists the profile attributes to change; nil fields are
// left as they are.
type ProfileChange struct {
	Name        *string
	FirstName   *string
	LastName    *string
	Preferences *lb.UserPreferences
	LastLoginAt *time.Time
}

// UpdateProfile changes profile attributes that no key derives from
// (LB-4), in one UpdateItem on USER#{userId} / PROFILE, and returns the
// user as stored. Errors: *table.ValidationError (nothing to change),
// table.ErrNotFound.
func (s *Users) UpdateProfile(ctx context.Context, id lb.UserID, c ProfileChange) (lb.User, error) {
	return table.Run(ctx, s.updateProfile, func(ctx context.Context) (lb.User, error) {
		k, err := s.e.users.CheckedKey(lb.User{UserID: id})
		if err != nil {
			return lb.User{}, err
		}
		set := map[string]any{"updatedAt": s.e.now()}
		if c.Name != nil {
			set["name"] = *c.Name
		}
		if c.FirstName != nil {
			set["firstName"] = *c.FirstName
		}
		if c.LastName != nil {
			set["lastName"] = *c.LastName
		}
		if c.Preferences != nil {
			set["preferences"] = *c.Preferences
		}
		if c.LastLoginAt != nil {
			set["lastLoginAt"] = c.LastLoginAt.UTC()
		}
		if len(set) == 1 {
			return lb.User{}, table.Invalid("change", "nothing to change")
		}
		for f, v := range set {
			if s, ok := v.(string); ok && s == "" {
				return lb.User{}, table.Invalid(f, "empty; leave it nil to keep it")
			}
		}
		return s.e.users.Patch(ctx, k, table.Patch{Set: set})
	})
}
