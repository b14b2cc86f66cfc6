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
