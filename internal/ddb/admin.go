package ddb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CreateTable creates the table if it does not exist (with mustCreate, an
// existing one is an error), waits until it is active and, on a table it
// created, enables TTL.
func (c *Conn) CreateTable(ctx context.Context, mustCreate bool) error {
	if err := c.Schema.Validate(); err != nil {
		return fmt.Errorf("create table: %w", err)
	}
	_, err := c.Client.CreateTable(ctx, c.Schema.CreateTableInput())
	var inUse *types.ResourceInUseException
	existed := errors.As(err, &inUse)
	if err != nil && (!existed || mustCreate) {
		return fmt.Errorf("create table %s: %w", c.Schema.Name, err)
	}
	if err := c.waitActive(ctx); err != nil {
		return err
	}
	if existed {
		return nil
	}
	return c.EnableTTL(ctx)
}

func (c *Conn) waitActive(ctx context.Context) error {
	w := dynamodb.NewTableExistsWaiter(c.Client, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 20 * time.Millisecond
		o.MaxDelay = 2 * time.Second
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(c.Schema.Name)}, 5*time.Minute); err != nil {
		return fmt.Errorf("table %s: wait active: %w", c.Schema.Name, err)
	}
	return nil
}

// EnableTTL enables TTL on the schema's TTL attribute, unless it has none
// or it is enabled (or being enabled) already.
func (c *Conn) EnableTTL(ctx context.Context) error {
	if c.Schema.TTLAttr == "" {
		return nil
	}
	ttl, err := c.Client.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(c.Schema.Name)})
	if err == nil && ttl.TimeToLiveDescription != nil &&
		(ttl.TimeToLiveDescription.TimeToLiveStatus == types.TimeToLiveStatusEnabled ||
			ttl.TimeToLiveDescription.TimeToLiveStatus == types.TimeToLiveStatusEnabling) {
		return nil
	}
	_, err = c.Client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName: aws.String(c.Schema.Name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{
			AttributeName: aws.String(c.Schema.TTLAttr), Enabled: aws.Bool(true),
		},
	})
	if err != nil && !isTTLAlreadyEnabled(err) {
		return fmt.Errorf("table %s: enable TTL: %w", c.Schema.Name, err)
	}
	return nil
}

func isTTLAlreadyEnabled(err error) bool {
	var ve interface{ ErrorMessage() string }
	return errors.As(err, &ve) && strings.Contains(strings.ToLower(ve.ErrorMessage()), "already enabled")
}

// Describe returns the table's description as DynamoDB reports it.
func (c *Conn) Describe(ctx context.Context) (*types.TableDescription, error) {
	out, err := c.Client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(c.Schema.Name)})
	if err != nil {
		var nf *types.ResourceNotFoundException
		if errors.As(err, &nf) {
			return nil, fmt.Errorf("describe table %s: %w", c.Schema.Name, ErrNotFound)
		}
		return nil, fmt.Errorf("describe table %s: %w", c.Schema.Name, err)
	}
	return out.Table, nil
}

// DeleteTable deletes the table and waits until it is gone. Deleting a table that
// does not exist is not an error.
func (c *Conn) DeleteTable(ctx context.Context) error {
	_, err := c.Client.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(c.Schema.Name)})
	var nf *types.ResourceNotFoundException
	if errors.As(err, &nf) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("delete table %s: %w", c.Schema.Name, err)
	}
	w := dynamodb.NewTableNotExistsWaiter(c.Client, func(o *dynamodb.TableNotExistsWaiterOptions) {
		o.MinDelay = 20 * time.Millisecond
		o.MaxDelay = 2 * time.Second
	})
	if err := w.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(c.Schema.Name)}, 5*time.Minute); err != nil {
		return fmt.Errorf("delete table %s: wait: %w", c.Schema.Name, err)
	}
	return nil
}
