package table

import (
	"context"
	"iter"

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

// CallSeq2 is [Table.Call] for a store method that returns an iterator:
// the call starts when the iteration does (not when the method returns),
// seq runs under its context, and it ends with the first error the
// iteration yields (nil when none), whether the caller stops early or not.
//
//	func (s *Sources) AllByUser(ctx context.Context, u UserID) iter.Seq2[Source, error] {
//		return table.CallSeq2(ctx, s.t, "FH-3", "ferryhook.Sources.AllByUser", func(ctx context.Context) iter.Seq2[Source, error] {
//			...
//		})
//	}
func CallSeq2[V any](ctx context.Context, t *Table, pattern, method string, seq func(context.Context) iter.Seq2[V, error]) iter.Seq2[V, error] {
	if t.opts.Tracer == nil {
		return seq(ctx)
	}
	return func(yield func(V, error) bool) {
		ctx, call := t.Call(ctx, pattern, method)
		var err error
		defer func() { call.End(err) }()
		for v, e := range seq(ctx) {
			if e != nil && err == nil {
				err = e
			}
			if !yield(v, e) {
				return
			}
		}
	}
}

// CallPages is [CallSeq2] over [Pages]: the iterator form of list
// method list as one call of pattern by method, which is what a store's
// AllX method is:
//
//	func (s *Sources) AllByUser(ctx context.Context, u UserID, opts ...ListOption) iter.Seq2[Source, error] {
//		return table.CallPages(ctx, s.t, "FH-3", "ferryhook.Sources.AllByUser", func(ctx context.Context, o ...table.ListOption) (table.Page[Source], error) {
//			return s.ListByUser(ctx, u, o...)
//		}, opts...)
//	}
func CallPages[T any](ctx context.Context, t *Table, pattern, method string, list func(context.Context, ...ListOption) (Page[T], error), opts ...ListOption) iter.Seq2[T, error] {
	return CallSeq2(ctx, t, pattern, method, func(ctx context.Context) iter.Seq2[T, error] {
		return Pages(ctx, list, opts...)
	})
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
