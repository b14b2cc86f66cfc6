package tinode

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// setDevice is UpsertDevice's change: d, checked by its Validate, set
// in the user's Devices under its DeviceId.
func setDevice(u *tn.User, d tn.Device) error {
	if u.Devices == nil {
		u.Devices = map[string]tn.Device{}
	}
	u.Devices[d.DeviceId] = d
	return nil
}

// DeleteDevice removes the user's device deviceID (TN-16). A device the
// user does not have gives table.ErrNotFound.
//
// Requests: a consistent GetItem of the user (a missing device gives
// ErrNotFound), then one UpdateItem checked on the version read.
func (us *Users) DeleteDevice(ctx context.Context, id tn.UserID, deviceID string) error {
	return us.deleteDevice.Do(ctx, func(ctx context.Context) error {
		if deviceID == "" {
			return table.Invalid("DeviceId", "empty")
		}
		_, err := us.Update(ctx, id, func(u *tn.User) error {
			if _, ok := u.Devices[deviceID]; !ok {
				return fmt.Errorf("device %q of user %s: %w", deviceID, id, table.ErrNotFound)
			}
			delete(u.Devices, deviceID)
			return nil
		})
		return err
	})
}

// Devices returns the push devices of many users at once, for a
// notification fan-out (TN-20): one BatchGetItem per 100 users on
// USER#{id} / USER. Users without devices, or missing, are left out; each
// user's devices are ordered by DeviceId.
func (us *Users) Devices(ctx context.Context, ids ...tn.UserID) (map[tn.UserID][]tn.Device, error) {
	return table.Run(ctx, us.devices, func(ctx context.Context) (map[tn.UserID][]tn.Device, error) {
		users, err := us.GetMany(ctx, ids)
		if err != nil {
			return nil, err
		}
		out := make(map[tn.UserID][]tn.Device, len(users))
		for _, u := range users {
			if len(u.Devices) == 0 {
				continue
			}
			for _, k := range slices.Sorted(maps.Keys(u.Devices)) {
				out[u.Id] = append(out[u.Id], u.Devices[k])
			}
		}
		return out, nil
	})
}
