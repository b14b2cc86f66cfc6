package table

import (
	"context"
	"iter"

	"github.com/singletable/singletable/internal/ddb"
)

// Call names one call of an access pattern: what a store method reports
// through [Table.Call] so that the requests it sends can be traced and
// counted by pattern. Pattern is the catalog ID ("FH-6"), Method the
// store method.
type Call = ddb.Call

// Tracer receives the calls of store methods (Options.Tracer): StartCall
// is called when a method starts and returns the context its requests are
// sent under (carrying a span, say) and the function to call with the
// method's error when it ends. Package table/oteltable implements it with
// OpenTelemetry. A nil Tracer costs nothing: [Table.Call] then returns its
// context unchanged and an [EndCall] that does nothing, with no
// allocation.
type Tracer = ddb.Tracer

// EndCall ends a call started with [Table.Call]; its zero value does
// nothing.
type EndCall = ddb.EndCall

// Call starts a call of access pattern pattern (a catalog ID) by store
// method method, for Options.Tracer; end it with the method's error:
//
//	func (s *Sources) Get(ctx context.Context, id SourceID) (_ Source, err error) {
//		ctx, call := s.t.Call(ctx, "APP-2", "app.Sources.Get")
//		defer func() { call.End(err) }()
//		...
//
// Without a Tracer it returns ctx unchanged. With one, the call is also in
// the returned context ([CallOf]) for request-level middleware, and a call
// started inside another (a method calling a method) nests under it.
func (t *Table) Call(ctx context.Context, pattern, method string) (context.Context, EndCall) {
	return ddb.StartCall(ctx, t.opts.Tracer, pattern, method)
}

// CallSeq2 is [Table.Call] for a store method that returns an iterator:
// the call starts when the iteration does (not when the method returns),
// seq runs under its context, and it ends with the first error the
// iteration yields (nil when none), whether the caller stops early or not.
//
//	func (s *Sources) AllByUser(ctx context.Context, u UserID) iter.Seq2[Source, error] {
//		return table.CallSeq2(ctx, s.t, "APP-3", "app.Sources.AllByUser", func(ctx context.Context) iter.Seq2[Source, error] {
//			...
//		})
//	}
func CallSeq2[V any](ctx context.Context, t *Table, pattern, method string, seq func(context.Context) iter.Seq2[V, error]) iter.Seq2[V, error] {
	return ddb.CallSeq2(ctx, t.opts.Tracer, pattern, method, seq)
}

// CallPages is [CallSeq2] over [Pages]: the iterator form of list
// method list as one call of pattern by method, which is what a store's
// AllX method is:
//
//	func (s *Sources) AllByUser(ctx context.Context, u UserID, opts ...ListOption) iter.Seq2[Source, error] {
//		return table.CallPages(ctx, s.t, "APP-3", "app.Sources.AllByUser", func(ctx context.Context, o ...table.ListOption) (table.Page[Source], error) {
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
func CallOf(ctx context.Context) (Call, bool) { return ddb.CallOf(ctx) }
