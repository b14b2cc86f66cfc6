package tabletest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	"github.com/google/go-cmp/cmp"
)

// RequestLog records what each Query and GetItem a client sends asks for,
// one line per request in a canonical text (index, key condition, filter,
// projection, limit, direction, consistency, the expression names and
// values sorted, the start key's size), labelled by the last [RequestLog.Mark].
// The lines of one label are sorted: the requests of one call may run
// concurrently (a sharded read's), so their order is not part of it.
// Compared with [Golden], it proves that a rewritten read sends the same
// request byte for byte: what a request-count test cannot see.
type RequestLog struct {
	mu    sync.Mutex
	label string
	lines [][2]string // label, text
}

// Mark labels the requests sent from now on.
func (l *RequestLog) Mark(label string) {
	l.mu.Lock()
	l.label = label
	l.mu.Unlock()
}

// Note adds a line of its own (an error a call returned, for instance).
func (l *RequestLog) Note(line string) {
	l.mu.Lock()
	l.lines = append(l.lines, [2]string{l.label, line})
	l.mu.Unlock()
}

// String returns the lines, each ended by a newline.
func (l *RequestLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out, group []string
	for i, ln := range l.lines {
		group = append(group, ln[0]+": "+ln[1])
		if i == len(l.lines)-1 || l.lines[i+1][0] != ln[0] {
			sort.Strings(group)
			out, group = append(out, group...), nil
		}
	}
	return strings.Join(out, "\n") + "\n"
}

// Option installs the log on a client; it sees the parameters as the
// library passes them, before the SDK's own middleware.
func (l *RequestLog) Option() func(*dynamodb.Options) {
	mw := middleware.InitializeMiddlewareFunc("tabletest.RequestLog",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			l.Note(requestLine(in.Parameters))
			return next.HandleInitialize(ctx, in)
		})
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error { return st.Initialize.Add(mw, middleware.Before) })
	}
}

// requestLine is one request in the log's text.
func requestLine(params any) string {
	var b strings.Builder
	exprs := func(names map[string]string, values map[string]types.AttributeValue) {
		var kv []string
		for k, v := range names {
			kv = append(kv, k+"="+v)
		}
		for k, v := range values {
			kv = append(kv, k+"="+avText(v))
		}
		sort.Strings(kv)
		fmt.Fprintf(&b, " %v", kv)
	}
	switch q := params.(type) {
	case *dynamodb.QueryInput:
		fmt.Fprintf(&b, "Query index=%s kc=%q filter=%q proj=%q", text(q.IndexName), text(q.KeyConditionExpression), text(q.FilterExpression), text(q.ProjectionExpression))
		if q.Limit != nil {
			fmt.Fprintf(&b, " limit=%d", *q.Limit)
		}
		if q.ScanIndexForward != nil {
			fmt.Fprintf(&b, " fwd=%v", *q.ScanIndexForward)
		}
		if q.ConsistentRead != nil {
			fmt.Fprintf(&b, " consistent=%v", *q.ConsistentRead)
		}
		exprs(q.ExpressionAttributeNames, q.ExpressionAttributeValues)
		fmt.Fprintf(&b, " esk=%d sel=%s", len(q.ExclusiveStartKey), q.Select)
	case *dynamodb.GetItemInput:
		var key []string
		for k, v := range q.Key {
			key = append(key, k+"="+avText(v))
		}
		sort.Strings(key)
		fmt.Fprintf(&b, "GetItem key=%v proj=%q", key, text(q.ProjectionExpression))
		if q.ConsistentRead != nil {
			fmt.Fprintf(&b, " consistent=%v", *q.ConsistentRead)
		}
		exprs(q.ExpressionAttributeNames, nil)
	default:
		fmt.Fprintf(&b, "%T", params)
	}
	return b.String()
}

func avText(v types.AttributeValue) string {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return "S:" + x.Value
	case *types.AttributeValueMemberN:
		return "N:" + x.Value
	}
	return fmt.Sprintf("%T", v)
}

func text(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// Golden compares got with testdata/name.golden, or writes it there when
// [UpdateGoldenEnv] is 1.
func Golden(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if os.Getenv(UpdateGoldenEnv) == "1" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (write it with %s=1)", err, UpdateGoldenEnv)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s changed (-want +got):\n%s", path, diff)
	}
}
