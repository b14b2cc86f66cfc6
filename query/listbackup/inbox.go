package listbackup

import (
	"context"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Inbox serves LB-79..LB-83: the in-app notifications of ListBackup's own
// code (its notifications table), read and marked by ID, listed per user
// newest first, per user in one status (unread, ...), and per account.
type Inbox struct {
	// ByID reads a notification by ID (LB-79); one past expiresAt is
	// table.ErrNotFound.
	//
	//	n, err := s.Inbox.ByID.Get(ctx, lb.InboxNotification{NotificationID: id})
	ByID *table.Pattern[lb.InboxNotification]
	// ByUser lists a user's notifications, newest first (LB-80).
	ByUser *table.Pattern[lb.InboxNotification]
	// ByStatus lists a user's notifications in one status, newest first
	// (LB-81; unread ones with lb.InboxUnread). The status is any the code
	// stores (unread, read, archived, deleted).
	//
	//	page, err := s.Inbox.ByStatus.List(ctx, lb.InboxNotification{UserID: u, Status: lb.InboxUnread})
	ByStatus *table.Pattern[lb.InboxNotification]
	// ByAccount lists an account's notifications, newest first (LB-82).
	ByAccount *table.Pattern[lb.InboxNotification]
	// Delete deletes a notification (LB-83), which leaves every list with
	// it. A retried delete whose first response was lost may report
	// table.ErrNotFound; the item is gone either way.
	Delete func(context.Context, lb.NotificationID) error
	// Create stores a new notification (LB-79, its write side), with the
	// code's defaults: a new UUID for NotificationID, status unread,
	// priority normal, channel app.
	Create func(context.Context, *lb.InboxNotification) error
	// MarkRead marks a notification read (LB-83): status read, readAt (the
	// first read's, kept when marked again), updatedAt; it moves from the
	// user's unread list to the read one.
	MarkRead func(context.Context, lb.NotificationID) (lb.InboxNotification, error)
	// MarkUnread marks a notification unread again (LB-83): status unread,
	// readAt removed, as the code does.
	MarkUnread func(context.Context, lb.NotificationID) (lb.InboxNotification, error)
	// Archive archives a notification (LB-83): status archived, archivedAt.
	Archive func(context.Context, lb.NotificationID) (lb.InboxNotification, error)
}

func newInbox(e *entities) *Inbox {
	def := func(id, field, doc string, ix table.Index) table.PatternDef[lb.InboxNotification] {
		return table.PatternDef[lb.InboxNotification]{ID: id, Name: "listbackup.Inbox." + field, Doc: doc, Reads: table.ReadPage,
			Index: ix, WholePartition: true, Desc: true}
	}
	key := func(id lb.NotificationID) lb.InboxNotification { return lb.InboxNotification{NotificationID: id} }
	set := func(name, doc string, change func(*lb.InboxNotification)) func(context.Context, lb.NotificationID) (lb.InboxNotification, error) {
		return table.Apply(e.inbox, table.WriteDef[lb.InboxNotification]{ID: "LB-83", Name: "listbackup.Inbox." + name, Doc: doc}, key,
			func(n *lb.InboxNotification) error { change(n); return nil })
	}
	return &Inbox{
		Delete: table.Delete(e.inbox, table.WriteDef[lb.InboxNotification]{ID: "LB-83", Name: "listbackup.Inbox.Delete",
			Doc: "Deletes a notification (LB-83): DeleteItem of its one item, which leaves every list with it."}, key),
		Create: table.Create(e.inbox, table.WriteDef[lb.InboxNotification]{ID: "LB-79", Name: "listbackup.Inbox.Create",
			Doc: "Stores a new notification, with the code's defaults: a new UUID for NotificationID, status unread, priority normal, channel app.",
			Before: func(n *lb.InboxNotification) {
				newID(&n.NotificationID)
				orDefault(&n.Status, lb.InboxUnread)
				orDefault(&n.Priority, lb.InboxNormal)
				if len(n.Channels) == 0 {
					n.Channels = []string{"app"}
				}
			}}),
		MarkRead: set("MarkRead", "Marks a notification read: status read, readAt (the first read's, kept when marked again), updatedAt.",
			func(n *lb.InboxNotification) {
				if n.ReadAt.IsZero() {
					n.ReadAt = e.now()
				}
				n.Status = lb.InboxRead
			}),
		MarkUnread: set("MarkUnread", "Marks a notification unread again: status unread, readAt removed, as the code does.",
			func(n *lb.InboxNotification) { n.Status, n.ReadAt = lb.InboxUnread, time.Time{} }),
		Archive: set("Archive", "Archives a notification: status archived, archivedAt.",
			func(n *lb.InboxNotification) { n.Status, n.ArchivedAt = lb.InboxArchived, e.now() }),
		ByID: table.NewPattern(e.inbox, table.PatternDef[lb.InboxNotification]{ID: "LB-79", Name: "listbackup.Inbox.ByID",
			Doc: "An inbox notification by ID.", Reads: table.ReadOne}),
		ByUser:    table.NewPattern(e.inbox, def("LB-80", "ByUser", "A user's notifications, newest first.", table.GSI1)),
		ByStatus:  table.NewPattern(e.inbox, def("LB-81", "ByStatus", "A user's notifications in one status, newest first.", table.GSI2)),
		ByAccount: table.NewPattern(e.inbox, def("LB-82", "ByAccount", "An account's notifications, newest first.", table.GSI3)),
	}
}
