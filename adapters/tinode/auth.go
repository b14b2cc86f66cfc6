package tinode

import (
	"errors"
	"slices"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
	"github.com/tinode/chat/server/auth"
	t "github.com/tinode/chat/server/store/types"
)

// AuthGetUniqueRecord returns the record of unique "scheme:value" (TN-6):
// one GetItem. None gives zero values and no error, as Tinode expects.
func (a *Adapter) AuthGetUniqueRecord(unique string) (t.Uid, auth.Level, []byte, time.Time, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	r, err := a.st.Auth.ByUnique.Get(ctx, tn.AuthRecord{Unique: tn.AuthUnique(unique)})
	if err != nil {
		return t.ZeroUid, 0, nil, time.Time{}, notFoundNil(err)
	}
	return t.ParseUid(string(r.UserID)), auth.Level(r.AuthLvl), r.Secret, r.Expires, nil
}

// AuthGetRecord returns the user's record of scheme (TN-7): one Query of
// GSI1. None gives types.ErrNotFound.
func (a *Adapter) AuthGetRecord(user t.Uid, scheme string) (string, auth.Level, []byte, time.Time, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	r, err := a.st.Auth.GetByScheme(ctx, tn.UserID(user.String()), scheme)
	if err != nil {
		return "", 0, nil, time.Time{}, terr(err)
	}
	return string(r.Unique), auth.Level(r.AuthLvl), r.Secret, r.Expires, nil
}

// AuthAddRecord creates a record (TN-6): one conditional PutItem. A held
// unique value gives types.ErrDuplicate.
func (a *Adapter) AuthAddRecord(user t.Uid, scheme, unique string, lvl auth.Level, secret []byte, expires time.Time) error {
	ctx, cancel := a.ctx()
	defer cancel()
	return terr(a.st.Auth.Add(ctx, &tn.AuthRecord{
		Unique: tn.AuthUnique(unique), UserID: tn.UserID(user.String()),
		AuthLvl: tn.AuthLevel(lvl), Secret: secret, Expires: expires.UTC(),
	}))
}

// AuthDelScheme deletes the user's records of scheme (TN-29). None is not
// an error.
func (a *Adapter) AuthDelScheme(user t.Uid, scheme string) error {
	ctx, cancel := a.ctx()
	defer cancel()
	_, err := a.st.Auth.DeleteScheme(ctx, tn.UserID(user.String()), scheme)
	return notFoundNil(err)
}

// AuthDelAllRecords deletes every record of the user (TN-7) and returns
// how many there were.
func (a *Adapter) AuthDelAllRecords(user t.Uid) (int, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	id := tn.UserID(user.String())
	n := 0
	for _, err := range a.st.Auth.ByUser.All(ctx, tn.AuthRecord{UserID: id}) {
		if err != nil {
			return 0, terr(err)
		}
		n++
	}
	if n == 0 {
		return 0, nil
	}
	return n, terr(a.st.Auth.DeleteAllByUser(ctx, id))
}

// AuthUpdRecord changes the user's record of scheme (TN-29): in place, or
// under a new unique value in one transaction. Zero secret and expiry
// keep the stored ones. None gives types.ErrNotFound, a held new value
// types.ErrDuplicate.
func (a *Adapter) AuthUpdRecord(user t.Uid, scheme, unique string, lvl auth.Level, secret []byte, expires time.Time) error {
	ctx, cancel := a.ctx()
	defer cancel()
	id := tn.UserID(user.String())
	old, err := a.st.Auth.GetByScheme(ctx, id, scheme)
	if err != nil {
		return terr(err)
	}
	rec := old
	rec.Unique, rec.AuthLvl = tn.AuthUnique(unique), tn.AuthLevel(lvl)
	if len(secret) > 0 {
		rec.Secret = secret
	}
	if !expires.IsZero() {
		rec.Expires = expires.UTC()
	}
	_, err = a.st.Auth.Update(ctx, old.Unique, rec)
	return terr(err)
}

// CredUpsert records a credential (TN-30) and reports whether it is new.
// A value validated by another user gives types.ErrDuplicate.
func (a *Adapter) CredUpsert(cred *t.Credential) (bool, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	c := tn.Credential{
		User: tn.UserID(cred.User), Method: cred.Method, Value: cred.Value, Resp: cred.Resp,
		Done: cred.Done, Retries: cred.Retries, CreatedAt: cred.CreatedAt, UpdatedAt: cred.UpdatedAt,
	}
	if c.UpdatedAt.IsZero() {
		c.UpdatedAt = t.TimeNow()
	}
	isNew, err := a.st.Creds.Upsert(ctx, &c)
	return isNew, terr(err)
}

// CredGetActive returns the user's unvalidated credential of method
// (TN-30): one Query. None gives (nil, nil).
func (a *Adapter) CredGetActive(user t.Uid, method string) (*t.Credential, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	c, err := a.st.Creds.GetActive(ctx, tn.UserID(user.String()), method)
	if err != nil {
		return nil, notFoundNil(err)
	}
	out := fromCred(&c)
	return &out, nil
}

// CredGetAll returns the user's credentials of method ("" all), validated
// only or all live ones (TN-30): one Query.
func (a *Adapter) CredGetAll(user t.Uid, method string, validatedOnly bool) ([]t.Credential, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	cs, err := a.st.Creds.List(ctx, tn.UserID(user.String()), method, validatedOnly)
	if err != nil {
		return nil, terr(err)
	}
	out := make([]t.Credential, len(cs))
	for i := range cs {
		out[i] = fromCred(&cs[i])
	}
	// Oldest first, as Tinode's SQL adapters return them (rows in the
	// order they were inserted); the store lists them by value.
	slices.SortStableFunc(out, func(x, y t.Credential) int { return x.CreatedAt.Compare(y.CreatedAt) })
	return out, nil
}

// CredDel deletes the user's credential method:value, all of method
// (value ""), or all (method "") (TN-30). Nothing to delete gives
// types.ErrNotFound when one credential is named, as in Tinode's SQL
// adapters.
func (a *Adapter) CredDel(user t.Uid, method, value string) error {
	ctx, cancel := a.ctx()
	defer cancel()
	err := a.st.Creds.Delete(ctx, tn.UserID(user.String()), method, value)
	if errors.Is(err, table.ErrNotFound) && value == "" {
		return nil
	}
	return terr(err)
}

// CredConfirm marks the user's unvalidated credential of method validated
// (TN-30). None gives types.ErrNotFound; a value validated by another user
// types.ErrDuplicate.
func (a *Adapter) CredConfirm(user t.Uid, method string) error {
	ctx, cancel := a.ctx()
	defer cancel()
	_, err := a.st.Creds.Confirm(ctx, tn.UserID(user.String()), method)
	return terr(err)
}

// CredFail counts a failed confirmation of the user's unvalidated
// credential of method (TN-30). None is not an error, as in Tinode's
// adapters (an UPDATE that matches nothing).
func (a *Adapter) CredFail(user t.Uid, method string) error {
	ctx, cancel := a.ctx()
	defer cancel()
	_, err := a.st.Creds.Fail(ctx, tn.UserID(user.String()), method)
	return notFoundNil(err)
}

// DeviceUpsert adds or replaces a push device of the user (TN-16): one
// read and one version-checked write of the user.
func (a *Adapter) DeviceUpsert(user t.Uid, dev *t.DeviceDef) error {
	ctx, cancel := a.ctx()
	defer cancel()
	_, err := a.st.Users.UpsertDevice(ctx, tn.UserID(user.String()), toDevice(dev))
	return terr(err)
}

// DeviceGetAll returns the devices of the users and how many there are
// (TN-20): one BatchGetItem per 100 users.
func (a *Adapter) DeviceGetAll(users ...t.Uid) (map[t.Uid][]t.DeviceDef, int, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	devs, err := a.st.Users.Devices(ctx, userIDs(users)...)
	if err != nil {
		return nil, 0, terr(err)
	}
	out := make(map[t.Uid][]t.DeviceDef, len(devs))
	n := 0
	for id, ds := range devs {
		u := t.ParseUid(string(id))
		for _, d := range ds {
			out[u] = append(out[u], fromDevice(d))
			n++
		}
	}
	return out, n, nil
}

// DeviceDelete removes a device of the user, or all of them when deviceID
// is "" (TN-16). A device the user does not have is not an error.
func (a *Adapter) DeviceDelete(user t.Uid, deviceID string) error {
	ctx, cancel := a.ctx()
	defer cancel()
	id := tn.UserID(user.String())
	if deviceID == "" {
		_, err := a.st.Users.Update(ctx, id, func(u *tn.User) error {
			u.Devices = nil
			return nil
		})
		return notFoundNil(err)
	}
	return notFoundNil(a.st.Users.DeleteDevice(ctx, id, deviceID))
}
