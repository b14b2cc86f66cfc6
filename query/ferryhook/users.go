package ferryhook

import (
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"

	"context"
	"errors"
	"fmt"
	"time"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// Users serves the users of the document's interface (FH-1, FH-2, FH-11).
type Users struct {
	// ByID reads a user (FH-1; FH-11 users.getById).
	//
	//	u, err := s.Users.ByID.Get(ctx, fh.User{UserID: id})
	ByID *table.Pattern[fh.User]

	create, getByEmail, login, update, incrementUsage, usage table.Op
	s                                                        *Store
}

func newUsers(s *Store) *Users {
	return &Users{s: s,
		ByID: table.NewPattern(s.user, table.PatternDef[fh.User]{ID: "FH-1", Name: "ferryhook.Users.ByID",
			Doc: "A user by ID.", Reads: table.ReadOne}),
		create:         table.NewOp(s.main, "FH-11", "ferryhook.Users.Create"),
		getByEmail:     table.NewOp(s.main, "FH-2", "ferryhook.Users.GetByEmail"),
		login:          table.NewOp(s.main, "FH-2", "ferryhook.Users.Login"),
		update:         table.NewOp(s.main, "FH-11", "ferryhook.Users.Update"),
		incrementUsage: table.NewOp(s.main, "FH-11", "ferryhook.Users.IncrementUsage"),
		usage:          table.NewOp(s.main, "FH-14", "ferryhook.Users.Usage"),
	}
}

// CreateUserInput is what sign-up knows about a new user.
type CreateUserInput struct {
	// Email is required; it is stored trimmed and lower-cased.
	Email string
	// Name is the display name (required).
	Name string
	// PasswordHash is a bcrypt hash; or give GitHubID or GoogleID.
	PasswordHash string
	GitHubID     string
	GoogleID     string
	// Plan defaults to free.
	Plan fh.Plan
}

// Create signs a user up (FH-11 users.create; FH-2 uniqueness): a new
// usr_ ID, the email normalized, the free plan unless given, a usage period
// starting now (in the scaled profile, with its usage counter shards in
// the same transaction). The email is unique: a guard item UNIQUE#email#{email} is
// written in the same transaction as the user (so of concurrent sign-ups
// with one email exactly one succeeds), and GSI1 is checked first for users
// written without a guard by the existing service: two requests (a Query of
// GSI1, the transaction), three when the email is not given folded. A taken email gives
// [ErrEmailTaken]; bad input a *table.ValidationError before any request.
func (u *Users) Create(ctx context.Context, in CreateUserInput) (fh.User, error) {
	return table.Run(ctx, u.create, func(ctx context.Context) (fh.User, error) {
		if in.Plan == "" {
			in.Plan = fh.PlanFree
		}
		now := u.s.now()
		user := fh.User{
			UserID:           fh.UserIDs.New(),
			Email:            u.storedEmail(in.Email),
			Name:             in.Name,
			PasswordHash:     in.PasswordHash,
			GitHubID:         in.GitHubID,
			GoogleID:         in.GoogleID,
			Plan:             in.Plan,
			UsagePeriodStart: u.periodStart(now),
		}
		if err := u.s.user.Validate(&user); err != nil {
			return fh.User{}, err
		}
		if err := u.checkNoLegacyHolder(ctx, in.Email); err != nil {
			return fh.User{}, err
		}
		// The scaled profile creates the user's usage shards with it, so its
		// first ingest needs no shard creation.
		var shards []table.TxOp
		if u.s.scaled() {
			shards = u.s.usageCounters.NewShardOps(string(user.UserID), map[string]string{"plan": string(user.Plan)})
		}
		if err := u.s.user.CreateAlso(ctx, &user, shards); err != nil {
			return fh.User{}, emailErr(err)
		}
		return user, nil
	})
}

// checkNoLegacyHolder fails with ErrEmailTaken if GSI1 shows a user
// holding email in any of its stored forms. It is for users the existing
// service wrote without a guard: a guarded holder is refused by the
// create's own transaction, so no guard is read first. A Query per form
// (one when the email is given in its folded form); an index that lags
// can only refuse, never admit, a duplicate the guard would not catch.
func (u *Users) checkNoLegacyHolder(ctx context.Context, email string) error {
	for _, q := range u.emailPartitions(email) {
		other, err := u.s.user.FindOne(ctx, q)
		switch {
		case errors.Is(err, table.ErrNotFound):
		case err != nil:
			return err
		default:
			return fmt.Errorf("%w: %q (user %s): %w", ErrEmailTaken, email, other.UserID, table.ErrUniqueViolation)
		}
	}
	return nil
}

// emailPartitions returns the GSI1 queries of the partitions a user
// holding email may be under: EMAIL#{email as given, trimmed}, and
// EMAIL#{folded} when that differs (the existing service stores emails as
// given), each GSI1SK = USER.
func (u *Users) emailPartitions(email string) []table.Query {
	forms := []string{strings.TrimSpace(email)}
	if folded := fh.NormalizeEmail(email); folded != forms[0] {
		forms = append(forms, folded)
	}
	var out []table.Query
	for _, form := range forms {
		if q := u.s.user.Partition(table.GSI1, fh.User{Email: form}); q.Err() == nil {
			out = append(out, q)
		}
	}
	return out
}

// checkEmailFree fails with ErrEmailTaken if GSI1 shows another user than
// self holding email.
func (u *Users) checkEmailFree(ctx context.Context, email string, self fh.UserID) error {
	other, err := u.GetByEmail(ctx, email)
	switch {
	case errors.Is(err, table.ErrNotFound):
		return nil
	case err != nil:
		return err
	case other.UserID != self:
		return fmt.Errorf("%w: %q (user %s): %w", ErrEmailTaken, email, other.UserID, table.ErrUniqueViolation)
	}
	return nil
}

func emailErr(err error) error {
	if errors.Is(err, table.ErrUniqueViolation) {
		return fmt.Errorf("%w: %w", ErrEmailTaken, err)
	}
	return err
}

// storedEmail is the form an email is stored in: folded
// (fh.NormalizeEmail), or as typed (trimmed, NFC) with
// Options.EmailAsEntered.
func (u *Users) storedEmail(email string) string {
	if u.s.opts.EmailAsEntered {
		return norm.NFC.String(strings.TrimSpace(email))
	}
	return fh.NormalizeEmail(email)
}

// GetByEmail returns the user with this email (FH-2; FH-11
// users.getByEmail). The user holding the address exactly as given
// (trimmed, NFC; folded in the default profile, which stores emails so)
// wins; otherwise the one user holding it in another case or Unicode form.
//
// Requests: a strongly consistent GetItem of the email's guard
// (UNIQUE#email#{folded}) and one of its owner, which answers if it still
// holds the address and holds it as given: two requests, the common case.
// Otherwise GSI1 is queried for the address as given and, if that differs,
// folded (each hit confirmed by a consistent GetItem, so a lagging index or
// an email change never returns another user): an exact holder found there
// wins over the guard's owner (live data may hold two users whose emails
// differ only in case: the service stored emails as typed, and only one of
// them can hold the guard). Several users found and none exact gives an
// [*AmbiguousEmailError] (matching [ErrAmbiguousEmail]) naming them, never
// one of them. A case variant the running service wrote that holds no
// guard and is stored neither as given nor folded is not seen (no index
// lists emails by their folded form until the adoption job has run). No
// user gives table.ErrNotFound.
func (u *Users) GetByEmail(ctx context.Context, email string) (fh.User, error) {
	return table.Run(ctx, u.getByEmail, func(ctx context.Context) (fh.User, error) {
		folded := fh.NormalizeEmail(email)
		if err := u.s.user.Partition(table.GSI1, fh.User{Email: folded}).Err(); err != nil {
			return fh.User{}, table.Invalid("email", "%v", err)
		}
		exact := u.storedEmail(email)
		found := map[fh.UserID]fh.User{}
		usr, err := u.s.user.GetByUnique(ctx, table.Unique{Name: uniqueEmail, Value: folded})
		switch {
		case err == nil && usr.Email == exact:
			return usr, nil
		case err == nil:
			found[usr.UserID] = usr
		case !errors.Is(err, table.ErrNotFound):
			return fh.User{}, err
		}
		for _, q := range u.emailPartitions(email) {
			usr, err = u.s.user.GetByIndex(ctx, q)
			switch {
			case err == nil && usr.Email == exact:
				return usr, nil
			case err == nil:
				found[usr.UserID] = usr
			case !errors.Is(err, table.ErrNotFound):
				return fh.User{}, err
			}
		}
		switch len(found) {
		case 0:
			return fh.User{}, fmt.Errorf("get user by email %q: %w", email, table.ErrNotFound)
		case 1:
			for _, one := range found {
				return one, nil
			}
		}
		amb := &AmbiguousEmailError{Email: email}
		for id := range found {
			amb.Candidates = append(amb.Candidates, id)
		}
		slices.Sort(amb.Candidates)
		return fh.User{}, fmt.Errorf("get user by email: %w", amb)
	})
}

// Login returns the user who may sign in with email and a password, as
// the running service's login handler decides, through [Users.GetByEmail] (FH-2):
// the user holding the address (exactly as given first), whose stored
// password hash passwordMatches accepts (pass a bcrypt comparison of the
// password the user typed). It never logs another account in: an
// ambiguous address (case variants, none exact) is refused with an error
// matching both [ErrInvalidLogin] and [ErrAmbiguousEmail]; no user, a user
// without a password hash, or a mismatch gives [ErrInvalidLogin]. The
// cost is GetByEmail's.
func (u *Users) Login(ctx context.Context, email string, passwordMatches func(passwordHash string) bool) (fh.User, error) {
	return table.Run(ctx, u.login, func(ctx context.Context) (fh.User, error) {
		usr, err := u.GetByEmail(ctx, email)
		switch {
		case errors.Is(err, ErrAmbiguousEmail):
			return fh.User{}, fmt.Errorf("login: %w: %w", ErrInvalidLogin, err)
		case errors.Is(err, table.ErrNotFound), errors.Is(err, table.ErrInvalidInput):
			return fh.User{}, fmt.Errorf("login: %w", ErrInvalidLogin)
		case err != nil:
			return fh.User{}, err
		}
		if usr.PasswordHash == "" || passwordMatches == nil || !passwordMatches(usr.PasswordHash) {
			return fh.User{}, fmt.Errorf("login: %w", ErrInvalidLogin)
		}
		return usr, nil
	})
}

// UserUpdate is a partial update of a user (the document's Partial<User>):
// nil fields are left alone. IDs, counters and timestamps are not
// updatable here.
type UserUpdate struct {
	Email            *string
	Name             *string
	PasswordHash     *string
	Plan             *fh.Plan
	StripeCustomerID *string
	StripeSubID      *string
	GitHubID         *string
	GoogleID         *string
}

func (up UserUpdate) empty() bool { return up == UserUpdate{} }

// Update changes a user (FH-11 users.update) and returns it as stored: a
// read and a conditional write on the item's version, retried on a lost
// race, so concurrent updates are never lost. An email change moves the
// EMAIL# GSI1 key and the email guard in the same transaction; a taken
// email gives [ErrEmailTaken]. In the scaled profile ([ScaledProfile]) a
// plan change also writes the plan into the user's usage shards in the same
// transaction, so the next ingest sees it in its own transaction. A missing
// user gives table.ErrNotFound; bad input a *table.ValidationError.
func (u *Users) Update(ctx context.Context, id fh.UserID, up UserUpdate) (fh.User, error) {
	return table.Run(ctx, u.update, func(ctx context.Context) (fh.User, error) {
		k, err := u.s.user.CheckedKey(fh.User{UserID: id})
		if err != nil {
			return fh.User{}, err
		}
		if up.empty() {
			return fh.User{}, table.Invalid("update", "no field to change")
		}
		// Every field the update sets is checked before any request.
		var probe fh.User
		var attrs []string
		for _, f := range []struct {
			attr string
			v    *string
			dst  *string
		}{{"name", up.Name, &probe.Name}, {"passwordHash", up.PasswordHash, &probe.PasswordHash},
			{"stripeCustomerId", up.StripeCustomerID, &probe.StripeCustomerID}, {"stripeSubId", up.StripeSubID, &probe.StripeSubID},
			{"githubId", up.GitHubID, &probe.GitHubID}, {"googleId", up.GoogleID, &probe.GoogleID}} {
			if f.v != nil {
				*f.dst = *f.v
				attrs = append(attrs, f.attr)
			}
		}
		if up.Plan != nil {
			probe.Plan, attrs = *up.Plan, append(attrs, "plan")
		}
		if err := probe.ValidateFields(attrs...); err != nil {
			return fh.User{}, err
		}
		if up.Email != nil {
			e := u.storedEmail(*up.Email)
			up.Email = &e
			if err := fh.ValidateEmail(e); err != nil {
				return fh.User{}, err
			}
			if err := u.checkEmailFree(ctx, e, id); err != nil {
				return fh.User{}, err
			}
		}
		// The scaled profile's usage shards hold a copy of the plan: a plan
		// change writes them in the same transaction.
		var also []table.TxOp
		if u.s.scaled() && up.Plan != nil {
			also = u.s.usageCounters.StateOps(string(id), map[string]string{"plan": string(*up.Plan)})
			defer u.s.forgetOwner(id)
		}
		user, err := u.s.user.UpdateAlso(ctx, k, also, func(cur *fh.User) error {
			set(&cur.Email, up.Email)
			set(&cur.Name, up.Name)
			set(&cur.PasswordHash, up.PasswordHash)
			set(&cur.Plan, up.Plan)
			set(&cur.StripeCustomerID, up.StripeCustomerID)
			set(&cur.StripeSubID, up.StripeSubID)
			set(&cur.GitHubID, up.GitHubID)
			set(&cur.GoogleID, up.GoogleID)
			return nil
		})
		return user, emailErr(err)
	})
}

// IncrementUsage adds n (at least 1) to the user's usageThisMonth
// atomically (FH-11 users.incrementUsage) and returns the new count: one
// UpdateItem ADD, so concurrent increments are never lost. A missing user
// gives table.ErrNotFound.
func (u *Users) IncrementUsage(ctx context.Context, id fh.UserID, n int64) (int64, error) {
	return table.Run(ctx, u.incrementUsage, func(ctx context.Context) (int64, error) {
		k, err := u.s.user.CheckedKey(fh.User{UserID: id})
		if err != nil {
			return 0, err
		}
		if n < 1 {
			return 0, table.Invalid("count", "%d is not positive", n)
		}
		return u.s.user.Add(ctx, k, "usageThisMonth", n)
	})
}

// ResetUsage starts a new billing period at start: usageThisMonth 0,
// usagePeriodStart start (one UpdateItem). In the scaled profile: a
// consistent GetItem of the user, one transaction that also zeroes its
// usage shards and rollup item (on condition that the plan is the one
// read: a concurrent plan change gives table.ErrConflict), and a GetItem
// of the result. A missing user gives table.ErrNotFound.
func (u *Users) ResetUsage(ctx context.Context, id fh.UserID, start time.Time) (fh.User, error) {
	defer u.s.forgetUsage(id) // the plan limit: the next ingest reads the new period's usage
	k, err := u.s.user.CheckedKey(fh.User{UserID: id})
	if err != nil {
		return fh.User{}, err
	}
	if start.IsZero() {
		return fh.User{}, table.Invalid("usagePeriodStart", "required")
	}
	p := table.Patch{Set: map[string]any{
		"usageThisMonth":   0,
		"usagePeriodStart": u.periodStart(start).String(),
		"updatedAt":        fh.ISO(u.s.now()).String(),
	}}
	if !u.s.scaled() {
		return u.s.user.Patch(ctx, k, p)
	}
	// Scaled: the user (on condition that its plan is the one read) and
	// every usage shard and the rollup item set to 0, in one transaction.
	cur, err := u.s.user.Get(ctx, k, table.Consistent())
	if err != nil {
		return fh.User{}, err
	}
	if cur.Plan == "" {
		p.IfAbsent = []string{"plan"}
	} else {
		p.IfEqual = map[string]any{"plan": string(cur.Plan)}
	}
	op, err := u.s.user.PatchOp(k, p)
	if err != nil {
		return fh.User{}, err
	}
	op = op.OnFail(fmt.Errorf("reset usage of user %s: %w", id, table.ErrConflict))
	ops := append([]table.TxOp{op}, u.s.usageCounters.ResetOps(string(id), []string{"usageThisMonth"}, map[string]string{"plan": string(cur.Plan)})...)
	if err := u.s.main.Transact(ctx, ops...); err != nil {
		return fh.User{}, err
	}
	return u.s.user.Get(ctx, k, table.Consistent())
}

// periodStart is a billing period's start as stored: the full timestamp
// (the library's default), or under ServiceProfile the UTC date, as the
// running service's users.create writes it (YYYY-MM-DD, fh.ISODate).
func (u *Users) periodStart(t time.Time) fh.ISOTime {
	if u.s.opts.ServiceVocabulary {
		return fh.ISODate(t)
	}
	return fh.ISO(t)
}

// set assigns *v to *dst when v is not nil.
func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// EnsureGuards makes the user hold the guard of its email (folded): a user
// written by the running service has none until then (the adoption job,
// `singletable adopt -app ferryhook`, does this for every user). Another
// user holding the address gives [ErrEmailTaken]: a case-variant duplicate
// the live data already held, to resolve by hand.
func (u *Users) EnsureGuards(ctx context.Context, id fh.UserID) error {
	k, err := u.s.user.CheckedKey(fh.User{UserID: id})
	if err != nil {
		return err
	}
	return emailErr(u.s.user.EnsureGuards(ctx, k))
}
