package tabletest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// Faults that DynamoDB Local never shows (throttling, unprocessed batch
// items, network errors, GSI lag), injected in front of the real DynamoDB
// Local with aws-sdk-go-v2 middleware or an HTTP client. Pass a fault's
// Option to [NewClient]:
//
//	f := &tabletest.Unprocessed{Fraction: 0.3}
//	client := tabletest.NewClient(t, f.Option())

// Unprocessed holds back Fraction of the items of every BatchWriteItem
// and the keys of every BatchGetItem, rounded down (or up, so at least one
// is always held back, with RoundUp), and returns them as unprocessed, as
// DynamoDB does under load. The rest is really sent.
type Unprocessed struct {
	Fraction float64
	RoundUp  bool
	rounds   atomic.Int64
}

// Rounds returns how many batch requests went through.
func (f *Unprocessed) Rounds() int64 { return f.rounds.Load() }

func (f *Unprocessed) held(n int) int {
	h := int(float64(n) * f.Fraction)
	if f.RoundUp && float64(h) < float64(n)*f.Fraction {
		h++
	}
	return h
}

// Option installs the fault on a client.
func (f *Unprocessed) Option() func(*dynamodb.Options) {
	mw := middleware.InitializeMiddlewareFunc("tabletest.Unprocessed",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			switch p := in.Parameters.(type) {
			case *dynamodb.BatchWriteItemInput:
				f.rounds.Add(1)
				held, send := map[string][]types.WriteRequest{}, map[string][]types.WriteRequest{}
				left := 0
				for tbl, reqs := range p.RequestItems {
					n := f.held(len(reqs))
					if n > 0 {
						held[tbl] = reqs[:n]
					}
					if n < len(reqs) { // DynamoDB refuses a table with no requests
						send[tbl] = reqs[n:]
					}
					left += len(reqs) - n
				}
				if left == 0 { // nothing to send: all of it comes back
					return middleware.InitializeOutput{Result: &dynamodb.BatchWriteItemOutput{UnprocessedItems: held}}, middleware.Metadata{}, nil
				}
				cp := *p
				cp.RequestItems = send
				in.Parameters = &cp
				out, md, err := next.HandleInitialize(ctx, in)
				if err == nil {
					o := out.Result.(*dynamodb.BatchWriteItemOutput)
					if o.UnprocessedItems == nil {
						o.UnprocessedItems = map[string][]types.WriteRequest{}
					}
					for tbl, reqs := range held {
						o.UnprocessedItems[tbl] = append(o.UnprocessedItems[tbl], reqs...)
					}
				}
				return out, md, err
			case *dynamodb.BatchGetItemInput:
				f.rounds.Add(1)
				held, send := map[string]types.KeysAndAttributes{}, map[string]types.KeysAndAttributes{}
				for tbl, ka := range p.RequestItems {
					n := f.held(len(ka.Keys))
					h, s := ka, ka
					h.Keys, s.Keys = ka.Keys[:n], ka.Keys[n:]
					if n > 0 {
						held[tbl] = h
					}
					if n < len(ka.Keys) { // DynamoDB refuses a table with no keys
						send[tbl] = s
					}
				}
				if len(send) == 0 { // nothing to send: all of it comes back
					return middleware.InitializeOutput{Result: &dynamodb.BatchGetItemOutput{UnprocessedKeys: held}}, middleware.Metadata{}, nil
				}
				cp := *p
				cp.RequestItems = send
				in.Parameters = &cp
				out, md, err := next.HandleInitialize(ctx, in)
				if err == nil {
					o := out.Result.(*dynamodb.BatchGetItemOutput)
					o.UnprocessedKeys = held
				}
				return out, md, err
			}
			return next.HandleInitialize(ctx, in)
		})
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
			return st.Initialize.Add(mw, middleware.After)
		})
	}
}

// ErrNetwork is the error [Errors] returns for Code "" (a dropped
// connection); the SDK retries it like a real one.
var ErrNetwork = errors.New("tabletest: injected: read tcp: connection reset by peer")

// Errors answers the first Times requests of operation Op ("GetItem",
// "BatchWriteItem", ...) with DynamoDB error Code
// ("ProvisionedThroughputExceededException", "ThrottlingException",
// "InternalServerError", ...), or with a network error if Code is "";
// every other request reaches DynamoDB Local. It works at the HTTP layer,
// so the SDK's retryer sees (and retries) the injected errors.
type Errors struct {
	Op    string
	Code  string
	Times int64
	once  sync.Once
	left  atomic.Int64
	seen  atomic.Int64
}

// Calls returns how many requests of Op were made, injected or not.
func (f *Errors) Calls() int64 { return f.seen.Load() }

// Option installs the fault on a client (it replaces the HTTP client).
func (f *Errors) Option() func(*dynamodb.Options) {
	f.once.Do(func() { f.left.Store(f.Times) })
	return func(o *dynamodb.Options) { o.HTTPClient = f }
}

// Do implements the SDK's HTTPClient.
func (f *Errors) Do(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.Header.Get("X-Amz-Target"), "."+f.Op) {
		f.seen.Add(1)
		if f.left.Add(-1) >= 0 {
			if f.Code == "" {
				return nil, ErrNetwork
			}
			body := fmt.Sprintf(`{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":"injected by tabletest"}`, f.Code)
			return &http.Response{StatusCode: 400, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
				Body: io.NopCloser(bytes.NewBufferString(body)), Request: r}, nil
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// StaleQueries answers every Query with the first answer it got: a GSI
// that lags behind the table, as DynamoDB's may and DynamoDB Local's never
// does. Use it to prove code never trusts a stale index entry.
type StaleQueries struct {
	mu    sync.Mutex
	first *dynamodb.QueryOutput
}

// Option installs the fault on a client.
func (f *StaleQueries) Option() func(*dynamodb.Options) {
	mw := middleware.InitializeMiddlewareFunc("tabletest.StaleQueries",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			if _, ok := in.Parameters.(*dynamodb.QueryInput); !ok {
				return next.HandleInitialize(ctx, in)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.first != nil {
				return middleware.InitializeOutput{Result: f.first}, middleware.Metadata{}, nil
			}
			out, md, err := next.HandleInitialize(ctx, in)
			if err == nil {
				f.first = out.Result.(*dynamodb.QueryOutput)
			}
			return out, md, err
		})
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
			return st.Initialize.Add(mw, middleware.After)
		})
	}
}

// TxConflicts cancels the next Left TransactWriteItems with
// TransactionConflict on every action, as DynamoDB does when another
// transaction holds one of the items (DynamoDB Local never does); later
// ones reach DynamoDB Local. Install it as the client's HTTP client
// ([TxConflicts.Option]); Seen counts the transactions sent.
type TxConflicts struct {
	// Left is how many transactions are still to be canceled.
	Left atomic.Int64
	// Seen is how many TransactWriteItems were sent, canceled or not.
	Seen atomic.Int64
}

// Option installs the fault on a client (it replaces the HTTP client).
func (f *TxConflicts) Option() func(*dynamodb.Options) {
	return func(o *dynamodb.Options) { o.HTTPClient = f }
}

// Do implements the SDK's HTTPClient.
func (f *TxConflicts) Do(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.Header.Get("X-Amz-Target"), ".TransactWriteItems") {
		f.Seen.Add(1)
		if f.Left.Add(-1) >= 0 {
			body, _ := io.ReadAll(r.Body)
			actions := strings.Count(string(body), `"TableName"`)
			reasons := strings.Repeat(`{"Code":"TransactionConflict","Message":"conflict"},`, actions)
			js := `{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","Message":"Transaction cancelled","CancellationReasons":[` + strings.TrimSuffix(reasons, ",") + `]}`
			return &http.Response{StatusCode: 400, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
				Body: io.NopCloser(bytes.NewBufferString(js)), Request: r}, nil
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}
