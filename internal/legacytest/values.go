package legacytest

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The attribute values below are the ones ListBackup's Go code writes, as
// aws-sdk-go v1's dynamodbattribute.MarshalMap marshals its structs: an
// empty string is NULL, a time.Time an RFC 3339 string with nanoseconds,
// a number its decimal digits.

// S is the string s, or NULL when s is empty.
func S(s string) types.AttributeValue {
	if s == "" {
		return &types.AttributeValueMemberNULL{Value: true}
	}
	return &types.AttributeValueMemberS{Value: s}
}

// N is the number n.
func N[I int | int64](n I) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: fmt.Sprint(n)}
}

// Bool is the boolean b.
func Bool(b bool) types.AttributeValue { return &types.AttributeValueMemberBOOL{Value: b} }

// Time is t as an RFC 3339 string with nanoseconds, in t's own zone.
func Time(t time.Time) types.AttributeValue { return S(t.Format(time.RFC3339Nano)) }

// M is the map m.
func M(m map[string]types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberM{Value: m}
}

// L is the list of items.
func L(items ...types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberL{Value: items}
}

// Null is NULL (a nil pointer or map without omitempty).
func Null() types.AttributeValue { return &types.AttributeValueMemberNULL{Value: true} }
