package feed

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/table"
)

// Applying a batch exactly once. A handler that adds what a batch of
// records says to an item (a count, a sum, a latest time) must not add it
// twice when the batch is delivered again: delivery is at least once (a
// crash before the checkpoint, a lost response, a consumer restarted from
// an older checkpoint), and a batch delivered again may begin and end
// elsewhere than the first time. An [Applier] makes such a handler exact
// without a read in the common case: the item holds, per stream shard, the
// sequence number of the last record whose effect it took (its position),
// and every write of a delta sets the position in the same UpdateItem, on
// condition that the stored one is below the first record the delta
// counts. So:
//
//   - a batch delivered again changes nothing: its write fails its
//     condition (one conditional write, charged as DynamoDB charges a
//     failed one) and the Applier reads the position (one strongly
//     consistent GetItem) to find that nothing after it is left;
//   - a batch delivered again with more records than the first time (the
//     consumer read on from an older checkpoint) adds only the records
//     after the stored position, on condition that the position is still
//     the one read;
//   - records of one key are applied in their shard's order, so the
//     position only grows; shards are independent (each has its own
//     position attribute), and a child shard's records, read after its
//     parent's, take a position of their own.
//
// Positions are attributes named [PositionPrefix] + the shard ID, holding
// the sequence number left-padded to 40 digits (the Streams API's longest:
// padded to one width, decimal strings compare as their numbers, and
// DynamoDB compares strings byte by byte). A stream keeps records 24 hours
// and DynamoDB opens new shards every few hours, so positions of old
// shards would pile up in the item and make every write larger: each
// write returns the item's positions and the Applier removes, in its next
// write to that item, those of shards created longer ago than
// [Applier.Retention] (a shard ID carries its creation time in
// milliseconds: shardId-00000001536019433524-...; positions of shards
// whose ID does not parse so are kept).
//
// Two entities that count the same records (a source's events, its
// owner's usage) each get their own position in their own item, so each
// is exact on its own. Catalog: FH-16 (counts from the stream).

// PositionPrefix starts the name of the attribute holding an item's
// position in one stream shard.
const PositionPrefix = "_pos:"

// DefaultRetention is how long an Applier keeps the position of a shard
// after the shard was created: twice the stream's 24-hour retention.
const DefaultRetention = 48 * time.Hour

// Effect is what one record does to one item: counters to add and
// attributes to set (the last record's value wins within a write).
type Effect struct {
	// Key is the item's key.
	Key table.Key
	// Add are numbers added to attributes (ADD).
	Add map[string]int64
	// Set are attributes set (SET), such as a latest time or the item's
	// type when the write creates the item.
	Set map[string]types.AttributeValue
}

// Applier applies the effects of a batch's records to the items they name,
// exactly once per record (see the section above). It is safe for
// concurrent use by the handlers of different shards.
type Applier struct {
	// Table is the table holding the items (reached through its client).
	Table *table.Table
	// Retention is how long the position of a shard is kept after the
	// shard was created (DefaultRetention when 0).
	Retention time.Duration

	mu    sync.Mutex
	stale map[table.Key][]string // positions to remove on the next write
}

// ErrPosition is the error of a batch whose records are not in sequence
// order or carry a sequence number that is not a decimal of at most 40
// digits.
var ErrPosition = errors.New("feed: record position")

// Applied counts what [Applier.Apply] did with a batch.
type Applied struct {
	// Writes are the items written (one UpdateItem each, plus a retry
	// after a position read).
	Writes int
	// Records are the records whose effects were added; Skipped those an
	// earlier delivery had added already.
	Records, Skipped int
	// Reads are the positions read after a write found its condition
	// failed (a batch delivered again).
	Reads int
}

// effectRun is the effects of one item in a batch, in sequence order.
type effectRun struct {
	key  table.Key
	seqs []string // padded
	effs []Effect
}

// Apply adds to each item named by effects (the records' effects on
// items, from the caller's decoding; a record may touch several items or
// none) the sum of the effects of b's records not applied to it before,
// with b.Shard's position, one UpdateItem per item. It returns what it did;
// on an error some items may have taken the batch and others not: deliver
// the batch again (the items that took it skip it).
func (a *Applier) Apply(ctx context.Context, b Batch, effects func(table.Record) ([]Effect, error)) (Applied, error) {
	var out Applied
	if b.Shard == "" {
		return out, fmt.Errorf("%w: the batch names no shard", ErrPosition)
	}
	runs := map[table.Key]*effectRun{}
	var order []table.Key
	last := ""
	for _, rec := range b.Records {
		seq, err := padSequence(rec.Sequence)
		if err != nil {
			return out, err
		}
		if seq <= last {
			return out, fmt.Errorf("%w: record %s (%s) is not after the one before it in shard %s", ErrPosition, rec.ID, rec.Sequence, b.Shard)
		}
		last = seq
		effs, err := effects(rec)
		if err != nil {
			return out, err
		}
		for _, e := range effs {
			r := runs[e.Key]
			if r == nil {
				r = &effectRun{key: e.Key}
				runs[e.Key] = r
				order = append(order, e.Key)
			}
			if n := len(r.seqs); n > 0 && r.seqs[n-1] == seq {
				r.effs[n-1] = merge(r.effs[n-1], e) // two effects of one record on one item
				continue
			}
			r.seqs, r.effs = append(r.seqs, seq), append(r.effs, e)
		}
	}
	for _, k := range order {
		if err := a.applyRun(ctx, b.Shard, runs[k], &out); err != nil {
			return out, err
		}
	}
	return out, nil
}

// merge adds e's effect to m's.
func merge(m, e Effect) Effect {
	out := Effect{Key: m.Key, Add: maps.Clone(m.Add), Set: maps.Clone(m.Set)}
	if out.Add == nil {
		out.Add = map[string]int64{}
	}
	for a, n := range e.Add {
		out.Add[a] += n
	}
	if out.Set == nil && len(e.Set) > 0 {
		out.Set = map[string]types.AttributeValue{}
	}
	maps.Copy(out.Set, e.Set)
	return out
}

// applyRun writes r's effects after the item's position in shard: first
// on condition that the position is below r's first record, then, when
// that fails (a delivery again), after reading the position.
func (a *Applier) applyRun(ctx context.Context, shard string, r *effectRun, out *Applied) error {
	from, after := 0, "" // after "": the condition is "below r.seqs[0]"
	for attempt := 0; ; attempt++ {
		if from == len(r.seqs) {
			out.Skipped += len(r.seqs)
			return nil
		}
		err := a.write(ctx, shard, r.key, r.seqs[from:], r.effs[from:], after, attempt == 0)
		var ccf *types.ConditionalCheckFailedException
		if !errors.As(err, &ccf) {
			if err == nil {
				out.Writes++
				out.Records += len(r.seqs) - from
				out.Skipped += from
			}
			return err
		}
		if attempt >= 4 {
			return fmt.Errorf("feed: apply to %s: the position of shard %s keeps moving: %w", r.key, shard, err)
		}
		// Delivered again (or another handler of the shard wrote
		// meanwhile): read the position and apply what is after it.
		pos, err := a.position(ctx, shard, r.key)
		if err != nil {
			return err
		}
		out.Reads++
		from, after = 0, pos
		for from < len(r.seqs) && r.seqs[from] <= pos {
			from++
		}
	}
}

// write sends one UpdateItem adding effs (of records seqs) to key and
// setting shard's position to the last of seqs, on condition that the
// position is after ("" : absent or below seqs[0]).
func (a *Applier) write(ctx context.Context, shard string, key table.Key, seqs []string, effs []Effect, after string, first bool) error {
	s := a.Table.Schema()
	names := map[string]string{"#pos": PositionPrefix + shard}
	vals := map[string]types.AttributeValue{":pos": &types.AttributeValueMemberS{Value: seqs[len(seqs)-1]}}
	sum := Effect{Key: key}
	for _, e := range effs {
		sum = merge(sum, e)
	}
	set := []string{"#pos = :pos"}
	for i, attr := range slices.Sorted(maps.Keys(sum.Set)) {
		n := strconv.Itoa(i)
		names["#s"+n], vals[":s"+n] = attr, sum.Set[attr]
		set = append(set, "#s"+n+" = :s"+n)
	}
	var add []string
	for i, attr := range slices.Sorted(maps.Keys(sum.Add)) {
		n := strconv.Itoa(i)
		names["#a"+n], vals[":a"+n] = attr, &types.AttributeValueMemberN{Value: strconv.FormatInt(sum.Add[attr], 10)}
		add = append(add, "#a"+n+" :a"+n)
	}
	expr := "SET " + strings.Join(set, ", ")
	if len(add) > 0 {
		expr += " ADD " + strings.Join(add, ", ")
	}
	var remove []string
	for i, name := range a.takeStale(key, shard) {
		n := "#r" + strconv.Itoa(i)
		names[n] = name
		remove = append(remove, n)
	}
	if len(remove) > 0 {
		expr += " REMOVE " + strings.Join(remove, ", ")
	}
	cond := "attribute_not_exists(#pos) OR #pos < :first"
	vals[":first"] = &types.AttributeValueMemberS{Value: seqs[0]}
	if after != "" {
		cond = "#pos = :after"
		delete(vals, ":first")
		vals[":after"] = &types.AttributeValueMemberS{Value: after}
	}
	in := &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.Name),
		Key:                       keyItem(s, key),
		UpdateExpression:          aws.String(expr),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: vals,
		ReturnValues:              types.ReturnValueAllNew,
	}
	res, err := a.Table.Client().UpdateItem(ctx, in)
	if err != nil {
		if len(remove) > 0 {
			a.keepStale(key, names, remove) // try again on the next write
		}
		var ccf *types.ConditionalCheckFailedException
		if errors.As(err, &ccf) {
			return err
		}
		return fmt.Errorf("feed: apply to %s: %w", key, err)
	}
	a.noteStale(key, shard, res.Attributes)
	return nil
}

// position reads key's position in shard ("" when it has none).
func (a *Applier) position(ctx context.Context, shard string, key table.Key) (string, error) {
	s := a.Table.Schema()
	out, err := a.Table.Client().GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(s.Name), Key: keyItem(s, key), ConsistentRead: aws.Bool(true),
		ProjectionExpression:     aws.String("#pos"),
		ExpressionAttributeNames: map[string]string{"#pos": PositionPrefix + shard},
	})
	if err != nil {
		return "", fmt.Errorf("feed: apply to %s: read the position: %w", key, err)
	}
	v, _ := out.Item[PositionPrefix+shard].(*types.AttributeValueMemberS)
	if v == nil {
		return "", nil
	}
	return v.Value, nil
}

// noteStale remembers the positions item holds of shards older than the
// retention (other than shard), to remove on the next write to key.
func (a *Applier) noteStale(key table.Key, shard string, item map[string]types.AttributeValue) {
	ret := a.Retention
	if ret <= 0 {
		ret = DefaultRetention
	}
	now := a.Table.Now()
	var stale []string
	for name := range item {
		id, ok := strings.CutPrefix(name, PositionPrefix)
		if !ok || id == shard {
			continue
		}
		if born, ok := ShardCreated(id); ok && now.Sub(born) > ret {
			stale = append(stale, name)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(stale) == 0 {
		delete(a.stale, key)
		return
	}
	if a.stale == nil {
		a.stale = map[table.Key][]string{}
	}
	a.stale[key] = stale
}

// takeStale returns and forgets the positions to remove from key (never
// shard's own).
func (a *Applier) takeStale(key table.Key, shard string) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	names := a.stale[key]
	delete(a.stale, key)
	return slices.DeleteFunc(names, func(n string) bool { return n == PositionPrefix+shard })
}

// keepStale puts back the names a failed write was to remove.
func (a *Applier) keepStale(key table.Key, names map[string]string, placeholders []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stale == nil {
		a.stale = map[table.Key][]string{}
	}
	for _, p := range placeholders {
		a.stale[key] = append(a.stale[key], names[p])
	}
}

// ShardCreated returns when a stream shard was created, from its ID
// (shardId-{13+ digits of Unix milliseconds}-{suffix}); ok is false for an
// ID not of that form.
func ShardCreated(id string) (time.Time, bool) {
	parts := strings.Split(id, "-")
	if len(parts) < 3 || parts[0] != "shardId" {
		return time.Time{}, false
	}
	ms, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || ms <= 0 {
		return time.Time{}, false
	}
	return time.UnixMilli(ms), true
}

// padSequence returns seq left-padded with zeros to 40 digits, or an
// ErrPosition error when seq is not a decimal of at most 40 digits.
func padSequence(seq string) (string, error) {
	const width = 40
	if seq == "" || len(seq) > width || strings.Trim(seq, "0123456789") != "" {
		return "", fmt.Errorf("%w: sequence number %q is not a decimal of at most %d digits", ErrPosition, seq, width)
	}
	return strings.Repeat("0", width-len(seq)) + seq, nil
}

// keyItem is k as the table's key attributes.
func keyItem(s table.Schema, k table.Key) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		s.PK: &types.AttributeValueMemberS{Value: k.PK},
		s.SK: &types.AttributeValueMemberS{Value: k.SK},
	}
}
