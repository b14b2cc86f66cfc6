package ddb

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/expr"
)

// Scope is the tenant a write is conditioned on (table.Scoped): the scope
// attribute and its value, so that a failed condition on another tenant's
// item reads as ErrNotFound. A nil *Scope is no tenant.
type Scope struct{ Attr, Value string }

// Holds reports whether raw belongs to the tenant (any item for a nil
// Scope).
func (s *Scope) Holds(raw Item) bool {
	if s == nil {
		return true
	}
	v, isS := raw[s.Attr].(*types.AttributeValueMemberS)
	return isS && v.Value == s.Value
}

// Cond binds the condition "the scope attribute is the tenant" into x.
func (s *Scope) Cond(x expr.Exprs) string {
	x.Names["#scope"] = s.Attr
	x.Values[":scope"] = &types.AttributeValueMemberS{Value: s.Value}
	return "#scope = :scope"
}
