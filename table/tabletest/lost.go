package tabletest

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// LostResponses lets the first Times requests of operation Op ("PutItem",
// "UpdateItem", "TransactWriteItems", ...) reach DynamoDB Local and be
// applied, then throws the real response away and answers an HTTP 500
// instead (or drops the connection, with Drop): the ambiguous commit of
// production, where DynamoDB wrote and the client saw a failure. The SDK's
// retryer then sends the same request again, as it would against AWS.
// Every other request passes through untouched.
type LostResponses struct {
	Op    string
	Times int64
	Drop  bool
	// After lets the first After requests of Op through untouched.
	After int64
	lost  atomic.Int64
	seen  atomic.Int64
}

// Calls returns how many requests of Op were sent, lost or not.
func (f *LostResponses) Calls() int64 { return f.seen.Load() }

// Lost returns how many responses were thrown away.
func (f *LostResponses) Lost() int64 { return f.lost.Load() }

// Option installs the fault on a client (it replaces the HTTP client).
func (f *LostResponses) Option() func(*dynamodb.Options) {
	return func(o *dynamodb.Options) { o.HTTPClient = f }
}

// Do implements the SDK's HTTPClient.
func (f *LostResponses) Do(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || !strings.HasSuffix(r.Header.Get("X-Amz-Target"), "."+f.Op) {
		return resp, err
	}
	if f.seen.Add(1) <= f.After {
		return resp, nil
	}
	if f.lost.Add(1) > f.Times {
		f.lost.Add(-1)
		return resp, nil
	}
	// The request was applied: read and discard the real answer.
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if f.Drop {
		return nil, ErrNetwork
	}
	body := `{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"injected by tabletest: response lost"}`
	return &http.Response{StatusCode: 500, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body: io.NopCloser(bytes.NewBufferString(body)), Request: r}, nil
}
