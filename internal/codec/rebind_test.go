package codec

import (
	"maps"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestRebindKeepsAFullSmallMapSmall: rebinding a value of a copy of 8
// prepared values replaces it without growing the copy (a plain
// assignment grows a full small map into a table).
func TestRebindKeepsAFullSmallMapSmall(t *testing.T) {
	prepared := Item{}
	for _, ph := range []string{":a", ":b", ":c", ":d", ":e", ":f", ":g", ":now"} {
		prepared[ph] = Num(1)
	}
	now := Num(2)
	cloneOnly := testing.AllocsPerRun(100, func() { _ = maps.Clone(prepared) })
	rebound := testing.AllocsPerRun(100, func() {
		vals := maps.Clone(prepared)
		Rebind(vals, ":now", now)
	})
	if rebound != cloneOnly {
		t.Errorf("clone and Rebind: %v allocations, the clone alone %v", rebound, cloneOnly)
	}
	vals := maps.Clone(prepared)
	Rebind(vals, ":now", now)
	Rebind(vals, ":new", now)
	if len(vals) != 9 || vals[":now"] != now || vals[":new"] != now || vals[":a"] != prepared[":a"] {
		t.Errorf("after Rebind: %v", vals)
	}
	if n, ok := prepared[":now"].(*types.AttributeValueMemberN); !ok || n.Value != "1" {
		t.Errorf("the prepared values changed: %v", prepared[":now"])
	}
}
