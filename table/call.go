package table

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Call names one call of an access pattern: what a store method reports
// through [Table.Call] so that the requests it sends can be traced and
// counted by pattern.
type Call struct {
	// Pattern is the access pattern's catalog ID ("FH-6").
	Pattern string
	// Method names the store method ("ferryhook.APIKeys.Authenticate").
	Method string
}

// Tracer receives the calls of store methods (Options.Tracer): StartCall
// is called when a method starts and returns the context its requests are
// sent under (carrying a span, say) and the function to call with the
// method's error when it ends. Package table/oteltable implements it with
// OpenTelemetry. A nil Tracer costs nothing: [Table.Call] then returns its
// context unchanged and an [EndCall] that does nothing, with no
// allocation.
type Tracer interface {
	StartCall(ctx context.Context, c Call) (context.Context, func(error))
}

// EndCall ends a call started with [Table.Call]; its zero value does
// nothing.
type EndCall struct{ end func(error) }

// End reports the end of the call with its error (nil for success).
func (e EndCall) End(err error) {
	if e.end != nil {
		e.end(err)
	}
}

type callKey struct{}

// Call starts a call of access pattern pattern (a catalog ID) by store
// method method, for Options.Tracer; end it with the method's error:
//
//	func (s *Sources) Get(ctx context.Context, id SourceID) (_ Source, err error) {
//		ctx, call := s.t.Call(ctx, "FH-2", "ferryhook.Sources.Get")
//		defer func() { call.End(err) }()
//		...
//
// Without a Tracer it returns ctx unchanged. With one, the call is also in
// the returned context ([CallOf]) for request-level middleware, and a call
// started inside another (a method calling a method) nests under it.
func (t *Table) Call(ctx context.Context, pattern, method string) (context.Context, EndCall) {
	if t.opts.Tracer == nil {
		return ctx, EndCall{}
	}
	c := Call{Pattern: pattern, Method: method}
	ctx, end := t.opts.Tracer.StartCall(context.WithValue(ctx, callKey{}, c), c)
	return ctx, EndCall{end: end}
}

// CallOf returns the innermost call ctx was started under with
// [Table.Call], if a Tracer is set.
func CallOf(ctx context.Context) (Call, bool) {
	c, ok := ctx.Value(callKey{}).(Call)
	return c, ok
}

// clientFor returns client with Options.ClientOptions applied: a copy
// of it, so that the caller's client keeps its own middleware.
func clientFor(client *dynamodb.Client, o *Options) *dynamodb.Client {
	if len(o.ClientOptions) == 0 || client == nil {
		return client
	}
	return dynamodb.New(client.Options(), o.ClientOptions...)
}
