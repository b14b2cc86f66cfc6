package tn_test

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

func TestAccessModeRoundTrip(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"JRWPASDO", "JRWPA", "N", "RW"} {
		m, err := tn.ParseAccessMode(s)
		if err != nil {
			t.Fatalf("ParseAccessMode(%q): %v", s, err)
		}
		if got := m.String(); got != s {
			t.Errorf("ParseAccessMode(%q).String() = %q", s, got)
		}
		av, err := dynamo.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var back tn.AccessMode
		if err := dynamo.Unmarshal(av, &back); err != nil || back != m {
			t.Errorf("dynamo round trip of %q: %v %v", s, back, err)
		}
	}
	if _, err := tn.ParseAccessMode("JRX"); err == nil {
		t.Error("ParseAccessMode(JRX) accepted an unknown bit")
	}
}

func TestEnumsRejectUnknownValues(t *testing.T) {
	t.Parallel()
	if p, err := tn.Platforms.Parse("ios"); err != nil || p != tn.PlatformIOS {
		t.Errorf("Platforms.Parse(ios) = %q, %v", p, err)
	}
	var ve *table.ValidationError
	if _, err := tn.Platforms.Parse("symbian"); !errors.As(err, &ve) || ve.Field != "platform" {
		t.Errorf("Platforms.Parse(symbian): %v", err)
	}
	if tn.AuthLevel(15).Valid() || tn.ObjState(5).Valid() || !tn.LevelRoot.Valid() || !tn.StateDeleted.Valid() {
		t.Error("AuthLevel/ObjState.Valid: an undefined number accepted or a defined one refused")
	}
}

func TestRawJSONStoresNativeTypes(t *testing.T) {
	t.Parallel()
	in := tn.JSON(map[string]any{"fn": "x", "photo": map[string]any{"type": "jpg"}, "n": 3, "l": []any{true, nil}})
	av, err := dynamo.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var back tn.RawJSON
	if err := dynamo.Unmarshal(av, &back); err != nil {
		t.Fatal(err)
	}
	if !back.Equal(in) {
		t.Errorf("round trip: %s != %s", back, in)
	}
	if _, isMap := av.(*types.AttributeValueMemberM); !isMap {
		t.Errorf("RawJSON object stored as %T, want a DynamoDB map", av)
	}
}
