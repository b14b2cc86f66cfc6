package oteltable

import (
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

var (
	noopTP = tracenoop.NewTracerProvider()
	noopMP = metricnoop.NewMeterProvider()
)

// describeInput returns the tables a request names and whether it reads
// consistently, and asks for consumed capacity (want) on a request that
// asks for none.
func describeInput(in any, want types.ReturnConsumedCapacity) (tables []string, consistent bool) {
	ask := func(p *types.ReturnConsumedCapacity) {
		if *p == "" || *p == types.ReturnConsumedCapacityNone {
			*p = want
		}
	}
	name := func(s *string) []string {
		if s == nil {
			return nil
		}
		return []string{*s}
	}
	switch in := in.(type) {
	case *dynamodb.GetItemInput:
		ask(&in.ReturnConsumedCapacity)
		return name(in.TableName), in.ConsistentRead != nil && *in.ConsistentRead
	case *dynamodb.PutItemInput:
		ask(&in.ReturnConsumedCapacity)
		return name(in.TableName), false
	case *dynamodb.UpdateItemInput:
		ask(&in.ReturnConsumedCapacity)
		return name(in.TableName), false
	case *dynamodb.DeleteItemInput:
		ask(&in.ReturnConsumedCapacity)
		return name(in.TableName), false
	case *dynamodb.QueryInput:
		ask(&in.ReturnConsumedCapacity)
		return name(in.TableName), in.ConsistentRead != nil && *in.ConsistentRead
	case *dynamodb.ScanInput:
		ask(&in.ReturnConsumedCapacity)
		return name(in.TableName), in.ConsistentRead != nil && *in.ConsistentRead
	case *dynamodb.BatchGetItemInput:
		ask(&in.ReturnConsumedCapacity)
		return slices.Sorted(maps.Keys(in.RequestItems)), false
	case *dynamodb.BatchWriteItemInput:
		ask(&in.ReturnConsumedCapacity)
		return slices.Sorted(maps.Keys(in.RequestItems)), false
	case *dynamodb.TransactGetItemsInput:
		ask(&in.ReturnConsumedCapacity)
		var ts []string
		for _, it := range in.TransactItems {
			if it.Get != nil && it.Get.TableName != nil {
				ts = append(ts, *it.Get.TableName)
			}
		}
		return uniq(ts), false
	case *dynamodb.TransactWriteItemsInput:
		ask(&in.ReturnConsumedCapacity)
		var ts []string
		for _, it := range in.TransactItems {
			switch {
			case it.Put != nil:
				ts = append(ts, deref(it.Put.TableName))
			case it.Update != nil:
				ts = append(ts, deref(it.Update.TableName))
			case it.Delete != nil:
				ts = append(ts, deref(it.Delete.TableName))
			case it.ConditionCheck != nil:
				ts = append(ts, deref(it.ConditionCheck.TableName))
			}
		}
		return uniq(ts), false
	case *dynamodb.ExecuteStatementInput:
		ask(&in.ReturnConsumedCapacity)
		return nil, in.ConsistentRead != nil && *in.ConsistentRead
	case *dynamodb.DescribeTableInput:
		return name(in.TableName), false
	}
	return nil, false
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func uniq(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// consumedCapacity sums the capacity units an output reports.
func consumedCapacity(out any) float64 {
	var ccs []types.ConsumedCapacity
	one := func(c *types.ConsumedCapacity) {
		if c != nil {
			ccs = append(ccs, *c)
		}
	}
	switch o := out.(type) {
	case *dynamodb.GetItemOutput:
		one(o.ConsumedCapacity)
	case *dynamodb.PutItemOutput:
		one(o.ConsumedCapacity)
	case *dynamodb.UpdateItemOutput:
		one(o.ConsumedCapacity)
	case *dynamodb.DeleteItemOutput:
		one(o.ConsumedCapacity)
	case *dynamodb.QueryOutput:
		one(o.ConsumedCapacity)
	case *dynamodb.ScanOutput:
		one(o.ConsumedCapacity)
	case *dynamodb.ExecuteStatementOutput:
		one(o.ConsumedCapacity)
	case *dynamodb.BatchGetItemOutput:
		ccs = o.ConsumedCapacity
	case *dynamodb.BatchWriteItemOutput:
		ccs = o.ConsumedCapacity
	case *dynamodb.TransactGetItemsOutput:
		ccs = o.ConsumedCapacity
	case *dynamodb.TransactWriteItemsOutput:
		ccs = o.ConsumedCapacity
	}
	var n float64
	for _, c := range ccs {
		if c.CapacityUnits != nil {
			n += *c.CapacityUnits
		}
	}
	return n
}
