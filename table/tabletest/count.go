package tabletest

import (
	"context"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
)

// RequestCounter counts the requests a client sends, per operation
// ("GetItem", "TransactWriteItems", ...), once per call (the SDK's retries
// of one call count once). Use it to prove that bad input sends nothing and
// that an access pattern costs what its doc comment says.
type RequestCounter struct {
	mu sync.Mutex
	n  map[string]int
}

// Option installs the counter on a client.
func (c *RequestCounter) Option() func(*dynamodb.Options) {
	mw := middleware.InitializeMiddlewareFunc("tabletest.RequestCounter",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			c.mu.Lock()
			if c.n == nil {
				c.n = map[string]int{}
			}
			c.n[middleware.GetOperationName(ctx)]++
			c.mu.Unlock()
			return next.HandleInitialize(ctx, in)
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

// Reset forgets every count.
func (c *RequestCounter) Reset() {
	c.mu.Lock()
	c.n = nil
	c.mu.Unlock()
}
