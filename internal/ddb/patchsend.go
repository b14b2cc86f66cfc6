package ddb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// SendPatch sends the built patch b of entity's item k as one UpdateItem
// and returns the attributes ret asks for. A failed condition whose
// returned item carries b's write token is this patch, applied by an
// attempt whose response was lost: the returned item is the result. On a
// missing, expired or foreign-typed item, or one mine refuses (another
// tenant's; nil: none), it is [ErrNotFound]; at another version than
// ifVersion (nil: none) [ErrConflict]; otherwise the failed condition.
// Old write tokens are pruned afterwards ([Conn.PruneTokens]).
func (c *Conn) SendPatch(ctx context.Context, entity string, k Key, b Patch, ret types.ReturnValue, ifVersion *int64, mine func(Item) bool) (Item, error) {
	start := time.Now()
	out, err := c.Client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                           aws.String(c.Schema.Name),
		Key:                                 c.KeyItem(k),
		UpdateExpression:                    aws.String(b.Update),
		ConditionExpression:                 aws.String(b.Cond),
		ExpressionAttributeNames:            b.Names,
		ExpressionAttributeValues:           b.Values,
		ReturnValues:                        ret,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		ReturnConsumedCapacity:              c.WantCapacity(),
	})
	if err != nil {
		err = MapErr(err)
		var ccf *types.ConditionalCheckFailedException
		if errors.As(err, &ccf) {
			switch {
			case c.HasToken(ccf.Item, b.Token):
				// An earlier attempt of this very request was applied and
				// its response lost: the item DynamoDB returns is the result.
				c.Observe(ctx, Event{Op: "UpdateItem", Entity: entity, Duration: time.Since(start)})
				return ccf.Item, nil
			case ccf.Item == nil || c.Expired(ccf.Item) || !c.IsType(ccf.Item, entity) || (mine != nil && !mine(ccf.Item)):
				err = ErrNotFound
			case ifVersion != nil && c.VersionOf(ccf.Item) != *ifVersion:
				err = fmt.Errorf("%w: %w", ErrConflict, err)
			}
		}
	}
	var cu float64
	if out != nil {
		cu = CapacityOf(out.ConsumedCapacity)
	}
	c.Observe(ctx, Event{Op: "UpdateItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: cu})
	if err != nil {
		return nil, err
	}
	c.PruneTokens(ctx, entity, k, out.Attributes)
	return out.Attributes, nil
}

// PruneTokens removes old write tokens from the item once its token set
// has grown past the limit (a patch adds one and cannot remove any in the
// same request): one extra UpdateItem every few writes of a hot item. Its
// failure changes nothing that matters and is only observed.
func (c *Conn) PruneTokens(ctx context.Context, entity string, k Key, after Item) {
	stale := c.StaleTokens(after)
	if len(stale) == 0 {
		return
	}
	start := time.Now()
	_, err := c.Client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(c.Schema.Name),
		Key:                       c.KeyItem(k),
		UpdateExpression:          aws.String("DELETE #wt :old"),
		ConditionExpression:       aws.String("attribute_exists(#pk)"),
		ExpressionAttributeNames:  map[string]string{"#wt": c.Schema.TokenAttr, "#pk": c.Schema.PK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":old": &types.AttributeValueMemberSS{Value: stale}},
	})
	c.Observe(ctx, Event{Op: "UpdateItem", Entity: entity, Duration: time.Since(start), Err: err})
}

// WithValues returns the update action o with vals as its placeholder
// values, on a copy of the action: the table name, key, expressions and
// names stay shared with o (a prepared patch builds them once and binds
// new values on every send; nothing changes them in place).
func (o Op) WithValues(vals Item) Op {
	u := *o.Update
	u.ExpressionAttributeValues = vals
	o.Update = &u
	return o
}

// PatchOp is the transaction action of the built patch b on entity's
// item k.
func (c *Conn) PatchOp(entity string, k Key, b Patch) Op {
	return Op{Update: &types.Update{
		TableName:                 aws.String(c.Schema.Name),
		Key:                       c.KeyItem(k),
		UpdateExpression:          aws.String(b.Update),
		ConditionExpression:       aws.String(b.Cond),
		ExpressionAttributeNames:  b.Names,
		ExpressionAttributeValues: b.Values,
	}, Key: k, What: entity}
}
