package listbackup

import (
	"context"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Notifications serves LB-42..LB-46: kept 30 days. The reads of one
// pattern are declared ([table.Pattern]): its fields.
type Notifications struct {
	// ByUser lists a user's notifications, newest first (LB-42): Query
	// PK = NOTIF#{userId}, SK begins_with N#, descending.
	//
	//	page, err := s.Notifications.ByUser.List(ctx, lb.Notification{UserID: u})
	ByUser *table.Pattern[lb.Notification]
	// Unread lists a user's unread notifications, newest first (LB-44):
	// Query GSI3 PK = UNREAD#{userId}, descending; read notifications are
	// not in that sparse index.
	Unread *table.Pattern[lb.Notification]
	// ByStatus lists a user's notifications in one status, newest first
	// (LB-44): Query GSI2 PK = NOTIFSTATUS#{userId}, SK begins_with
	// {status}#. Errors: *table.ValidationError, table.ErrInvalidCursor.
	//
	//	page, err := s.Notifications.ByStatus.List(ctx, lb.Notification{UserID: u, Status: lb.NotificationRead})
	ByStatus *table.Pattern[lb.Notification]
	// ByAccount reads an account's notifications whose createdAt lies
	// between the bounds', newest first (LB-43): Query GSI1
	// PK = ACCTNOTIF#{accountId}, SK in the range (RangeOn createdAt: a
	// zero CreatedAt is open). Errors: *table.ValidationError (a bad ID,
	// a reversed range), table.ErrInvalidCursor.
	//
	//	page, err := s.Notifications.ByAccount.Between(ctx, lb.Notification{AccountID: a, CreatedAt: from}, lb.Notification{AccountID: a})
	ByAccount *table.Pattern[lb.Notification]
	// Send stores a notification (CreatedAt defaults to now, NotificationID to
	// a new UUID, Status to pending). expiresAt and the table TTL are
	// CreatedAt + 30 days (LB-46). Errors: *table.ValidationError,
	// table.ErrAlreadyExists.
	Send func(context.Context, *lb.Notification) error

	markRead table.Op
	e        *entities
}

func newNotifications(e *entities) *Notifications {
	return &Notifications{e: e,
		Send: table.Create(e.notifications, table.WriteDef[lb.Notification]{ID: "LB-46", Name: "listbackup.Notifications.Send",
			Doc:    "Stores a notification (CreatedAt defaults to now, NotificationID to a new UUID, Status to pending).",
			Before: func(n *lb.Notification) { newID(&n.NotificationID); orDefault(&n.Status, lb.NotificationPending) }}),
		markRead: table.NewOp(e.t, "LB-45", "listbackup.Notifications.MarkRead"),
		ByUser: table.NewPattern(e.notifications, table.PatternDef[lb.Notification]{ID: "LB-42", Name: "listbackup.Notifications.ByUser",
			Doc: "A user's notifications, newest first.", Reads: table.ReadPage, Desc: true}),
		Unread: table.NewPattern(e.notifications, table.PatternDef[lb.Notification]{ID: "LB-44", Name: "listbackup.Notifications.Unread",
			Doc: "A user's unread notifications, newest first.", Reads: table.ReadPage, Index: table.GSI3, WholePartition: true, Desc: true}),
		ByStatus: table.NewPattern(e.notifications, table.PatternDef[lb.Notification]{ID: "LB-44", Name: "listbackup.Notifications.ByStatus",
			Doc: "A user's notifications in one status, newest first.", Reads: table.ReadPage, Index: table.GSI2, SortPrefix: true, Desc: true,
			Require: []string{"status"}}),
		ByAccount: table.NewPattern(e.notifications, table.PatternDef[lb.Notification]{ID: "LB-43", Name: "listbackup.Notifications.ByAccount",
			Doc: "An account's notifications in a time range, newest first.", Reads: table.ReadRange, Index: table.GSI1, RangeOn: "createdAt", Desc: true}),
	}
}

// MarkRead marks a notification read (LB-45): status read, isRead, readAt;
// it leaves the unread index and moves in the status index. A consistent
// read and one conditional write (table.Entity.Update), because the index
// keys are derived from the stored notification and the write is
// conditioned on the version read. Marking it again
// keeps the first readAt. Errors: *table.ValidationError,
// table.ErrNotFound (unknown or expired).
func (s *Notifications) MarkRead(ctx context.Context, user lb.UserID, createdAt time.Time, id lb.NotificationID) (lb.Notification, error) {
	return table.Run(ctx, s.markRead, func(ctx context.Context) (lb.Notification, error) {
		k, err := s.e.notifications.CheckedKey(lb.Notification{UserID: user, CreatedAt: createdAt, NotificationID: id},
			lb.CheckTime("createdAt", createdAt))
		if err != nil {
			return lb.Notification{}, err
		}
		now := s.e.now()
		return s.e.notifications.Update(ctx, k, func(n *lb.Notification) error {
			if !n.IsRead {
				n.Status, n.IsRead, n.ReadAt = lb.NotificationRead, true, now
			}
			return nil
		})
	})
}
