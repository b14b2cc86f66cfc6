package tabletest

import (
	"context"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
)

// Hold delays the first request of operation Op ("TransactWriteItems",
// ...) a client sends: the request waits, before it is sent (or, with
// AfterResponse, after its response arrived), until [Hold.Release] is
// called, and [Hold.Arrived] is closed when it starts waiting. Use it to let another writer act while a request is in flight
// (a delayed transaction), which DynamoDB Local never does by itself.
type Hold struct {
	Op            string
	AfterResponse bool
	once          sync.Once
	init          sync.Once
	arrived       chan struct{}
	released      chan struct{}
	taken         bool
	mu            sync.Mutex
}

func (h *Hold) setup() {
	h.init.Do(func() {
		h.arrived = make(chan struct{})
		h.released = make(chan struct{})
	})
}

// Arrived is closed when the held request starts waiting.
func (h *Hold) Arrived() <-chan struct{} { h.setup(); return h.arrived }

// Release lets the held request (and every later one) go.
func (h *Hold) Release() { h.setup(); h.once.Do(func() { close(h.released) }) }

// Option installs the hold on a client.
func (h *Hold) Option() func(*dynamodb.Options) {
	h.setup()
	mw := middleware.InitializeMiddlewareFunc("tabletest.Hold",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			if middleware.GetOperationName(ctx) == h.Op {
				h.mu.Lock()
				first := !h.taken
				h.taken = true
				h.mu.Unlock()
				if first && h.AfterResponse {
					out, md, err := next.HandleInitialize(ctx, in)
					close(h.arrived)
					select {
					case <-h.released:
					case <-ctx.Done():
						return out, md, ctx.Err()
					}
					return out, md, err
				}
				if first {
					close(h.arrived)
					select {
					case <-h.released:
					case <-ctx.Done():
						return middleware.InitializeOutput{}, middleware.Metadata{}, ctx.Err()
					}
				}
			}
			return next.HandleInitialize(ctx, in)
		})
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
			return st.Initialize.Add(mw, middleware.After)
		})
	}
}
