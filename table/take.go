package table

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/expr"
	"github.com/singletable/singletable/internal/keytmpl"
)

// Take consumes the item with key k and returns it, in one conditional
// request: the item is valid once. Of two concurrent Takes exactly one
// gets the item; a missing item, one already taken, one of another entity
// type, or one past its TTL (even if DynamoDB has not removed it yet)
// gives [ErrNotFound]. Use it to consume one-time values such as OAuth
// states or invitation codes. Entities with unique values are refused
// (their guards go with Delete).
//
// On a schema with a TTL attribute, Take is one UpdateItem that ends the
// item's life (its TTL set to now, so every read and write treats it as
// absent at once and DynamoDB's TTL deletes it later) and stamps a write
// token: if the response is lost after DynamoDB applied it, the SDK's
// retry recognises the token and Take still returns the item it consumed.
// Without a TTL attribute it is one conditional DeleteItem, and a lost
// response gives [ErrNotFound] on the retry.
func (e *Entity[T]) Take(ctx context.Context, k Key) (T, error) {
	var zero T
	if e.fn.unique != nil {
		return zero, opErr("take", e.def.Type, k, &ValidationError{Entity: e.def.Type, Field: "entity", Reason: "has unique values; use Delete"})
	}
	if err := keytmpl.CheckKey(k); err != nil {
		return zero, opErr("take", e.def.Type, k, err)
	}
	s := e.t.schema
	x := expr.New()
	c := e.t.c.Live(x, e.def.Type)
	var raw Item
	var err error
	start := time.Now()
	if s.TTLAttr == "" || s.TokenAttr == "" {
		var out *dynamodb.DeleteItemOutput
		out, err = e.t.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
			TableName:                 aws.String(s.Name),
			Key:                       e.t.c.KeyItem(k),
			ConditionExpression:       aws.String(c),
			ExpressionAttributeNames:  x.Names,
			ExpressionAttributeValues: x.Vals(),
			ReturnValues:              types.ReturnValueAllOld,
			ReturnConsumedCapacity:    e.t.c.WantCapacity(),
		})
		if err == nil {
			raw = out.Attributes
		}
		var cp float64
		if out != nil {
			cp = ddb.CapacityOf(out.ConsumedCapacity)
		}
		e.t.c.Observe(ctx, Event{Op: "DeleteItem", Entity: e.def.Type, Duration: time.Since(start), Err: err, Capacity: cp})
	} else {
		tok := e.t.c.NewToken()
		x.Names["#wt"], x.Names["#ttl0"] = s.TokenAttr, ddb.TakenTTLAttr
		x.Values[":wt"] = &types.AttributeValueMemberSS{Value: []string{tok}}
		x.Values[":gone"] = codec.Num(e.t.now().Unix())
		x.Values[":zero"] = codec.Num(0)
		var out *dynamodb.UpdateItemOutput
		out, err = e.t.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName: aws.String(s.Name),
			Key:       e.t.c.KeyItem(k),
			// #ttl0 keeps the item's own expiry, to return it as it was.
			UpdateExpression:                    aws.String("SET #ttl = :gone, #ttl0 = if_not_exists(#ttl, :zero) ADD #wt :wt"),
			ConditionExpression:                 aws.String(c),
			ExpressionAttributeNames:            x.Names,
			ExpressionAttributeValues:           x.Values,
			ReturnValues:                        types.ReturnValueAllOld,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
			ReturnConsumedCapacity:              e.t.c.WantCapacity(),
		})
		if err == nil {
			raw = out.Attributes
		} else {
			var ccf *types.ConditionalCheckFailedException
			if errors.As(err, &ccf) && e.t.c.HasToken(ccf.Item, tok) {
				// Taken by this call's first attempt, whose response was lost.
				raw, err = e.t.c.Untaken(ccf.Item), nil
			}
		}
		var cp float64
		if out != nil {
			cp = ddb.CapacityOf(out.ConsumedCapacity)
		}
		e.t.c.Observe(ctx, Event{Op: "UpdateItem", Entity: e.def.Type, Duration: time.Since(start), Err: err, Capacity: cp})
	}
	if err != nil {
		err = ddb.MapErr(err)
		if errors.Is(err, ErrConditionFailed) {
			err = ErrNotFound
		}
		return zero, opErr("take", e.def.Type, k, err)
	}
	v, _, err := e.decode(raw)
	if err != nil {
		return zero, opErr("take", e.def.Type, k, err)
	}
	return v, nil
}
