package oteltable

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/singletable/singletable/table"
)

// ScopeName is the instrumentation scope of the tracer and meter.
const ScopeName = "github.com/singletable/singletable/table/oteltable"

// Attribute keys set on spans and metrics.
const (
	AttrPattern        = attribute.Key("singletable.pattern")          // catalog ID: "FH-6"
	AttrMethod         = attribute.Key("singletable.method")           // "ferryhook.APIKeys.Authenticate"
	AttrErrorKind      = attribute.Key("singletable.error.kind")       // see ErrorKind
	AttrRequests       = attribute.Key("singletable.requests")         // requests a call sent
	AttrRetries        = attribute.Key("singletable.retries")          // attempts beyond the first
	AttrCapacity       = attribute.Key("singletable.capacity_units")   // consumed capacity, total
	AttrCondFailed     = attribute.Key("singletable.condition_failed") // a condition refused the write
	AttrAttempt        = attribute.Key("singletable.attempt")          // 1 for the first attempt
	AttrOperation      = attribute.Key("db.operation.name")            // "GetItem"
	AttrSystem         = attribute.Key("db.system.name")               // "aws.dynamodb"
	AttrTableNames     = attribute.Key("aws.dynamodb.table_names")     // tables a request names
	AttrConsistentRead = attribute.Key("aws.dynamodb.consistent_read")
)

// Options configure the instrumentation.
type Options struct {
	// Capacity is what each request asks DynamoDB to report
	// (ReturnConsumedCapacity): TOTAL (the default) or INDEXES. A request
	// that already asks for some keeps its own.
	Capacity types.ReturnConsumedCapacity
}

// Option returns the table option that traces and measures store calls and
// their requests with tp and mp. With both nil it does nothing at all: the
// table is exactly as without it. One nil provider is replaced by its
// no-op. Use the same returned option for every table of a store, so that
// they share their instruments.
func Option(tp trace.TracerProvider, mp metric.MeterProvider, opts ...func(*Options)) func(*table.Options) {
	if tp == nil && mp == nil {
		return func(*table.Options) {}
	}
	o := Options{Capacity: types.ReturnConsumedCapacityTotal}
	for _, f := range opts {
		f(&o)
	}
	in := newInstruments(tp, mp, o)
	return func(to *table.Options) {
		to.Tracer = in
		to.ClientOptions = append(to.ClientOptions, in.clientOption)
	}
}

// instruments is the table.Tracer and client middleware of one Option.
type instruments struct {
	opts   Options
	tracer trace.Tracer

	calls, callErrors, requests, retries, reqErrors metric.Int64Counter
	capacity                                        metric.Float64Counter
	duration                                        metric.Float64Histogram
}

func newInstruments(tp trace.TracerProvider, mp metric.MeterProvider, o Options) *instruments {
	if tp == nil {
		tp = noopTP
	}
	if mp == nil {
		mp = noopMP
	}
	m := mp.Meter(ScopeName)
	in := &instruments{opts: o, tracer: tp.Tracer(ScopeName)}
	// Instrument creation fails only for bad names, which these are not;
	// on error the SDK still returns a usable no-op instrument.
	in.calls, _ = m.Int64Counter("singletable.calls", metric.WithDescription("Store method calls, by access pattern."), metric.WithUnit("{call}"))
	in.callErrors, _ = m.Int64Counter("singletable.call.errors", metric.WithDescription("Store method calls that failed, by access pattern and error kind."), metric.WithUnit("{call}"))
	in.duration, _ = m.Float64Histogram("singletable.call.duration", metric.WithDescription("Store method call duration."), metric.WithUnit("s"))
	in.requests, _ = m.Int64Counter("singletable.requests", metric.WithDescription("DynamoDB requests (one per SDK call, retries apart), by access pattern and operation."), metric.WithUnit("{request}"))
	in.retries, _ = m.Int64Counter("singletable.request.retries", metric.WithDescription("DynamoDB attempts beyond the first (throttling, network errors), by access pattern and operation."), metric.WithUnit("{attempt}"))
	in.reqErrors, _ = m.Int64Counter("singletable.request.errors", metric.WithDescription("DynamoDB requests that failed, by access pattern, operation and error kind."), metric.WithUnit("{request}"))
	in.capacity, _ = m.Float64Counter("singletable.capacity", metric.WithDescription("Capacity units DynamoDB reports consumed, by access pattern, operation and table."), metric.WithUnit("{capacity_unit}"))
	return in
}

// callState sums what a call's requests did, for its span's attributes.
type callState struct {
	requests, retries atomic.Int64
	milliCap          atomic.Int64
}

type callStateKey struct{}

// StartCall implements table.Tracer.
func (in *instruments) StartCall(ctx context.Context, c table.Call) (context.Context, func(error)) {
	name := c.Method
	if name == "" {
		name = c.Pattern
	}
	start := time.Now()
	ctx, span := in.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(AttrPattern.String(c.Pattern), AttrMethod.String(c.Method)))
	st := &callState{}
	ctx = context.WithValue(ctx, callStateKey{}, st)
	return ctx, func(err error) {
		attrs := metric.WithAttributes(AttrPattern.String(c.Pattern), AttrMethod.String(c.Method))
		in.calls.Add(ctx, 1, attrs)
		in.duration.Record(ctx, time.Since(start).Seconds(), attrs)
		span.SetAttributes(AttrRequests.Int64(st.requests.Load()), AttrRetries.Int64(st.retries.Load()),
			AttrCapacity.Float64(float64(st.milliCap.Load())/1000))
		if err != nil {
			kind := ErrorKind(err)
			in.callErrors.Add(ctx, 1, metric.WithAttributes(AttrPattern.String(c.Pattern), AttrMethod.String(c.Method), AttrErrorKind.String(kind)))
			span.SetAttributes(AttrErrorKind.String(kind))
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
		span.End()
	}
}

// reqState counts one request's attempts.
type reqState struct{ attempts int64 }

type reqStateKey struct{}

func (in *instruments) clientOption(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
		if err := st.Initialize.Add(middleware.InitializeMiddlewareFunc("oteltable.Request", in.request), middleware.After); err != nil {
			return err
		}
		return st.Finalize.Insert(middleware.FinalizeMiddlewareFunc("oteltable.Attempt", in.attempt), "Retry", middleware.After)
	})
}

// request traces one SDK call: a client span under the store call's span,
// consumed capacity asked for and recorded.
func (in *instruments) request(ctx context.Context, inp middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
	op := middleware.GetOperationName(ctx)
	tables, consistent := describeInput(inp.Parameters, in.opts.Capacity)
	pattern := ""
	if c, ok := table.CallOf(ctx); ok {
		pattern = c.Pattern
	}
	ctx, span := in.tracer.Start(ctx, "DynamoDB."+op, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(AttrSystem.String("aws.dynamodb"), AttrOperation.String(op),
			AttrTableNames.StringSlice(tables), AttrPattern.String(pattern)))
	if consistent {
		span.SetAttributes(AttrConsistentRead.Bool(true))
	}
	rs := &reqState{}
	out, md, err := next.HandleInitialize(context.WithValue(ctx, reqStateKey{}, rs), inp)

	units := 0.0
	if err == nil {
		units = consumedCapacity(out.Result)
	}
	retries := max(rs.attempts-1, 0)
	tableAttr := ""
	if len(tables) == 1 {
		tableAttr = tables[0]
	}
	attrs := metric.WithAttributes(AttrPattern.String(pattern), AttrOperation.String(op), attribute.String("aws.dynamodb.table_name", tableAttr))
	in.requests.Add(ctx, 1, attrs)
	if retries > 0 {
		in.retries.Add(ctx, retries, attrs)
	}
	if units > 0 {
		in.capacity.Add(ctx, units, attrs)
	}
	if st, ok := ctx.Value(callStateKey{}).(*callState); ok {
		st.requests.Add(1)
		st.retries.Add(retries)
		st.milliCap.Add(int64(units*1000 + 0.5))
	}
	span.SetAttributes(AttrRetries.Int64(retries), AttrCapacity.Float64(units))
	if err != nil {
		kind := requestErrorKind(err)
		in.reqErrors.Add(ctx, 1, metric.WithAttributes(AttrPattern.String(pattern), AttrOperation.String(op), AttrErrorKind.String(kind)))
		span.SetAttributes(AttrErrorKind.String(kind))
		if kind == KindConditionFailed {
			// Expected on conditional writes (create of an existing key,
			// a lost race): flagged, and the span's status says error.
			span.SetAttributes(AttrCondFailed.Bool(true))
		}
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
	return out, md, err
}

// attempt runs once per attempt of a request, after the SDK's retryer:
// an event on the request's span per attempt, with its error.
func (in *instruments) attempt(ctx context.Context, inp middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
	rs, _ := ctx.Value(reqStateKey{}).(*reqState)
	var n int64 = 1
	if rs != nil {
		rs.attempts++
		n = rs.attempts
	}
	out, md, err := next.HandleFinalize(ctx, inp)
	span := trace.SpanFromContext(ctx)
	if err != nil {
		span.AddEvent("attempt", trace.WithAttributes(AttrAttempt.Int64(n), AttrErrorKind.String(requestErrorKind(err)),
			attribute.String("exception.message", err.Error())))
	} else {
		span.AddEvent("attempt", trace.WithAttributes(AttrAttempt.Int64(n)))
	}
	return out, md, err
}

// Error kinds, the values of the singletable.error.kind attribute.
const (
	KindNotFound        = "not_found"
	KindAlreadyExists   = "already_exists"
	KindConflict        = "conflict"
	KindConditionFailed = "condition_failed"
	KindThrottled       = "throttled"
	KindValidation      = "validation"
	KindTxCanceled      = "transaction_canceled"
	KindCanceled        = "canceled"
	KindTimeout         = "timeout"
	KindPartial         = "partial_item"
	KindOther           = "other"
)

// ErrorKind classifies a store method's error for metrics and spans, by
// the table's sentinels: not_found, already_exists, conflict,
// condition_failed, throttled, validation, transaction_canceled,
// partial_item, canceled, timeout, or other.
func ErrorKind(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, table.ErrNotFound):
		return KindNotFound
	case errors.Is(err, table.ErrAlreadyExists):
		return KindAlreadyExists
	case errors.Is(err, table.ErrConflict):
		return KindConflict
	case errors.Is(err, table.ErrConditionFailed):
		return KindConditionFailed
	case errors.Is(err, table.ErrThrottled):
		return KindThrottled
	case errors.Is(err, table.ErrPartialItem):
		return KindPartial
	case errors.Is(err, table.ErrInvalidInput), errors.Is(err, table.ErrInvalidKey), errors.Is(err, table.ErrInvalidCursor),
		errors.Is(err, table.ErrItemTooLarge), errors.Is(err, table.ErrTooManyItems):
		return KindValidation
	case errors.Is(err, table.ErrTransactionCanceled):
		return KindTxCanceled
	case errors.Is(err, context.DeadlineExceeded):
		return KindTimeout
	case errors.Is(err, context.Canceled):
		return KindCanceled
	}
	return requestErrorKind(err)
}

// requestErrorKind classifies a DynamoDB error as the SDK returns it.
func requestErrorKind(err error) string {
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return KindConditionFailed
	}
	var tc *types.TransactionCanceledException
	if errors.As(err, &tc) {
		for _, r := range tc.CancellationReasons {
			if r.Code != nil && *r.Code == "ConditionalCheckFailed" {
				return KindConditionFailed
			}
		}
		return KindTxCanceled
	}
	var api interface{ ErrorCode() string }
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded":
			return KindThrottled
		case "ValidationException":
			return KindValidation
		case "TransactionConflictException":
			return KindConflict
		case "ResourceNotFoundException":
			return KindNotFound
		}
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return KindTimeout
	case errors.Is(err, context.Canceled):
		return KindCanceled
	}
	return KindOther
}
