package listbackup

import (
	"context"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Notifications serves LB-42..LB-46: kept 30 days.
type Notifications struct {
	// ByUser lists a user's notifications, newest first (LB-42).
	//
	//	page, err := s.Notifications.ByUser.List(ctx, lb.Notification{UserID: u})
	ByUser *table.Pattern[lb.Notification]
	// Unread lists a user's unread notifications, newest first (LB-44);
	// read notifications are not in its sparse index.
	Unread *table.Pattern[lb.Notification]
	// ByStatus lists a user's notifications in one status, newest first
	// (LB-44).
	//
	//	page, err := s.Notifications.ByStatus.List(ctx, lb.Notification{UserID: u, Status: lb.NotificationRead})
	ByStatus *table.Pattern[lb.Notification]
	// ByAccount reads an account's notifications whose createdAt lies
	// between the bounds', newest first (LB-43); a bound with a zero
	// CreatedAt is open.
	//
	//	page, err := s.Notifications.ByAccount.Between(ctx, lb.Notification{AccountID: a, CreatedAt: from}, lb.Notification{AccountID: a})
	ByAccount *table.Pattern[lb.Notification]
	// Send stores a notification (CreatedAt defaults to now, NotificationID to
	// a new UUID, Status to pending). expiresAt and the table TTL are
	// CreatedAt + 30 days (LB-46).
	Send func(context.Context, *lb.Notification) error
	// MarkRead marks a notification read (LB-45): status read, isRead,
	// readAt; it leaves the unread index and moves in the status index.
	// Marking it again keeps the first readAt. The ref's CreatedAt is part
	// of the key (zero: a *table.ValidationError); an expired notification
	// is not found.
	MarkRead func(context.Context, NotificationRef) (lb.Notification, error)
}

// NotificationRef names a user's notification (its primary key): the
// user, its createdAt, its ID.
type NotificationRef struct {
	UserID         lb.UserID
	CreatedAt      time.Time
	NotificationID lb.NotificationID
}

// notification is the key fields of the notification r names.
func (r NotificationRef) notification() lb.Notification {
	return lb.Notification{UserID: r.UserID, CreatedAt: r.CreatedAt, NotificationID: r.NotificationID}
}

func newNotifications(e *entities) *Notifications {
	return &Notifications{
		Send: table.Create(e.notifications, table.WriteDef[lb.Notification]{ID: "LB-46", Name: "listbackup.Notifications.Send",
			Doc:    "Stores a notification (CreatedAt defaults to now, NotificationID to a new UUID, Status to pending).",
			Before: func(n *lb.Notification) { newID(&n.NotificationID); orDefault(&n.Status, lb.NotificationPending) }}),
		MarkRead: table.Apply(e.notifications, table.WriteDef[lb.Notification]{ID: "LB-45", Name: "listbackup.Notifications.MarkRead",
			Doc:   "Marks a notification read: status read, isRead, readAt; it leaves the unread index and moves in the status index.",
			Check: func(n *lb.Notification) error { return lb.CheckTime("createdAt", n.CreatedAt) }}, NotificationRef.notification,
			func(n *lb.Notification) error {
				if !n.IsRead {
					n.Status, n.IsRead, n.ReadAt = lb.NotificationRead, true, e.now()
				}
				return nil
			}),
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
