package codec

import (
	"errors"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type level string

func (l level) Valid() bool { return l == "low" || l == "high" }

type checked struct {
	Level level  `dynamo:"level"`
	Name  string `dynamo:"name"`
}

func TestCheckFieldValue(t *testing.T) {
	t.Parallel()
	rt := reflect.TypeFor[checked]()
	if err := CheckFieldValue(rt, "e", "level", "low"); err != nil {
		t.Errorf("valid value: %v", err)
	}
	var ve *ValidationError
	if err := CheckFieldValue(rt, "e", "level", "mid"); !errors.As(err, &ve) || ve.Field != "level" {
		t.Errorf("invalid value: %v, want a ValidationError on level", err)
	}
	if err := CheckFieldValue(rt, "e", "name", "anything"); err != nil {
		t.Errorf("unchecked field: %v", err)
	}
}

func TestChangeError(t *testing.T) {
	t.Parallel()
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	old, new := Item{"a": s("x"), "b": s("bad")}, Item{"a": s("y"), "b": s("bad")}
	onB := &ValidationError{Field: "b", Reason: "legacy"}
	onA := &ValidationError{Field: "a.sub", Reason: "set now"}
	if err := ChangeError(onB, old, new); err != nil {
		t.Errorf("an error on an unchanged field refused the write: %v", err)
	}
	if err := ChangeError(errors.Join(onB, onA), old, new); err != onA {
		t.Errorf("ChangeError = %v, want the leaf on the changed field", err)
	}
	plain := errors.New("not a validation error")
	if err := ChangeError(errors.Join(onB, plain), old, new); err == nil {
		t.Error("an error that names no field was dropped")
	}
	if ChangeError(nil, old, new) != nil || len(LeafErrors(errors.Join(onA, onB))) != 2 {
		t.Error("nil or LeafErrors")
	}
}
