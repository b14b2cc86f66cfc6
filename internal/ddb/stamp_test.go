package ddb

import (
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
)

func TestStampAndDerived(t *testing.T) {
	t.Parallel()
	c := NewConn(nil, NewSchema("t"), time.Now)
	av := Item{}
	exp := time.Unix(2000, 0)
	ix := map[Index]keytmpl.IndexKey{1: {PK: "A", SK: "B"}, 2: {}}
	if err := c.Stamp("note", av, Key{PK: "P", SK: "S"}, 3, ix, exp); err != nil {
		t.Fatal(err)
	}
	d, err := c.Derived(ix, exp)
	if err != nil {
		t.Fatal(err)
	}
	is, _ := c.Schema.GSI(1)
	for attr, want := range map[string]string{"PK": "P", "SK": "S", "_type": "note", is.PK: "A", is.SK: "B"} {
		if s, ok := av[attr].(*types.AttributeValueMemberS); !ok || s.Value != want {
			t.Errorf("%s = %v, want %q", attr, av[attr], want)
		}
	}
	if len(d) != 3 || !codec.Equal(d["ttl"], codec.Num(2000)) || !codec.Equal(av["ttl"], codec.Num(2000)) || !codec.Equal(av["_v"], codec.Num(3)) {
		t.Errorf("derived %v, version %v", d, av["_v"])
	}
	var ve *codec.ValidationError
	if err := c.Stamp("note", Item{}, Key{PK: "P", SK: "S"}, 1, map[Index]keytmpl.IndexKey{1: {PK: "A"}}, time.Time{}); !errors.As(err, &ve) || !ve.Key {
		t.Errorf("an index key without a sort key: %v", err)
	}
	if !StringIs(av, is.PK, "A") || StringIs(av, is.PK, "B") || StringIs(av, "nope", "") {
		t.Error("StringIs")
	}
}

func TestCheckUniques(t *testing.T) {
	t.Parallel()
	u := Unique{Name: "email", Value: "a@x"}
	if err := CheckUniques("e", []Unique{u, {Name: "tag", Value: "a@x"}}); err != nil {
		t.Errorf("distinct values: %v", err)
	}
	for _, us := range [][]Unique{{u, u}, {{Name: "email"}}, {{Name: "a#b", Value: "v"}}} {
		if err := CheckUniques("e", us); !errors.Is(err, codec.ErrInvalidInput) {
			t.Errorf("CheckUniques(%v) = %v, want ErrInvalidInput", us, err)
		}
	}
}
