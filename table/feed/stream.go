package feed

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go/middleware"
	"github.com/singletable/singletable/table"
)

// StreamsClient returns a client of the Streams API configured like c
// (region, credentials, HTTP client, retries): against DynamoDB Local its
// endpoint is c's own (DynamoDB Local serves both APIs on one port);
// against AWS, with no endpoint set on c, the region's streams endpoint.
// Its GetRecords responses are read through a repair of DynamoDB Local's
// empty maps (written {} in stream records; see emptymap.go), which
// leaves DynamoDB's own responses as they are.
func StreamsClient(c *dynamodb.Client) *dynamodbstreams.Client {
	o := c.Options()
	return dynamodbstreams.New(dynamodbstreams.Options{
		Region:           o.Region,
		Credentials:      o.Credentials,
		BaseEndpoint:     o.BaseEndpoint,
		HTTPClient:       o.HTTPClient,
		RetryMaxAttempts: o.RetryMaxAttempts,
		RetryMode:        o.RetryMode,
		Retryer:          o.Retryer,
		Logger:           o.Logger,
		ClientLogMode:    o.ClientLogMode,
		APIOptions:       []func(*middleware.Stack) error{repairEmptyMaps},
	})
}

// StreamARN returns the ARN of t's latest stream, or an error saying the
// table has no stream (declare one with table.WithStream and create the
// table, or enable it with tableschema.Apply).
func StreamARN(ctx context.Context, t *table.Table) (string, error) {
	d, err := t.Describe(ctx)
	if err != nil {
		return "", err
	}
	if d.LatestStreamArn == nil || d.StreamSpecification == nil || !aws.ToBool(d.StreamSpecification.StreamEnabled) {
		return "", errorf("table %s has no stream enabled (Schema.Stream, table.WithStream)", t.Name())
	}
	return *d.LatestStreamArn, nil
}

// Shards returns every shard of the stream, parents before their
// children (the order in which a reader keeps each key's records in
// order).
func Shards(ctx context.Context, sc *dynamodbstreams.Client, arn string) ([]st.Shard, error) {
	var all []st.Shard
	var start *string
	for {
		out, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn), ExclusiveStartShardId: start})
		if err != nil {
			return nil, fmt.Errorf("feed: describe stream: %w", err)
		}
		all = append(all, out.StreamDescription.Shards...)
		start = out.StreamDescription.LastEvaluatedShardId
		if start == nil {
			break
		}
	}
	return parentsFirst(all), nil
}

// parentsFirst orders shards so that a shard comes after its parent when
// the parent is listed (a parent trimmed away no longer is).
func parentsFirst(shards []st.Shard) []st.Shard {
	byID := make(map[string]st.Shard, len(shards))
	for _, s := range shards {
		byID[aws.ToString(s.ShardId)] = s
	}
	done := make(map[string]bool, len(shards))
	out := make([]st.Shard, 0, len(shards))
	var visit func(s st.Shard)
	visit = func(s st.Shard) {
		id := aws.ToString(s.ShardId)
		if done[id] {
			return
		}
		done[id] = true
		if p, ok := byID[aws.ToString(s.ParentShardId)]; ok {
			visit(p)
		}
		out = append(out, s)
	}
	for _, s := range shards {
		visit(s)
	}
	return out
}

// ReadAll reads every record the stream holds now, from the trim horizon
// of each shard to its current end, parents before children, and returns
// them in that order (each key's records in order). It is for tests and
// one-off tools; a service follows the stream with a [Consumer].
func ReadAll(ctx context.Context, sc *dynamodbstreams.Client, arn string) ([]table.Record, error) {
	shards, err := Shards(ctx, sc, arn)
	if err != nil {
		return nil, err
	}
	var recs []table.Record
	for _, s := range shards {
		id := aws.ToString(s.ShardId)
		it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{
			StreamArn: aws.String(arn), ShardId: s.ShardId, ShardIteratorType: st.ShardIteratorTypeTrimHorizon,
		})
		if err != nil {
			return nil, fmt.Errorf("feed: shard %s: iterator: %w", id, err)
		}
		iter := it.ShardIterator
		for iter != nil {
			out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter})
			if err != nil {
				return nil, fmt.Errorf("feed: shard %s: get records: %w", id, err)
			}
			for _, r := range out.Records {
				rec, err := FromStreams(id, r)
				if err != nil {
					return nil, err
				}
				recs = append(recs, rec)
			}
			if len(out.Records) == 0 {
				break // the shard's current end (an open shard) or its last page
			}
			iter = out.NextShardIterator
		}
	}
	return recs, nil
}
