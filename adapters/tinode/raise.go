package tinode

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
)

// Conditional raises: the writes of a topic's SeqId and of a sender's
// marks that the scale path sends (write-through and flushes, README
// "Scale"). Each is one UpdateItem (a table.Patch) that sets the new
// values only if the stored ones still equal what this process last saw
// (the condition travels in the same request), so a value another server
// wrote meanwhile is never overwritten: when the condition fails, DynamoDB
// returns the stored item, and the write is sent again over it, or not at
// all when the stored value is already as high. Neither touches UpdatedAt
// (as Tinode's SQL adapters, whose TopicUpdateOnMessage and sender-marks
// SubsUpdate set only these columns), so the subscription's GSI1 entry
// stays where it is. A response lost after DynamoDB applied the write is
// a success: the SDK's resend is recognised by the patch's write token,
// and when the SDK gives up the raise sends again (patchRetried), whose
// condition then fails on the value already stored.

// raiseAttempts bounds the conditional attempts of one raise before it
// falls back to a read and a version-checked write.
const raiseAttempts = 3

// raiseSeq records message seq, sent at at, on the topic item: SeqId
// becomes seq and TouchedAt at, unless the stored SeqId is already seq or
// more (TN-12, as Topics.RecordMessage). guess is the stored SeqId this
// process last saw. One conditional UpdateItem when guess is right; after
// a failed condition, one more over the SeqId DynamoDB returned. It
// returns the SeqId stored afterwards. A missing topic gives
// table.ErrNotFound.
func (a *Adapter) raiseSeq(ctx context.Context, name tn.TopicName, guess, seq int, at time.Time) (_ int, err error) {
	ctx, call := a.tbl.Call(ctx, "TN-12", "tinode.adapter.raiseSeq")
	defer func() { call.End(err) }()
	e := a.st.Topics.ByName.Entity()
	k := e.Key(tn.Topic{Id: name})
	if err := k.Err(); err != nil {
		return 0, err
	}
	at = at.UTC()
	for range raiseAttempts {
		if guess >= seq {
			return guess, nil
		}
		tp, err := patchRetried(ctx, func() (tn.Topic, error) {
			return e.Patch(ctx, k, table.Patch{
				Set:     map[string]any{"SeqId": seq, "TouchedAt": at},
				IfEqual: map[string]any{"SeqId": guess},
				NoTouch: true,
			})
		})
		if err == nil {
			return tp.SeqId, nil
		}
		stored, ok := condItem(err)
		if !ok {
			return 0, err
		}
		cur, derr := e.Decode(stored)
		if derr != nil || cur.SeqId == guess {
			break // the condition failed on something this cannot correct
		}
		guess = cur.SeqId
	}
	if guess >= seq {
		return guess, nil
	}
	tp, err := a.st.Topics.RecordMessage(ctx, name, seq, at)
	return tp.SeqId, err
}

// raiseMarks raises the user's RecvSeqId and ReadSeqId in topic to want
// where they are lower, never lowering either (TN-9, the write side of
// Tinode's SubsUpdate of a sender's marks). guess is what this process
// last saw stored. One conditional UpdateItem when guess is right; after
// a failed condition, one more over the marks DynamoDB returned (none if
// they are already as high). It returns the marks stored afterwards. A
// missing subscription gives table.ErrNotFound.
func (a *Adapter) raiseMarks(ctx context.Context, topic tn.TopicName, user tn.UserID, guess, want mark) (_ mark, err error) {
	ctx, call := a.tbl.Call(ctx, "TN-9", "tinode.adapter.raiseMarks")
	defer func() { call.End(err) }()
	e := a.st.Subs.ByTopicUser.Entity()
	k := e.Key(tn.Subscription{Topic: topic, User: user})
	if err := k.Err(); err != nil {
		return mark{}, err
	}
	for attempt := 0; attempt < raiseAttempts; attempt++ {
		next := mark{recv: max(guess.recv, want.recv), read: max(guess.read, want.read)}
		if next == guess && attempt > 0 {
			return guess, nil // read from the table: already as high
		}
		s, err := patchRetried(ctx, func() (tn.Subscription, error) {
			return e.Patch(ctx, k, table.Patch{
				Set:     map[string]any{"RecvSeqId": next.recv, "ReadSeqId": next.read},
				IfEqual: map[string]any{"RecvSeqId": guess.recv, "ReadSeqId": guess.read},
				NoTouch: true,
			})
		})
		if err == nil {
			return mark{recv: s.RecvSeqId, read: s.ReadSeqId}, nil
		}
		stored, ok := condItem(err)
		if !ok {
			return mark{}, err
		}
		cur, derr := e.Decode(stored)
		got := mark{recv: cur.RecvSeqId, read: cur.ReadSeqId}
		if derr != nil || got == guess {
			break
		}
		guess = got
	}
	s, err := a.st.Subs.Update(ctx, tinode.SubRef{Topic: topic, User: user}, func(s *tn.Subscription) error {
		s.RecvSeqId, s.ReadSeqId = max(s.RecvSeqId, want.recv), max(s.ReadSeqId, want.read)
		return nil
	})
	return mark{recv: s.RecvSeqId, read: s.ReadSeqId}, err
}

// patchRetried sends patch again (up to saveAttempts in all) while its
// outcome is unknown: the SDK gave up on lost responses or a timeout, and
// the write may have landed. The resend's condition then fails on the
// value the first one stored, which the raise reads as already done. A
// failed condition, a missing item and invalid input are definite.
func patchRetried[T any](ctx context.Context, patch func() (T, error)) (T, error) {
	for attempt := 0; ; attempt++ {
		v, err := patch()
		if err == nil || definite(err) || errors.Is(err, table.ErrConditionFailed) || attempt+1 >= saveAttempts || ctx.Err() != nil {
			return v, err
		}
		select {
		case <-ctx.Done():
			return v, err
		case <-time.After(time.Duration(attempt+1) * 20 * time.Millisecond):
		}
	}
}

// condItem returns the stored item a failed condition of a Patch came
// back with (table.ErrConditionFailed; ReturnValuesOnConditionCheckFailure).
func condItem(err error) (table.Item, bool) {
	if !errors.Is(err, table.ErrConditionFailed) {
		return nil, false
	}
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) || ccf.Item == nil {
		return nil, false
	}
	return ccf.Item, true
}
