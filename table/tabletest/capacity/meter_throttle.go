package capacity

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// throttleMessage is what DynamoDB says when a partition is hot.
const throttleMessage = "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html"

// touch is one partition a request will use, and how.
type touch struct {
	p     Partition
	arn   string
	write bool
}

// touches returns the partitions of each action of the request (one entry
// per write or point read; a Query has one).
func (p *meterPlan) touches() [][]touch {
	var out [][]touch
	for _, w := range p.writes {
		ts := []touch{{p: w.t.part(w.key), arn: w.t.arn, write: true}}
		if !w.check {
			for gi := range w.t.gsis {
				g := &w.t.gsis[gi]
				if in, gp, _ := w.t.entry(g, w.before); in {
					ts = append(ts, touch{p: gp, arn: g.arn, write: true})
				}
				if w.put {
					if in, gp, _ := w.t.entry(g, w.after); in {
						ts = append(ts, touch{p: gp, arn: g.arn, write: true})
					}
				}
			}
		}
		out = append(out, ts)
	}
	for _, r := range p.reads {
		out = append(out, []touch{{p: r.t.part(r.key), arn: r.t.arn}})
	}
	if p.query != nil {
		arn := p.qt.arn
		if g := p.qt.gsi(p.qpart.Index); g != nil {
			arn = g.arn
		}
		out = append(out, []touch{{p: p.qpart, arn: arn}})
	}
	return out
}

// throttleAttempt counts an attempt and, in throttling mode, returns the
// response DynamoDB would send if the request touches a partition past
// its limit in the current modeled second (nil to send it).
func (m *Meter) throttleAttempt(ctx context.Context, p *meterPlan) *smithyhttp.Response {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent++
	if m.RequestsPerSecond > 0 && m.sent > m.RequestsPerSecond {
		m.window, m.sent = nil, 1
	}
	window := m.window
	call := m.minuteAttempt(ctx, p)
	if call != nil {
		window = m.minute.windows[p.sec]
	}
	if !m.Throttle {
		return nil
	}
	wl, rl := m.WriteLimit, m.ReadLimit
	if wl <= 0 {
		wl = PartitionWriteLimit
	}
	if rl <= 0 {
		rl = PartitionReadLimit
	}
	type reason struct {
		Reason   string `json:"reason"`
		Resource string `json:"resource"`
	}
	var reasons []reason
	hot := make([]bool, 0, 4)
	anyHot := false
	for _, ts := range p.touches() {
		h := false
		for _, t := range ts {
			u := window[t.p]
			over := (t.write && u.Write >= wl) || (!t.write && u.Read >= rl)
			if !over {
				continue
			}
			h = true
			r := "Table"
			if t.p.Index != "" {
				r = "Index"
			}
			if t.write {
				r += "Write"
			} else {
				r += "Read"
			}
			r += "KeyRangeThroughputExceeded"
			reasons = append(reasons, reason{Reason: r, Resource: t.arn})
		}
		hot = append(hot, h)
		anyHot = anyHot || h
	}
	if !anyHot {
		return nil
	}
	m.throttled++
	if call != nil {
		m.minuteThrottled(call, p)
	}
	var body any
	if p.op == "TransactWriteItems" || p.op == "TransactGetItems" {
		type cr struct {
			Code    string `json:"Code"`
			Message string `json:"Message,omitempty"`
		}
		crs := make([]cr, len(hot))
		codes := make([]string, len(hot))
		for i, h := range hot {
			crs[i], codes[i] = cr{Code: "None"}, "None"
			if h {
				crs[i], codes[i] = cr{Code: "ThrottlingError", Message: throttleMessage}, "ThrottlingError"
			}
		}
		body = map[string]any{
			"__type":              "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
			"Message":             "Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(codes, ", ") + "]",
			"CancellationReasons": crs,
		}
	} else {
		body = map[string]any{
			"__type":            "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
			"message":           throttleMessage,
			"ThrottlingReasons": dedupe(reasons),
		}
	}
	b, _ := json.Marshal(body)
	return &smithyhttp.Response{Response: &http.Response{
		StatusCode: 400, Status: "400 Bad Request",
		Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}, "X-Amzn-Requestid": {"tabletest-meter-throttle"}},
		Body:   io.NopCloser(bytes.NewReader(b)), ContentLength: int64(len(b)),
	}}
}

func dedupe[T comparable](in []T) []T {
	seen := map[T]bool{}
	var out []T
	for _, v := range in {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
