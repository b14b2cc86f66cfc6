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
