package listbackup

import (
	"context"
	"iter"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Inbox serves LB-79..LB-83: the in-app notifications of ListBackup's own
// code (its notifications table), read and marked by ID, listed per user
// newest first, per user in one status (unread, ...), and per account.
type Inbox struct{ e *entities }

// Create stores a new notification, with the code's defaults: a new UUID
// for NotificationID, status unread, priority normal, channel app.
// Errors: *table.ValidationError, table.ErrAlreadyExists.
//
// Pattern: LB-79 (its write side).
func (s *Inbox) Create(ctx context.Context, n *lb.InboxNotification) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-79", "listbackup.Inbox.Create")
	defer func() { call.End(err) }()
	if n.NotificationID == "" {
		n.NotificationID = lb.NotificationID(lb.NewUUID())
	}
	if n.Status == "" {
		n.Status = lb.InboxUnread
	}
	if n.Priority == "" {
		n.Priority = lb.InboxNormal
	}
	if len(n.Channels) == 0 {
		n.Channels = []string{"app"}
	}
	return s.e.inbox.Create(ctx, n)
}

func (s *Inbox) key(id lb.NotificationID) (table.Key, error) {
	if err := id.Validate("notificationId"); err != nil {
		return table.Key{}, err
	}
	return s.e.inbox.KeyOf(&lb.InboxNotification{NotificationID: id})
}

// Get returns a notification by ID (LB-79): GetItem PK =
// INBOXN#{notificationId}, SK = NOTIFICATION. Errors:
// *table.ValidationError, table.ErrNotFound (unknown or past expiresAt).
func (s *Inbox) Get(ctx context.Context, id lb.NotificationID) (_ lb.InboxNotification, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-79", "listbackup.Inbox.Get")
	defer func() { call.End(err) }()
	k, err := s.key(id)
	if err != nil {
		return lb.InboxNotification{}, err
	}
	return s.e.inbox.Get(ctx, k)
}

// ListByUser returns one page of a user's notifications, newest first
// (LB-80): Query GSI1 PK = INBOX#{userId}, descending. Errors:
// *table.ValidationError, table.ErrInvalidCursor.
func (s *Inbox) ListByUser(ctx context.Context, user lb.UserID, opts ...table.ListOption) (_ table.Page[lb.InboxNotification], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-80", "listbackup.Inbox.ListByUser")
	defer func() { call.End(err) }()
	if err := user.Validate("userId"); err != nil {
		return table.Page[lb.InboxNotification]{}, err
	}
	q, err := inPartition(table.GSI1, lb.InboxUserIndex, vals{"userId": string(user)})
	if err != nil {
		return table.Page[lb.InboxNotification]{}, err
	}
	q.Desc = true
	return s.e.inbox.List(ctx, q, opts...)
}

// AllByUser iterates over LB-80.
func (s *Inbox) AllByUser(ctx context.Context, user lb.UserID, opts ...table.ListOption) iter.Seq2[lb.InboxNotification, error] {
	return table.CallPages(ctx, s.e.t, "LB-80", "listbackup.Inbox.AllByUser", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.InboxNotification], error) {
		return s.ListByUser(ctx, user, o...)
	}, opts...)
}

// ListByStatus returns one page of a user's notifications in one status,
// newest first (LB-81; unread ones with lb.InboxUnread): Query GSI2 PK =
// INBOX#{userId}#{status}, descending. The status is any the code stores
// (unread, read, archived, deleted). Errors: *table.ValidationError,
// table.ErrInvalidCursor.
func (s *Inbox) ListByStatus(ctx context.Context, user lb.UserID, st lb.InboxStatus, opts ...table.ListOption) (_ table.Page[lb.InboxNotification], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-81", "listbackup.Inbox.ListByStatus")
	defer func() { call.End(err) }()
	if err := first(user.Validate("userId"), st.Check("status")); err != nil {
		return table.Page[lb.InboxNotification]{}, err
	}
	q, err := inPartition(table.GSI2, lb.InboxStatusIndex, vals{"userId": string(user), "status": string(st)})
	if err != nil {
		return table.Page[lb.InboxNotification]{}, err
	}
	q.Desc = true
	return s.e.inbox.List(ctx, q, opts...)
}

// AllByStatus iterates over LB-81.
func (s *Inbox) AllByStatus(ctx context.Context, user lb.UserID, st lb.InboxStatus, opts ...table.ListOption) iter.Seq2[lb.InboxNotification, error] {
	return table.CallPages(ctx, s.e.t, "LB-81", "listbackup.Inbox.AllByStatus", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.InboxNotification], error) {
		return s.ListByStatus(ctx, user, st, o...)
	}, opts...)
}

// ListByAccount returns one page of an account's notifications, newest
// first (LB-82): Query GSI3 PK = ACCTINBOX#{accountId}, descending.
// Errors: *table.ValidationError, table.ErrInvalidCursor.
func (s *Inbox) ListByAccount(ctx context.Context, account lb.AccountID, opts ...table.ListOption) (_ table.Page[lb.InboxNotification], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-82", "listbackup.Inbox.ListByAccount")
	defer func() { call.End(err) }()
	if err := account.Validate("accountId"); err != nil {
		return table.Page[lb.InboxNotification]{}, err
	}
	q, err := inPartition(table.GSI3, lb.InboxAccountIndex, vals{"accountId": string(account)})
	if err != nil {
		return table.Page[lb.InboxNotification]{}, err
	}
	q.Desc = true
	return s.e.inbox.List(ctx, q, opts...)
}

// MarkRead marks a notification read (LB-83): status read, readAt (the
// first read's, kept when marked again), updatedAt; it moves from the
// user's unread list to the read one. A consistent read and one write
// conditioned on the version read (table.Entity.Update): a concurrent
// change makes it retry on the new state, never lose it. Errors:
// *table.ValidationError, table.ErrNotFound.
func (s *Inbox) MarkRead(ctx context.Context, id lb.NotificationID) (_ lb.InboxNotification, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-83", "listbackup.Inbox.MarkRead")
	defer func() { call.End(err) }()
	return s.set(ctx, id, func(n *lb.InboxNotification) {
		if n.ReadAt.IsZero() {
			n.ReadAt = s.e.now()
		}
		n.Status = lb.InboxRead
	})
}

// MarkUnread marks a notification unread again (LB-83): status unread,
// readAt removed, as the code does. Same contract as MarkRead.
func (s *Inbox) MarkUnread(ctx context.Context, id lb.NotificationID) (_ lb.InboxNotification, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-83", "listbackup.Inbox.MarkUnread")
	defer func() { call.End(err) }()
	return s.set(ctx, id, func(n *lb.InboxNotification) { n.Status, n.ReadAt = lb.InboxUnread, time.Time{} })
}

// Archive archives a notification (LB-83): status archived, archivedAt.
// Same contract as MarkRead.
func (s *Inbox) Archive(ctx context.Context, id lb.NotificationID) (_ lb.InboxNotification, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-83", "listbackup.Inbox.Archive")
	defer func() { call.End(err) }()
	return s.set(ctx, id, func(n *lb.InboxNotification) { n.Status, n.ArchivedAt = lb.InboxArchived, s.e.now() })
}

// Delete deletes a notification (LB-83): DeleteItem of its one item, which
// leaves every list with it. Errors: *table.ValidationError,
// table.ErrNotFound (a retried delete whose first response was lost may
// report it; the item is gone either way).
func (s *Inbox) Delete(ctx context.Context, id lb.NotificationID) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-83", "listbackup.Inbox.Delete")
	defer func() { call.End(err) }()
	k, err := s.key(id)
	if err != nil {
		return err
	}
	return s.e.inbox.Delete(ctx, k)
}

func (s *Inbox) set(ctx context.Context, id lb.NotificationID, f func(*lb.InboxNotification)) (lb.InboxNotification, error) {
	k, err := s.key(id)
	if err != nil {
		return lb.InboxNotification{}, err
	}
	return s.e.inbox.Update(ctx, k, func(n *lb.InboxNotification) error { f(n); return nil })
}
