package feed

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// Amazon DynamoDB Local (3.3.0) writes an empty map in a stream record as
// an attribute value with no type at all, {} instead of {"M":{}} (its
// DynamoDB API, and DynamoDB's streams, write {"M":{}}; an empty list is
// {"L":[]} everywhere). aws-sdk-go-v2's dynamodbstreams client (v1.46.6)
// reads such a value in a map as the value of the attribute before it
// (its decoder reuses one variable across a map's entries), and in a list
// as nil: an item's empty map came back holding the document stored
// before it. [StreamsClient] adds repairEmptyMaps, which rewrites each
// typeless attribute value of a GetRecords response into the empty map it
// stands for before the SDK reads it. A response without "{}" anywhere
// (every response of DynamoDB itself with no empty map) is passed through
// after one scan of its bytes.

// repairEmptyMaps adds the repair to a Streams API client's stack, after
// (inside) the operation's deserializer, so it sees the raw response
// first.
func repairEmptyMaps(stack *middleware.Stack) error {
	return stack.Deserialize.Insert(emptyMapRepair{}, "OperationDeserializer", middleware.After)
}

type emptyMapRepair struct{}

func (emptyMapRepair) ID() string { return "singletable/feed.EmptyMapRepair" }

func (emptyMapRepair) HandleDeserialize(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
	out, md, err := next.HandleDeserialize(ctx, in)
	if err != nil || awsmiddleware.GetOperationName(ctx) != "GetRecords" {
		return out, md, err
	}
	resp, ok := out.RawResponse.(*smithyhttp.Response)
	if !ok || resp.Body == nil || resp.StatusCode != 200 {
		return out, md, err
	}
	body, rerr := io.ReadAll(resp.Body)
	resp.Body.Close()
	if rerr != nil {
		return out, md, fmt.Errorf("feed: read GetRecords response: %w", rerr)
	}
	if fixed, changed, ferr := repairRecords(body); ferr == nil && changed {
		body = fixed
		resp.ContentLength = int64(len(body))
		resp.Header.Del("Content-Length")
		resp.Header.Del("X-Amz-Crc32") // the body is no longer the one DynamoDB Local checksummed
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return out, md, err
}

// repairRecords rewrites the typeless attribute values ({}) of a
// GetRecords response body into empty maps; changed is false (and body
// untouched) when it holds none. A body that is not the JSON it expects
// is left to the SDK.
func repairRecords(body []byte) (_ []byte, changed bool, _ error) {
	if !bytes.Contains(body, []byte("{}")) {
		return body, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // numbers (ApproximateCreationDateTime) keep their spelling
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return body, false, err
	}
	recs, _ := doc["Records"].([]any)
	for _, r := range recs {
		rec, _ := r.(map[string]any)
		d, _ := rec["dynamodb"].(map[string]any)
		for _, part := range []string{"Keys", "NewImage", "OldImage"} {
			if m, ok := d[part].(map[string]any); ok && repairItem(m) {
				changed = true
			}
		}
	}
	if !changed {
		return body, false, nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return body, false, err
	}
	return b.Bytes(), true, nil
}

// repairItem repairs the attribute values of one item (or map value).
func repairItem(m map[string]any) bool {
	changed := false
	for k, v := range m {
		if fixed, ok := repairValue(v); ok {
			m[k], changed = fixed, true
		}
	}
	return changed
}

// repairValue returns the repaired attribute value and true when av was,
// or held, a typeless value.
func repairValue(av any) (any, bool) {
	obj, ok := av.(map[string]any)
	if !ok {
		return av, false
	}
	if len(obj) == 0 {
		return map[string]any{"M": map[string]any{}}, true
	}
	changed := false
	if m, ok := obj["M"].(map[string]any); ok && repairItem(m) {
		changed = true
	}
	if l, ok := obj["L"].([]any); ok {
		for i, e := range l {
			if fixed, ok := repairValue(e); ok {
				l[i], changed = fixed, true
			}
		}
	}
	return obj, changed
}
