package keytmpl

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestBuildAllocatesTheKeyOnly: building a key of plain references and
// literals allocates the joined key and nothing else (the segments are
// gathered on the stack), and a template of more segments than that
// buffer still builds the whole key.
func TestBuildAllocatesTheKeyOnly(t *testing.T) {
	av := Item{"sourceId": &types.AttributeValueMemberS{Value: "src_1"}, "eventId": &types.AttributeValueMemberS{Value: "evt_2"}}
	tmpl, err := Parse("SRC#{sourceId}#EVT#{eventId}")
	if err != nil {
		t.Fatal(err)
	}
	var key string
	if n := testing.AllocsPerRun(100, func() { key, _, _ = tmpl.Build(av) }); n > 1 {
		t.Errorf("Build: %v allocations, want 1 (the key)", n)
	}
	if key != "SRC#src_1#EVT#evt_2" {
		t.Errorf("key %q", key)
	}
	long, err := Parse("A#B#C#D#E#F#G#H#I#{sourceId}#{eventId}")
	if err != nil {
		t.Fatal(err)
	}
	if key, ok, err := long.Build(av); err != nil || !ok || key != "A#B#C#D#E#F#G#H#I#src_1#evt_2" {
		t.Errorf("11 segments: %q %v %v", key, ok, err)
	}
}
