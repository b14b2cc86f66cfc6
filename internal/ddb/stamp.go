package ddb

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
	"github.com/singletable/singletable/keys"
)

// Stamp adds to av, an item of entity encoded for a write, the table's
// own attributes: the primary key k, the entity type, the version, and
// the derived ones ([Conn.Derived], written straight into av): the index
// keys ix (each checked as a key value; an empty partition key leaves the
// index out) and the TTL exp (zero: none).
func (c *Conn) Stamp(entity string, av Item, k Key, version int64, ix map[Index]keytmpl.IndexKey, exp time.Time) error {
	s := c.Schema
	av[s.PK] = &types.AttributeValueMemberS{Value: k.PK}
	av[s.SK] = &types.AttributeValueMemberS{Value: k.SK}
	if s.TypeAttr != "" {
		av[s.TypeAttr] = &types.AttributeValueMemberS{Value: entity}
	}
	if s.VersionAttr != "" {
		av[s.VersionAttr] = codec.Num(version)
	}
	for i, ik := range ix {
		is, err := s.GSI(i)
		if err != nil {
			return err
		}
		if ik.PK == "" {
			continue
		}
		if ik.SK == "" {
			return &codec.ValidationError{Entity: entity, Field: is.SK, Reason: "empty sort key for a non-empty index partition key", Key: true}
		}
		if err := keytmpl.CheckKeyValue(is.PK, ik.PK, keys.MaxPKBytes); err != nil {
			return err
		}
		if err := keytmpl.CheckKeyValue(is.SK, ik.SK, keys.MaxSKBytes); err != nil {
			return err
		}
	}
	return c.putDerived(av, ix, exp)
}

// Derived returns the attributes of the index keys ix (an empty partition
// key leaves the index out) and of the TTL exp (zero, or a table without
// a TTL attribute: none).
func (c *Conn) Derived(ix map[Index]keytmpl.IndexKey, exp time.Time) (Item, error) {
	out := Item{}
	return out, c.putDerived(out, ix, exp)
}

// putDerived writes the attributes [Conn.Derived] returns into dst.
func (c *Conn) putDerived(dst Item, ix map[Index]keytmpl.IndexKey, exp time.Time) error {
	s := c.Schema
	for i, ik := range ix {
		is, err := s.GSI(i)
		if err != nil {
			return err
		}
		if ik.PK == "" {
			continue
		}
		dst[is.PK] = &types.AttributeValueMemberS{Value: ik.PK}
		dst[is.SK] = &types.AttributeValueMemberS{Value: ik.SK}
	}
	if !exp.IsZero() && s.TTLAttr != "" {
		dst[s.TTLAttr] = codec.Num(exp.Unix())
	}
	return nil
}

// CheckUniques checks an item's unique values: each valid
// ([CheckUnique]) and listed once.
func CheckUniques(entity string, us []Unique) error {
	seen := map[Unique]bool{}
	for _, u := range us {
		if u.Name == "" || u.Value == "" {
			return &codec.ValidationError{Entity: entity, Field: "unique " + u.Name, Reason: "empty unique value"}
		}
		if err := CheckUnique(u); err != nil {
			return err
		}
		if seen[u] {
			return &codec.ValidationError{Entity: entity, Field: "unique " + u.Name, Reason: fmt.Sprintf("value %q listed twice", u.Value)}
		}
		seen[u] = true
	}
	return nil
}
