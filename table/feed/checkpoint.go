package feed

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/table"
)

// ErrCheckpoint is the error of a checkpoint write or read that failed
// for a reason other than throttling or a transient fault (those are
// retried): the records handled since the last checkpoint are delivered
// again by the next run.
var ErrCheckpoint = errors.New("feed: checkpoint")

// Checkpoint is the position a consumer keeps for one shard, as stored in
// the table (see [Consumer]).
type Checkpoint struct {
	// Shard is the shard's ID.
	Shard string
	// Sequence is the sequence number of the last record handled ("" when
	// none was: a shard closed before any record was handled).
	Sequence string
	// Done says the shard is closed and every record of it was handled.
	Done bool
	// At is when the checkpoint was written, by the consumer's clock.
	At time.Time
}

// seqWidth is the width sequence numbers are left-padded to in the
// checkpoint's position attribute: the Streams API's longest sequence
// number (40 digits). Padded to one width, decimal strings compare as
// their numbers do, and DynamoDB compares strings byte by byte, so the
// condition "the stored position is below the new one" is numeric.
// (A number attribute would hold only 38 significant digits.)
const seqWidth = 40

// position returns seq left-padded with zeros to seqWidth, or an error
// when seq is not a decimal of at most seqWidth digits.
func position(seq string) (string, error) {
	if len(seq) > seqWidth || strings.Trim(seq, "0123456789") != "" {
		return "", fmt.Errorf("%w: sequence number %q is not a decimal of at most %d digits", ErrCheckpoint, seq, seqWidth)
	}
	return strings.Repeat("0", seqWidth-len(seq)) + seq, nil
}

// Attribute names of a checkpoint item, besides the table's key, type and
// TTL attributes.
const (
	attrSeq  = "sequence"
	attrPos  = "position"
	attrDone = "done"
	attrAt   = "at"
)

// doneRetention is how long a done shard's checkpoint is kept (by the
// table's TTL attribute): a closed shard is trimmed from the stream 24
// hours after its last record; once it is no longer listed its children
// start without it, so its checkpoint is no longer read.
const doneRetention = 48 * time.Hour

func checkpointKey(name, shard string) table.Key {
	return table.Key{PK: table.FeedPrefix + name, SK: "SHARD#" + shard}
}

// loadCheckpoints reads every checkpoint of the consumer's name, strongly
// consistent (one Query, paged).
func (c *Consumer) loadCheckpoints(ctx context.Context) (map[string]Checkpoint, error) {
	s := c.Table.Schema()
	out := map[string]Checkpoint{}
	var start map[string]types.AttributeValue
	for {
		var page *dynamodb.QueryOutput
		err := c.retry(ctx, "read checkpoints", func() error {
			var err error
			page, err = c.Table.Client().Query(ctx, &dynamodb.QueryInput{
				TableName:                 aws.String(s.Name),
				KeyConditionExpression:    aws.String("#pk = :pk"),
				ExpressionAttributeNames:  map[string]string{"#pk": s.PK},
				ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: table.FeedPrefix + c.Name}},
				ConsistentRead:            aws.Bool(true),
				ExclusiveStartKey:         start,
			})
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("%w: consumer %s: read: %w", ErrCheckpoint, c.Name, err)
		}
		for _, it := range page.Items {
			sk, _ := it[s.SK].(*types.AttributeValueMemberS)
			if sk == nil || !strings.HasPrefix(sk.Value, "SHARD#") {
				continue
			}
			cp := Checkpoint{Shard: strings.TrimPrefix(sk.Value, "SHARD#")}
			if v, ok := it[attrSeq].(*types.AttributeValueMemberS); ok {
				cp.Sequence = v.Value
			}
			if v, ok := it[attrDone].(*types.AttributeValueMemberBOOL); ok {
				cp.Done = v.Value
			}
			if v, ok := it[attrAt].(*types.AttributeValueMemberS); ok {
				cp.At, _ = time.Parse(time.RFC3339Nano, v.Value)
			}
			out[cp.Shard] = cp
		}
		if start = page.LastEvaluatedKey; len(start) == 0 {
			return out, nil
		}
	}
}

// Checkpoints returns the consumer's stored checkpoints, one per shard it
// has handled records of (or finished), by shard ID: where a restart
// resumes. With NoCheckpoint there are none in the table.
func (c *Consumer) Checkpoints(ctx context.Context) (map[string]Checkpoint, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	return c.loadCheckpoints(ctx)
}

// saveCheckpoint writes the shard's checkpoint at seq (done: the shard is
// closed and finished), on the condition that it only moves forward: the
// stored position is below seq's, or equal to it without undoing done (a
// write the SDK retried after a lost response lands again). A stored
// position beyond seq (another consumer of the same name got further) is
// left alone: it is not an error, the records between are handled twice.
func (c *Consumer) saveCheckpoint(ctx context.Context, shard, seq string, done bool) error {
	pos, err := position(seq)
	if err != nil {
		return err
	}
	s := c.Table.Schema()
	k := checkpointKey(c.Name, shard)
	now := c.Table.Now()
	item := map[string]types.AttributeValue{
		s.PK:     &types.AttributeValueMemberS{Value: k.PK},
		s.SK:     &types.AttributeValueMemberS{Value: k.SK},
		attrSeq:  &types.AttributeValueMemberS{Value: seq},
		attrPos:  &types.AttributeValueMemberS{Value: pos},
		attrDone: &types.AttributeValueMemberBOOL{Value: done},
		attrAt:   &types.AttributeValueMemberS{Value: now.UTC().Format(time.RFC3339Nano)},
	}
	if s.TypeAttr != "" {
		item[s.TypeAttr] = &types.AttributeValueMemberS{Value: table.FeedType}
	}
	if done && s.TTLAttr != "" {
		item[s.TTLAttr] = &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Add(doneRetention).Unix(), 10)}
	}
	in := &dynamodb.PutItemInput{
		TableName:                aws.String(s.Name),
		Item:                     item,
		ConditionExpression:      aws.String("attribute_not_exists(#pk) OR #pos < :pos OR (#pos = :pos AND (#done = :done OR #done = :false))"),
		ExpressionAttributeNames: map[string]string{"#pk": s.PK, "#pos": attrPos, "#done": attrDone},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pos": &types.AttributeValueMemberS{Value: pos}, ":done": &types.AttributeValueMemberBOOL{Value: done},
			":false": &types.AttributeValueMemberBOOL{Value: false},
		},
	}
	err = c.retry(ctx, "write checkpoint", func() error {
		_, err := c.Table.Client().PutItem(ctx, in)
		return err
	})
	var ccf *types.ConditionalCheckFailedException
	switch {
	case errors.As(err, &ccf):
		c.logger().Warn("feed: checkpoint already beyond this position (another consumer of the same name?)", "consumer", c.Name, "shard", shard, "sequence", seq)
		return nil
	case err != nil:
		return fmt.Errorf("%w: consumer %s shard %s at %s: %w", ErrCheckpoint, c.Name, shard, seq, err)
	}
	return nil
}
