package tabletest

import (
	"context"
	"maps"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// RequestCounter counts the requests a client sends, per operation
// ("GetItem", "TransactWriteItems", ...), once per call (the SDK's retries
// of one call count once). Use it to prove that bad input sends nothing and
// that an access pattern costs what its doc comment says.
//
// With Capacity set it also asks DynamoDB for the capacity each request
// consumes (ReturnConsumedCapacity TOTAL on requests that ask for none) and sums it: see [RequestCounter.Consumed].
type RequestCounter struct {
	// Capacity makes the counter measure consumed capacity too.
	Capacity bool

	mu          sync.Mutex
	n           map[string]int
	read, write float64
}

// Option installs the counter on a client.
func (c *RequestCounter) Option() func(*dynamodb.Options) {
	mw := middleware.InitializeMiddlewareFunc("tabletest.RequestCounter",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			op := middleware.GetOperationName(ctx)
			c.mu.Lock()
			if c.n == nil {
				c.n = map[string]int{}
			}
			c.n[op]++
			c.mu.Unlock()
			if c.Capacity {
				askCapacity(in.Parameters)
			}
			out, md, err := next.HandleInitialize(ctx, in)
			if c.Capacity && err == nil {
				r, w := consumed(op, out.Result)
				c.mu.Lock()
				c.read += r
				c.write += w
				c.mu.Unlock()
			}
			return out, md, err
		})
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
			return st.Initialize.Add(mw, middleware.After)
		})
	}
}

// Total returns how many requests were sent.
func (c *RequestCounter) Total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.n {
		n += v
	}
	return n
}

// Of returns how many requests of operation op were sent.
func (c *RequestCounter) Of(op string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[op]
}

// Ops returns the counts per operation.
func (c *RequestCounter) Ops() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.n)
}

// Consumed returns the read and write capacity units the requests consumed,
// as DynamoDB reported them (zero unless Capacity is set).
func (c *RequestCounter) Consumed() (read, write float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.read, c.write
}

// Reset forgets every count.
func (c *RequestCounter) Reset() {
	c.mu.Lock()
	c.n = nil
	c.read, c.write = 0, 0
	c.mu.Unlock()
}

func askCapacity(in any) {
	const total = types.ReturnConsumedCapacityTotal
	switch in := in.(type) {
	case *dynamodb.GetItemInput:
		in.ReturnConsumedCapacity = or(in.ReturnConsumedCapacity, total)
	case *dynamodb.PutItemInput:
		in.ReturnConsumedCapacity = or(in.ReturnConsumedCapacity, total)
	case *dynamodb.UpdateItemInput:
		in.ReturnConsumedCapacity = or(in.ReturnConsumedCapacity, total)
	case *dynamodb.DeleteItemInput:
		in.ReturnConsumedCapacity = or(in.ReturnConsumedCapacity, total)
	case *dynamodb.QueryInput:
		in.ReturnConsumedCapacity = or(in.ReturnConsumedCapacity, total)
	case *dynamodb.ScanInput:
		in.ReturnConsumedCapacity = or(in.ReturnConsumedCapacity, total)
	case *dynamodb.BatchGetItemInput:
		in.ReturnConsumedCapacity = or(in.ReturnConsumedCapacity, total)
	case *dynamodb.BatchWriteItemInput:
		in.ReturnConsumedCapacity = or(in.ReturnConsumedCapacity, total)
	case *dynamodb.TransactGetItemsInput:
		in.ReturnConsumedCapacity = or(in.ReturnConsumedCapacity, total)
	case *dynamodb.TransactWriteItemsInput:
		in.ReturnConsumedCapacity = or(in.ReturnConsumedCapacity, total)
	}
}

func or(v, def types.ReturnConsumedCapacity) types.ReturnConsumedCapacity {
	if v == "" || v == types.ReturnConsumedCapacityNone {
		return def
	}
	return v
}

// consumed returns the read and write units an operation's output reports.
func consumed(op string, out any) (read, write float64) {
	var ccs []types.ConsumedCapacity
	switch o := out.(type) {
	case *dynamodb.GetItemOutput:
		ccs = one(o.ConsumedCapacity)
	case *dynamodb.PutItemOutput:
		ccs = one(o.ConsumedCapacity)
	case *dynamodb.UpdateItemOutput:
		ccs = one(o.ConsumedCapacity)
	case *dynamodb.DeleteItemOutput:
		ccs = one(o.ConsumedCapacity)
	case *dynamodb.QueryOutput:
		ccs = one(o.ConsumedCapacity)
	case *dynamodb.ScanOutput:
		ccs = one(o.ConsumedCapacity)
	case *dynamodb.BatchGetItemOutput:
		ccs = o.ConsumedCapacity
	case *dynamodb.BatchWriteItemOutput:
		ccs = o.ConsumedCapacity
	case *dynamodb.TransactGetItemsOutput:
		ccs = o.ConsumedCapacity
	case *dynamodb.TransactWriteItemsOutput:
		ccs = o.ConsumedCapacity
	}
	isRead := op == "GetItem" || op == "Query" || op == "Scan" || op == "BatchGetItem" || op == "TransactGetItems"
	for _, cc := range ccs {
		r, w := deref(cc.ReadCapacityUnits), deref(cc.WriteCapacityUnits)
		if r == 0 && w == 0 {
			if isRead {
				r = deref(cc.CapacityUnits)
			} else {
				w = deref(cc.CapacityUnits)
			}
		}
		read += r
		write += w
	}
	return read, write
}

func one(cc *types.ConsumedCapacity) []types.ConsumedCapacity {
	if cc == nil {
		return nil
	}
	return []types.ConsumedCapacity{*cc}
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}
