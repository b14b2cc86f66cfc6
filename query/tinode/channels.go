package tinode

import (
	"context"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// Channels returns the channels ("chn" topics) the user reads with
// notifications (P) wanted and given, and has not unsubscribed from
// (TN-37, Tinode's ChannelsForUser, asked for every push): GSI2
// PK = CHANRD#{user}, SK begins_with CHAN#, a sparse index that holds only
// such subscriptions (Subscription.ChanReader, kept on every write), one
// Query page per 1 MB. A soft-deleted subscription stays in the index and
// is dropped here.
func (ss *Subscriptions) Channels(ctx context.Context, user tn.UserID) ([]tn.TopicName, error) {
	return table.Run(ctx, ss.channels, func(ctx context.Context) ([]tn.TopicName, error) {
		if err := tn.UserIDs.CheckField("User", user); err != nil {
			return nil, err
		}
		q := ss.s.sub.Partition(table.GSI2, tn.Subscription{User: user})
		var out []tn.TopicName
		for s, err := range ss.s.sub.ListAll(ctx, q) {
			if err != nil {
				return nil, err
			}
			if s.DeletedAt == nil && s.IsChannelReader() {
				out = append(out, s.Topic)
			}
		}
		return out, nil
	})
}

// ChangeOwner makes user the owner of the group topic (TN-38, Tinode's
// TopicOwnerChange): a consistent GetItem and one UpdateItem checked on
// the version read, which moves the topic's GSI1 entry from the old
// owner's USER#{owner} / OWNS#{name} to the new one's (TN-22). A missing
// topic gives table.ErrNotFound.
func (ts *Topics) ChangeOwner(ctx context.Context, name tn.TopicName, user tn.UserID) (tn.Topic, error) {
	return table.Run(ctx, ts.changeOwner, func(ctx context.Context) (tn.Topic, error) {
		if err := tn.UserIDs.CheckField("Owner", user); err != nil {
			return tn.Topic{}, err
		}
		return ts.Update(ctx, name, func(t *tn.Topic) error {
			t.Owner = user
			return nil
		})
	})
}
