package ddb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Call names one call of an access pattern (table.Call).
type Call struct {
	// Pattern is the access pattern's catalog ID ("FH-6").
	Pattern string
	// Method names the store method ("app.Sources.Get").
	Method string
}

// Tracer receives the calls of store methods (table.Tracer).
type Tracer interface {
	StartCall(ctx context.Context, c Call) (context.Context, func(error))
}

// EndCall ends a call started with [StartCall]; its zero value does
// nothing.
type EndCall struct{ end func(error) }

// End reports the end of the call with its error (nil for success).
func (e EndCall) End(err error) {
	if e.end != nil {
		e.end(err)
	}
}

type callKey struct{}

// StartCall starts the call of pattern by method with tr: the call is in
// the returned context ([CallOf]). A nil tr returns ctx unchanged and an
// EndCall that does nothing, with no allocation.
func StartCall(ctx context.Context, tr Tracer, pattern, method string) (context.Context, EndCall) {
	if tr == nil {
		return ctx, EndCall{}
	}
	c := Call{Pattern: pattern, Method: method}
	ctx, end := tr.StartCall(context.WithValue(ctx, callKey{}, c), c)
	return ctx, EndCall{end: end}
}

// CallOf returns the innermost call ctx was started under with
// [StartCall].
func CallOf(ctx context.Context) (Call, bool) {
	c, ok := ctx.Value(callKey{}).(Call)
	return c, ok
}

// ClientFor returns client with opts applied: a copy of it, so that the
// caller's client keeps its own middleware.
func ClientFor(client *dynamodb.Client, opts []func(*dynamodb.Options)) *dynamodb.Client {
	if len(opts) == 0 || client == nil {
		return client
	}
	return dynamodb.New(client.Options(), opts...)
}
