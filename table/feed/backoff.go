package feed

import (
	"context"
	"errors"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/singletable/singletable/internal/retry"
)

// throttleCodes are the error codes of DynamoDB and its Streams API that
// mean "too fast": LimitExceededException (the Streams API's, GetRecords
// and DescribeStream), ProvisionedThroughputExceededException,
// ThrottlingException and RequestLimitExceeded.
var throttleCodes = map[string]bool{
	"LimitExceededException":                 true,
	"ProvisionedThroughputExceededException": true,
	"ThrottlingException":                    true,
	"Throttling":                             true,
	"RequestLimitExceeded":                   true,
}

// transient says whether err is worth retrying with backoff: throttling,
// a server error (HTTP 5xx, InternalServerError), or a failure that is no
// answer of the service at all (a connection reset, a timeout of the
// request). An answer that refuses the request (validation, access,
// a missing stream or table, a failed condition) is not, nor is the end
// of ctx.
func transient(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return false
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		if throttleCodes[ae.ErrorCode()] || ae.ErrorCode() == "InternalServerError" || ae.ErrorCode() == "ServiceUnavailable" {
			return true
		}
		var re *smithyhttp.ResponseError
		return errors.As(err, &re) && re.HTTPStatusCode() >= 500
	}
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode() >= 500 || re.HTTPStatusCode() == 429
	}
	return !errors.Is(err, context.DeadlineExceeded)
}

// isCode says whether err is the service's answer with code.
func isCode(err error, code string) bool {
	var ae smithy.APIError
	return errors.As(err, &ae) && ae.ErrorCode() == code
}

// retry calls f until it succeeds, fails with an error that is not
// transient, or ctx ends, waiting a capped, jittered exponential backoff
// between attempts (Consumer.Backoff doubling up to MaxBackoff). The SDK's
// own retryer has already retried each call a few times; this loop is the
// consumer's patience beyond it.
func (c *Consumer) retry(ctx context.Context, what string, f func() error) error {
	for attempt := 0; ; attempt++ {
		err := f()
		if !transient(ctx, err) {
			return err
		}
		c.retries.Add(1)
		c.logger().Debug("feed: retrying", "consumer", c.Name, "call", what, "attempt", attempt+1, "err", err)
		if werr := c.wait(ctx, attempt); werr != nil {
			return err
		}
	}
}

// wait sleeps the backoff of retry number attempt, or until ctx ends.
func (c *Consumer) wait(ctx context.Context, attempt int) error {
	return retry.Wait(ctx, attempt, c.backoff(), c.maxBackoff())
}
