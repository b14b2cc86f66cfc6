package ddb

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// GetItem sends one GetItem of k (strongly consistent when consistent is
// set; with proj, fetching only its attributes, named in names) and
// returns the item, nil when there is none: a missing item is not an
// error here.
func (c *Conn) GetItem(ctx context.Context, entity string, k Key, consistent bool, proj *string, names map[string]string) (Item, error) {
	start := time.Now()
	in := &dynamodb.GetItemInput{
		TableName:                aws.String(c.Schema.Name),
		Key:                      c.KeyItem(k),
		ConsistentRead:           aws.Bool(consistent),
		ReturnConsumedCapacity:   c.WantCapacity(),
		ProjectionExpression:     proj,
		ExpressionAttributeNames: names,
	}
	out, err := c.Client.GetItem(ctx, in)
	if err != nil {
		err = MapErr(err)
	}
	var cu float64
	if out != nil {
		cu = CapacityOf(out.ConsumedCapacity)
	}
	c.Observe(ctx, Event{Op: "GetItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: cu})
	if err != nil {
		return nil, err
	}
	return out.Item, nil
}

// GetItemAttrs is [Conn.GetItem] fetching only attrs, with what the table
// reads itself and the keys of the indexes ixs ([Conn.ProjectionExpr]),
// when attrs is not empty; the whole item otherwise.
func (c *Conn) GetItemAttrs(ctx context.Context, entity string, k Key, consistent bool, attrs []string, ixs []Index) (Item, error) {
	if len(attrs) == 0 {
		return c.GetItem(ctx, entity, k, consistent, nil, nil)
	}
	names := map[string]string{}
	proj := aws.String(c.ProjectionExpr(attrs, ixs, names))
	return c.GetItem(ctx, entity, k, consistent, proj, names)
}

// BatchGetAttrs is [Conn.BatchGet] fetching only attrs (with what the
// table reads itself) when attrs is not empty.
func (c *Conn) BatchGetAttrs(ctx context.Context, entity string, ks []Key, consistent bool, attrs []string) ([]Item, error) {
	if len(attrs) == 0 {
		return c.BatchGet(ctx, entity, ks, consistent, nil, nil)
	}
	names := map[string]string{}
	proj := aws.String(c.ProjectionExpr(attrs, nil, names))
	return c.BatchGet(ctx, entity, ks, consistent, proj, names)
}
