package tabletest

import (
	"net/http"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// ResponseBytes counts the bytes of the HTTP responses a client receives
// (their Content-Length): what a read returns on the wire, which a
// projection makes smaller while DynamoDB's read units stay those of the
// whole item. Pass its Option to [NewClient]:
//
//	rb := &tabletest.ResponseBytes{}
//	client := tabletest.NewClient(t, rb.Option())
type ResponseBytes struct{ n atomic.Int64 }

// Do sends r with http.DefaultTransport and counts the response's bytes.
func (b *ResponseBytes) Do(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && resp.ContentLength > 0 {
		b.n.Add(resp.ContentLength)
	}
	return resp, err
}

// Option makes the client send its requests through b.
func (b *ResponseBytes) Option() func(*dynamodb.Options) {
	return func(o *dynamodb.Options) { o.HTTPClient = b }
}

// Bytes returns the bytes counted since the last Reset.
func (b *ResponseBytes) Bytes() int64 { return b.n.Load() }

// Reset sets the count to zero.
func (b *ResponseBytes) Reset() { b.n.Store(0) }
