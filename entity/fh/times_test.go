package fh_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"
	"github.com/guregu/dynamo/v2"

	"github.com/singletable/singletable/entity/fh"
)

// ISO times are written as JavaScript's toISOString, read from RFC 3339,
// dates and NULL.
func TestISOTimeCodec(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 1, 31, 12, 0, 0, 500_600_000, time.FixedZone("x", 3600))
	av, err := dynamo.Marshal(fh.ISO(at))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("2024-01-31T11:00:00.500Z", av.(*types.AttributeValueMemberS).Value); diff != "" {
		t.Errorf("marshal (-want +got):\n%s", diff)
	}
	for in, want := range map[string]time.Time{
		"2024-01-31T11:00:00.500Z":  time.Date(2024, 1, 31, 11, 0, 0, 500_000_000, time.UTC),
		"2024-01-31T11:00:00Z":      time.Date(2024, 1, 31, 11, 0, 0, 0, time.UTC),
		"2024-01-31T12:00:00+01:00": time.Date(2024, 1, 31, 11, 0, 0, 0, time.UTC),
		"2024-01-31":                time.Date(2024, 1, 31, 0, 0, 0, 0, time.UTC),
	} {
		var got fh.ISOTime
		if err := dynamo.Unmarshal(&types.AttributeValueMemberS{Value: in}, &got); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if !got.Equal(want) {
			t.Errorf("%q read as %v, want %v", in, got, want)
		}
	}
	var null fh.ISOTime
	if err := dynamo.Unmarshal(&types.AttributeValueMemberNULL{Value: true}, &null); err != nil || !null.IsZero() {
		t.Errorf("NULL read as %v, %v", null, err)
	}
	var bad fh.ISOTime
	if err := dynamo.Unmarshal(&types.AttributeValueMemberS{Value: "yesterday"}, &bad); err == nil {
		t.Error("accepted a non-ISO string")
	}
	item, err := dynamo.MarshalItem(fh.Source{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := item["createdAt"]; ok {
		t.Error("a zero ISOTime was written")
	}
	if got := fh.Millis(time.UnixMilli(1700000000123)).Time(); !got.Equal(time.UnixMilli(1700000000123)) {
		t.Errorf("UnixMillis round trip = %v", got)
	}
	if got := fh.UnixSeconds(1700000000).Time(); got.Unix() != 1700000000 {
		t.Errorf("UnixSeconds round trip = %v", got)
	}
}
