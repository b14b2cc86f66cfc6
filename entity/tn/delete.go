package tn

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// SoftDelete records that User deleted a message for themselves in the
// deletion DelId (today's Tinode keeps these pairs).
type SoftDelete struct {
	User  UserID `dynamo:"User" json:"User"`
	DelId int    `dynamo:"DelId" json:"DelId"`
}

// DeletedFor is a message's list of per-user deletions. It is stored as a
// list of {User, DelId} maps; the list of user ids that tinode.md's
// adapter wrote is read too (each with DelId 0), so old items load.
type DeletedFor []SoftDelete

// MarshalDynamo stores the list as a list of maps (an empty list stays an
// empty list).
func (d DeletedFor) MarshalDynamo() (types.AttributeValue, error) {
	l := make([]types.AttributeValue, len(d))
	for i, e := range d {
		l[i] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"User":  &types.AttributeValueMemberS{Value: string(e.User)},
			"DelId": &types.AttributeValueMemberN{Value: strconv.Itoa(e.DelId)},
		}}
	}
	return &types.AttributeValueMemberL{Value: l}, nil
}

// UnmarshalDynamo reads a list of {User, DelId} maps or of user ids; NULL
// is the empty list.
func (d *DeletedFor) UnmarshalDynamo(av types.AttributeValue) error {
	switch v := av.(type) {
	case *types.AttributeValueMemberNULL:
		*d = nil
		return nil
	case *types.AttributeValueMemberSS:
		out := make(DeletedFor, len(v.Value))
		for i, u := range v.Value {
			out[i] = SoftDelete{User: UserID(u)}
		}
		*d = out
		return nil
	case *types.AttributeValueMemberL:
		out := make(DeletedFor, 0, len(v.Value))
		for i, e := range v.Value {
			switch e := e.(type) {
			case *types.AttributeValueMemberS:
				out = append(out, SoftDelete{User: UserID(e.Value)})
			case *types.AttributeValueMemberM:
				var sd SoftDelete
				if u, ok := e.Value["User"].(*types.AttributeValueMemberS); ok {
					sd.User = UserID(u.Value)
				}
				if n, ok := e.Value["DelId"].(*types.AttributeValueMemberN); ok {
					id, err := strconv.Atoi(n.Value)
					if err != nil {
						return fmt.Errorf("tinode: DeletedFor[%d].DelId: %w", i, err)
					}
					sd.DelId = id
				}
				out = append(out, sd)
			default:
				return fmt.Errorf("tinode: DeletedFor[%d]: want a user id or a {User, DelId} map, got %T", i, e)
			}
		}
		*d = out
		return nil
	}
	return fmt.Errorf("tinode: DeletedFor: want a list, got %T", av)
}

// Range is a range of message SeqIds as Tinode writes it: Low inclusive,
// Hi exclusive; Hi 0 means the single id Low.
type Range struct {
	Low int `dynamo:"Low" json:"Low"`
	Hi  int `dynamo:"Hi,omitempty" json:"Hi,omitempty"`
}

// End returns the exclusive upper bound (Low+1 for a single id).
func (r Range) End() int {
	if r.Hi == 0 {
		return r.Low + 1
	}
	return r.Hi
}

// NormalizeRanges validates ranges (each Low in 1..MaxSeqId, Hi 0 or
// above Low) and returns them sorted with overlapping and adjacent ranges
// merged, single ids written with Hi 0. field names the input in errors.
func NormalizeRanges(field string, ranges []Range) ([]Range, error) {
	if len(ranges) == 0 {
		return nil, invalid(field, "no ranges")
	}
	if len(ranges) > MaxDelRanges {
		return nil, invalid(field, "%d ranges, at most %d", len(ranges), MaxDelRanges)
	}
	rs := slices.Clone(ranges)
	for i, r := range rs {
		if r.Low < 1 || r.Low > MaxSeqId || (r.Hi != 0 && (r.Hi <= r.Low || r.Hi > MaxSeqId+1)) {
			return nil, invalid(fmt.Sprintf("%s[%d]", field, i), "[%d, %d) is not a range of SeqIds 1..%d", r.Low, r.Hi, MaxSeqId)
		}
		rs[i].Hi = r.End()
	}
	slices.SortFunc(rs, func(a, b Range) int { return a.Low - b.Low })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if r.Low <= last.Hi {
			last.Hi = max(last.Hi, r.Hi)
			continue
		}
		out = append(out, r)
	}
	for i := range out {
		if out[i].Hi == out[i].Low+1 {
			out[i].Hi = 0
		}
	}
	return out, nil
}

// MaxDelRanges bounds the ranges of one deletion, so its log entry stays
// small.
const MaxDelRanges = 1024

// DelMessage is one entry of a topic's deletion log (today's Tinode's
// dellog): deletion DelId removed the SeqIds in Ranges, for DeletedFor
// only or, when DeletedFor is empty, for everyone (TN-27, TN-28).
type DelMessage struct {
	Topic      TopicName `dynamo:"Topic" json:"Topic"`
	DelId      int       `dynamo:"DelId" json:"DelId"`
	DeletedFor UserID    `dynamo:"DeletedFor,omitempty" json:"DeletedFor,omitempty"`
	Ranges     []Range   `dynamo:"Ranges" json:"Ranges"`
	CreatedAt  time.Time `dynamo:"CreatedAt" json:"CreatedAt"`
	// Applied is set once every message in Ranges carries the deletion;
	// until then Messages.FinishDeletes completes it.
	Applied bool `dynamo:"Applied" json:"Applied"`
}

// Validate checks the entry before it is written.
func (d *DelMessage) Validate() error {
	if err := CheckSeq("DelId", d.DelId); err != nil {
		return err
	}
	_, err := NormalizeRanges("Ranges", d.Ranges)
	return err
}
