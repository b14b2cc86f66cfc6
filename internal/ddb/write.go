package ddb

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/expr"
)

// PutItem sends p as one PutItem. On a failed condition it looks at the
// item DynamoDB returns with the failure: one carrying write token tok is
// this write, applied by an earlier attempt whose response was lost
// (success); one missing, expired or of another entity type is
// [ErrNotFound]; otherwise the failure is onFail ([ErrConflict] if nil).
func (c *Conn) PutItem(ctx context.Context, entity string, p *types.Put, tok string, onFail error) error {
	start := time.Now()
	in := &dynamodb.PutItemInput{
		TableName:                 p.TableName,
		Item:                      p.Item,
		ConditionExpression:       p.ConditionExpression,
		ExpressionAttributeNames:  p.ExpressionAttributeNames,
		ExpressionAttributeValues: p.ExpressionAttributeValues,
		ReturnConsumedCapacity:    c.WantCapacity(),
	}
	if p.ConditionExpression != nil {
		in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	out, err := c.Client.PutItem(ctx, in)
	if err != nil {
		err = MapErr(err)
		err = c.classifyCondFailure(err, entity, tok, onFail)
	}
	var cu float64
	if out != nil {
		cu = CapacityOf(out.ConsumedCapacity)
	}
	c.Observe(ctx, Event{Op: "PutItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: cu})
	return err
}

// classifyCondFailure explains a failed condition of a single-item write
// from the item DynamoDB returned with it: one carrying write token tok is
// this write, applied by an attempt whose response was lost (nil); else
// onFail if set; a missing, expired or foreign-typed item is ErrNotFound;
// anything else a lost race (ErrConflict). Other errors pass through.
func (c *Conn) classifyCondFailure(err error, entity, tok string, onFail error) error {
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		return err
	}
	switch {
	case c.HasToken(ccf.Item, tok):
		return nil
	case onFail == ErrExpiredInWay && (ccf.Item == nil || !c.Expired(ccf.Item)):
		return ErrAlreadyExists
	case onFail != nil:
		return onFail
	case ccf.Item == nil || c.Expired(ccf.Item) || !c.IsType(ccf.Item, entity):
		return ErrNotFound
	}
	return fmt.Errorf("%w: %w", ErrConflict, err)
}

// ErrExpiredInWay, as PutItem's onFail, asks that a failed condition
// whose returned item is past its TTL be reported as ErrExpiredInWay (a
// create to send again on absentCond), any other as ErrAlreadyExists.
var ErrExpiredInWay = errors.New("table: an item past its TTL holds the key")

// IsType reports whether raw is of entity type typ, or carries no type.
func (c *Conn) IsType(raw Item, typ string) bool {
	if c.Schema.TypeAttr == "" {
		return true
	}
	s, ok := raw[c.Schema.TypeAttr].(*types.AttributeValueMemberS)
	return !ok || s.Value == typ
}

// UpdateItem sends u as one UpdateItem. A failed condition whose returned
// item carries write token tok is this write, applied by an attempt whose
// response was lost: success. A missing, expired or foreign-typed item is
// [ErrNotFound]; any other failure [ErrConflict].
func (c *Conn) UpdateItem(ctx context.Context, entity string, u *types.Update, tok string) error {
	start := time.Now()
	out, err := c.Client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                           u.TableName,
		Key:                                 u.Key,
		UpdateExpression:                    u.UpdateExpression,
		ConditionExpression:                 u.ConditionExpression,
		ExpressionAttributeNames:            u.ExpressionAttributeNames,
		ExpressionAttributeValues:           u.ExpressionAttributeValues,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		ReturnConsumedCapacity:              c.WantCapacity(),
	})
	if err != nil {
		err = MapErr(err)
		err = c.classifyCondFailure(err, entity, tok, nil)
	}
	var cu float64
	if out != nil {
		cu = CapacityOf(out.ConsumedCapacity)
	}
	c.Observe(ctx, Event{Op: "UpdateItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: cu})
	return err
}

// TxToUpdateErr explains a canceled transaction of an update: a failed
// required item is ErrNotFound, a guard ErrUniqueViolation, another failed
// condition or a conflict ErrConflict.
func TxToUpdateErr(err error) error {
	var te *TxError
	if explained(err) || !errors.As(err, &te) {
		return err
	}
	for _, r := range te.Reasons {
		switch {
		case r.Code == "ConditionalCheckFailed" && r.Entity == "check":
			return fmt.Errorf("%w: required item %s/%s: %w", ErrNotFound, r.Key.PK, r.Key.SK, err)
		case r.Code == "ConditionalCheckFailed" && r.Guard != "":
			return fmt.Errorf("%w: %s %q: %w", ErrUniqueViolation, r.Guard, r.GuardValue, err)
		case r.Code == "ConditionalCheckFailed", r.Code == "TransactionConflict":
			return fmt.Errorf("%w: %w", ErrConflict, err)
		}
	}
	return err
}

// PutCreate sends op, a create, as one PutItem: on createCond first and,
// when an item past its TTL holds the key, once more on absentCond (see
// createCond). A key held by a live item gives ErrAlreadyExists.
func (c *Conn) PutCreate(ctx context.Context, entity string, op Op, tok string) error {
	onFail := ErrAlreadyExists
	if op.Absent {
		onFail = ErrExpiredInWay
	}
	err := c.PutItem(ctx, entity, op.Put, tok, onFail)
	if err == ErrExpiredInWay {
		err = c.PutItem(ctx, entity, c.FullCreate(op).Put, tok, ErrAlreadyExists)
	}
	return err
}

// TxToCreateErr turns a canceled create transaction into ErrAlreadyExists
// (the item) or ErrUniqueViolation (a guard), keeping the TxError.
func TxToCreateErr(err error) error {
	var te *TxError
	if explained(err) || !errors.As(err, &te) {
		return err
	}
	for _, r := range te.Reasons {
		if r.Code != "ConditionalCheckFailed" {
			continue
		}
		if r.Guard != "" {
			return fmt.Errorf("%w: %s %q: %w", ErrUniqueViolation, r.Guard, r.GuardValue, err)
		}
		return fmt.Errorf("%w: %w", ErrAlreadyExists, err)
	}
	return err
}

// DeleteItem is one DeleteItem of k, on condition that it is a live item
// of entity's type; a failed condition is ErrNotFound.
func (c *Conn) DeleteItem(ctx context.Context, entity string, k Key) error {
	x := expr.New()
	return c.DeleteItemCond(ctx, entity, k, c.Live(x, entity), x)
}

// DeleteItemCond is one DeleteItem with condition c (placeholders in x); a
// failed condition is ErrNotFound.
func (c *Conn) DeleteItemCond(ctx context.Context, entity string, k Key, cond string, x expr.Exprs) error {
	start := time.Now()
	out, err := c.Client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 aws.String(c.Schema.Name),
		Key:                       c.KeyItem(k),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  x.Names,
		ExpressionAttributeValues: x.Vals(),
		ReturnConsumedCapacity:    c.WantCapacity(),
	})
	if err != nil {
		err = MapErr(err)
		if errors.Is(err, ErrConditionFailed) {
			err = ErrNotFound
		}
	}
	var c2 float64
	if out != nil {
		c2 = CapacityOf(out.ConsumedCapacity)
	}
	c.Observe(ctx, Event{Op: "DeleteItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: c2})
	return err
}

// VersionOf returns the version attribute of raw (0 when it has none).
func (c *Conn) VersionOf(raw Item) int64 {
	if n, ok := raw[c.Schema.VersionAttr].(*types.AttributeValueMemberN); ok {
		v, _ := strconv.ParseInt(n.Value, 10, 64)
		return v
	}
	return 0
}

// Take removes the live item of entity's type with key k and returns it
// as it was: one UpdateItem that ends its TTL (at now) and stamps a write
// token, so a retried request recognises its own take, or without a TTL
// or token attribute one conditional DeleteItem. A missing, expired or
// foreign-typed item is ErrNotFound.
func (c *Conn) Take(ctx context.Context, entity string, k Key, now time.Time) (Item, error) {
	s := c.Schema
	x := expr.New()
	cond := c.Live(x, entity)
	var raw Item
	var err error
	start := time.Now()
	if s.TTLAttr == "" || s.TokenAttr == "" {
		var out *dynamodb.DeleteItemOutput
		out, err = c.Client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
			TableName:                 aws.String(s.Name),
			Key:                       c.KeyItem(k),
			ConditionExpression:       aws.String(cond),
			ExpressionAttributeNames:  x.Names,
			ExpressionAttributeValues: x.Vals(),
			ReturnValues:              types.ReturnValueAllOld,
			ReturnConsumedCapacity:    c.WantCapacity(),
		})
		if err == nil {
			raw = out.Attributes
		}
		var cp float64
		if out != nil {
			cp = CapacityOf(out.ConsumedCapacity)
		}
		c.Observe(ctx, Event{Op: "DeleteItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: cp})
	} else {
		tok := c.NewToken()
		x.Names["#wt"], x.Names["#ttl0"] = s.TokenAttr, TakenTTLAttr
		x.Values[":wt"] = &types.AttributeValueMemberSS{Value: []string{tok}}
		x.Values[":gone"] = codec.Num(now.Unix())
		x.Values[":zero"] = codec.Num(0)
		var out *dynamodb.UpdateItemOutput
		out, err = c.Client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName: aws.String(s.Name),
			Key:       c.KeyItem(k),
			// #ttl0 keeps the item's own expiry, to return it as it was.
			UpdateExpression:                    aws.String("SET #ttl = :gone, #ttl0 = if_not_exists(#ttl, :zero) ADD #wt :wt"),
			ConditionExpression:                 aws.String(cond),
			ExpressionAttributeNames:            x.Names,
			ExpressionAttributeValues:           x.Values,
			ReturnValues:                        types.ReturnValueAllOld,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
			ReturnConsumedCapacity:              c.WantCapacity(),
		})
		if err == nil {
			raw = out.Attributes
		} else {
			var ccf *types.ConditionalCheckFailedException
			if errors.As(err, &ccf) && c.HasToken(ccf.Item, tok) {
				// Taken by this call's first attempt, whose response was lost.
				raw, err = c.Untaken(ccf.Item), nil
			}
		}
		var cp float64
		if out != nil {
			cp = CapacityOf(out.ConsumedCapacity)
		}
		c.Observe(ctx, Event{Op: "UpdateItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: cp})
	}
	if err != nil {
		err = MapErr(err)
		if errors.Is(err, ErrConditionFailed) {
			err = ErrNotFound
		}
		return nil, err
	}
	return raw, nil
}

// CreateOps returns the conditional put that creates item, entity's
// encoded item with key k (its key absent, or expired), and the puts of
// the guards of uniques (expiring at exp, epoch seconds; 0 never). With
// token the put carries a new write token, returned.
func (c *Conn) CreateOps(entity string, item Item, k Key, uniques []Unique, exp int64, token bool) ([]Op, string) {
	var tok string
	if ta := c.Schema.TokenAttr; ta != "" && token {
		tok = c.NewToken()
		item[ta] = &types.AttributeValueMemberSS{Value: []string{tok}}
	}
	x := expr.Exprs{Names: map[string]string{}} // the short condition binds no values
	cond, absent := c.ShortCreate(x)
	ops := []Op{{Put: &types.Put{
		TableName:                 aws.String(c.Schema.Name),
		Item:                      item,
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  x.Names,
		ExpressionAttributeValues: x.Vals(),
	}, Key: k, What: entity, Absent: absent}}
	for _, u := range uniques {
		ops = append(ops, c.GuardPut(u, k, exp))
	}
	return ops, tok
}

// DeleteOp is the transaction action that deletes entity's item k on
// condition that it is live (and, with version, at that version).
func (c *Conn) DeleteOp(entity string, k Key, version *int64) Op {
	x := expr.New()
	cond := c.Live(x, entity)
	if version != nil {
		cond += " AND " + c.VersionCond(x, *version)
	}
	return Op{Delete: &types.Delete{
		TableName:                 aws.String(c.Schema.Name),
		Key:                       c.KeyItem(k),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  x.Names,
		ExpressionAttributeValues: x.Vals(),
	}, Key: k, What: entity}
}
