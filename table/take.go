package table

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Take deletes the item with key k and returns it, in one conditional
// DeleteItem: the item is valid once. Of two concurrent Takes exactly one
// gets the item; a missing item, one already taken, or one past its TTL
// (even if DynamoDB has not removed it yet) gives [ErrNotFound]. Use it to
// consume one-time values such as OAuth states or invitation codes.
// Entities with unique values are refused (their guards go with Delete).
func (e *Entity[T]) Take(ctx context.Context, k Key) (T, error) {
	var zero T
	if e.def.Unique != nil {
		return zero, opErr("take", e.def.Type, k, &ValidationError{Entity: e.def.Type, Field: "entity", Reason: "has unique values; use Delete"})
	}
	if err := checkKey(k); err != nil {
		return zero, opErr("take", e.def.Type, k, err)
	}
	s := e.t.schema
	in := &dynamodb.DeleteItemInput{
		TableName:                aws.String(s.Name),
		Key:                      e.t.keyItem(k),
		ConditionExpression:      aws.String("attribute_exists(#pk)"),
		ExpressionAttributeNames: map[string]string{"#pk": s.PK},
		ReturnValues:             types.ReturnValueAllOld,
		ReturnConsumedCapacity:   e.t.wantCapacity(),
	}
	if s.TTLAttr != "" {
		in.ConditionExpression = aws.String("attribute_exists(#pk) AND " + notExpiredCond)
		in.ExpressionAttributeNames["#ttl"] = s.TTLAttr
		in.ExpressionAttributeValues = map[string]types.AttributeValue{":now": numAV(e.t.now().Unix()), ":zero": numAV(0)}
	}
	start := time.Now()
	out, err := e.t.client.DeleteItem(ctx, in)
	if err != nil {
		err = mapErr(err)
		if errors.Is(err, ErrConditionFailed) {
			err = ErrNotFound
		}
	}
	var c float64
	if out != nil {
		c = capPtr(out.ConsumedCapacity)
	}
	e.t.observe(ctx, Event{Op: "DeleteItem", Entity: e.def.Type, Duration: time.Since(start), Err: err, Capacity: c})
	if err != nil {
		return zero, opErr("take", e.def.Type, k, err)
	}
	v, _, err := e.decode(out.Attributes)
	if err != nil {
		return zero, opErr("take", e.def.Type, k, err)
	}
	return v, nil
}
