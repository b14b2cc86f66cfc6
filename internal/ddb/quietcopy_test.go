package ddb

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
)

// TestWithValuesSharesOnlyWhatNoSendChanges checks the prepared patch's
// action copies: two actions bound from one built patch have their own
// update (so txItems' ReturnValues and each one's values stay apart) and
// share the table name, key, expressions and names; the built action is
// never changed.
func TestWithValuesSharesOnlyWhatNoSendChanges(t *testing.T) {
	t.Parallel()
	c := NewConn(nil, NewSchema("t"), time.Now)
	b := Patch{Update: "SET #f1 = :v1", Cond: "attribute_exists(#pk)", Names: map[string]string{"#f1": "a", "#pk": "PK"},
		Values: Item{":v1": codec.Num(1)}}
	built := c.PatchOp("note", Key{PK: "P", SK: "S"}, b)
	one := built.WithValues(Item{":v1": codec.Num(2)})
	two := built.WithValues(Item{":v1": codec.Num(3)}).WithoutOldItem()
	if one.Update == two.Update || one.Update == built.Update {
		t.Fatal("actions share their update")
	}
	if one.Update.TableName != built.Update.TableName || one.Update.UpdateExpression != built.Update.UpdateExpression {
		t.Error("the table name and expression are built again")
	}
	items, _ := txItems([]Op{one, two})
	if got := items[0].Update.ReturnValuesOnConditionCheckFailure; got != types.ReturnValuesOnConditionCheckFailureAllOld {
		t.Errorf("action 0 returns %q, want ALL_OLD", got)
	}
	if got := items[1].Update.ReturnValuesOnConditionCheckFailure; got != "" {
		t.Errorf("quiet action 1 returns %q, want nothing", got)
	}
	if !codec.Equal(items[0].Update.ExpressionAttributeValues[":v1"], codec.Num(2)) || !codec.Equal(items[1].Update.ExpressionAttributeValues[":v1"], codec.Num(3)) {
		t.Error("values mixed between actions")
	}
	if built.Update.ReturnValuesOnConditionCheckFailure != "" || !codec.Equal(built.Update.ExpressionAttributeValues[":v1"], codec.Num(1)) {
		t.Error("the built action changed")
	}
	if aws.ToString(items[1].Update.ConditionExpression) != "attribute_exists(#pk)" || items[1].Update.Key["PK"] == nil {
		t.Error("the quiet action lost its condition or key")
	}
}

// TestTxItemsQuietCopiesOnlyWhenAsked checks that a quiet action whose
// update already asks for nothing is sent as is (no copy), and one that
// asks for the old item (sent before without WithoutOldItem) is copied:
// the caller's action keeps ALL_OLD.
func TestTxItemsQuietCopiesOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	c := NewConn(nil, NewSchema("t"), time.Now)
	op := c.PatchOp("note", Key{PK: "P", SK: "S"}, Patch{Update: "SET #f1 = :v1", Cond: "attribute_exists(#pk)",
		Names: map[string]string{"#f1": "a", "#pk": "PK"}, Values: Item{":v1": codec.Num(1)}})
	items, _ := txItems([]Op{op.WithoutOldItem()})
	if items[0].Update != op.Update {
		t.Error("a quiet action that asks for nothing was copied")
	}
	items, _ = txItems([]Op{op}) // sent asking for the old item: its update now says ALL_OLD
	if items[0].Update.ReturnValuesOnConditionCheckFailure != types.ReturnValuesOnConditionCheckFailureAllOld {
		t.Fatal("the action does not ask for the old item")
	}
	items, _ = txItems([]Op{op.WithoutOldItem()})
	if items[0].Update == op.Update || items[0].Update.ReturnValuesOnConditionCheckFailure != "" {
		t.Error("a quiet action asking for the old item was not copied without it")
	}
	if op.Update.ReturnValuesOnConditionCheckFailure != types.ReturnValuesOnConditionCheckFailureAllOld {
		t.Error("the caller's action was changed")
	}
}
