package codec

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Num is the number attribute value of n.
func Num(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// Rebind sets vals[name] to v as a new entry: the old entry, if any, is
// deleted first. Go's maps (1.24 on) grow a full small map (8 entries)
// on any assignment, even one that replaces a value in place: a copy of
// 8 prepared values with one rebound would grow into a table (3 more
// allocations and a rehash) on every send.
func Rebind(vals Item, name string, v types.AttributeValue) {
	delete(vals, name)
	vals[name] = v
}

// ItemSize returns the size DynamoDB counts for item: attribute names plus
// values, per the documented rules (numbers approximated from their digits).
func ItemSize(item Item) int {
	n := 0
	for k, v := range item {
		n += len(k) + Size(v)
	}
	return n
}

// Size is the size DynamoDB counts for attribute value v.
func Size(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return (len(v.Value)+1)/2 + 1
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range v.Value {
			n += (len(s)+1)/2 + 1
		}
		return n
	case *types.AttributeValueMemberBS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + Size(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range v.Value {
			n += 1 + len(k) + Size(e)
		}
		return n
	}
	return 0
}

// Check returns why v cannot be stored as is, or "".
func Check(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		if !utf8.ValidString(v.Value) {
			return "not valid UTF-8 (DynamoDB would store another string)"
		}
	case *types.AttributeValueMemberN:
		return checkNumber(v.Value)
	case *types.AttributeValueMemberSS:
		for _, s := range v.Value {
			if !utf8.ValidString(s) {
				return "a set member is not valid UTF-8"
			}
		}
	case *types.AttributeValueMemberNS:
		for _, n := range v.Value {
			if r := checkNumber(n); r != "" {
				return r
			}
		}
	case *types.AttributeValueMemberL:
		for _, e := range v.Value {
			if r := Check(e); r != "" {
				return r
			}
		}
	case *types.AttributeValueMemberM:
		for k, e := range v.Value {
			if !utf8.ValidString(k) {
				return "a map key is not valid UTF-8"
			}
			if r := Check(e); r != "" {
				return r
			}
		}
	}
	return ""
}

// plainInteger reports whether n is an optional minus sign and 1 to 38
// decimal digits (what an encoded integer is): a number DynamoDB stores,
// checkNumber's answer without its parsing.
func plainInteger(n string) bool {
	d := strings.TrimPrefix(n, "-")
	if d == "" || len(d) > 38 {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// checkNumber returns why DynamoDB would refuse number n, or "".
func checkNumber(n string) string {
	if plainInteger(n) {
		return "" // at most 38 digits: always stored as sent
	}
	return checkParsedNumber(n)
}

// checkParsedNumber is checkNumber from the number's parsed text.
func checkParsedNumber(n string) string {
	f, err := strconv.ParseFloat(n, 64)
	if err != nil {
		var ne *strconv.NumError
		if !errors.As(err, &ne) || ne.Err != strconv.ErrRange {
			return fmt.Sprintf("%q is not a number", n)
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if strings.ContainsAny(n, "Nn") || strings.Contains(n, "Inf") || strings.Contains(n, "inf") {
			return fmt.Sprintf("%s is not a number DynamoDB can store", n)
		}
	}
	// Significant digits and exponent, from the decimal text.
	mant, exp := n, 0
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		mant = n[:i]
		e, err := strconv.Atoi(n[i+1:])
		if err != nil {
			return fmt.Sprintf("%q is not a number", n)
		}
		exp = e
	}
	mant = strings.TrimLeft(mant, "+-")
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return "" // zero
	}
	// Decimal exponent of the leading digit.
	lead := len(strings.TrimLeft(intPart, "0")) - 1 + exp
	if strings.TrimLeft(intPart, "0") == "" {
		lead = -(len(frac) - len(strings.TrimLeft(frac, "0"))) - 1 + exp
	}
	digits = strings.TrimRight(digits, "0")
	switch {
	case len(digits) > 38:
		return fmt.Sprintf("%s has %d significant digits, DynamoDB keeps 38", n, len(digits))
	case lead > 125:
		return fmt.Sprintf("%s is above DynamoDB's largest number (1E+126)", n)
	case lead < -130:
		return fmt.Sprintf("%s is below DynamoDB's smallest magnitude (1E-130)", n)
	}
	return ""
}

// EmptyValue is the stored form of the empty value of attribute name of
// struct v: "" for strings, an empty list or map, false, 0; NULL otherwise.
func EmptyValue(v reflect.Value, name string) types.AttributeValue {
	fi, ok := FieldsOf(v.Type())[name]
	if !ok {
		return &types.AttributeValueMemberNULL{Value: true}
	}
	f, err := v.FieldByIndexErr(fi.Index)
	if err != nil {
		return &types.AttributeValueMemberNULL{Value: true}
	}
	switch f.Kind() {
	case reflect.String:
		return &types.AttributeValueMemberS{Value: ""}
	case reflect.Slice:
		return &types.AttributeValueMemberL{Value: []types.AttributeValue{}}
	case reflect.Map:
		return &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}
	case reflect.Bool:
		return &types.AttributeValueMemberBOOL{Value: false}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return &types.AttributeValueMemberN{Value: "0"}
	}
	return &types.AttributeValueMemberNULL{Value: true}
}

// Equal reports whether two attribute values are equal (sets compared
// as sets).
func Equal(a, b types.AttributeValue) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch a := a.(type) {
	case *types.AttributeValueMemberS:
		b, ok := b.(*types.AttributeValueMemberS)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberN:
		b, ok := b.(*types.AttributeValueMemberN)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberBOOL:
		b, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberSS:
		if b, ok := b.(*types.AttributeValueMemberSS); ok {
			return sameSet(a.Value, b.Value)
		}
		return false
	case *types.AttributeValueMemberNS:
		if b, ok := b.(*types.AttributeValueMemberNS); ok {
			return sameSet(a.Value, b.Value)
		}
		return false
	}
	return reflect.DeepEqual(a, b)
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := make(map[string]bool, len(a))
	for _, s := range a {
		m[s] = true
	}
	for _, s := range b {
		if !m[s] {
			return false
		}
	}
	return true
}

// DerivedTTL is the TTL (Unix seconds) a derived item stores in attr, or
// 0 when it stores none.
func DerivedTTL(d map[string]types.AttributeValue, attr string) int64 {
	if n, ok := d[attr].(*types.AttributeValueMemberN); ok {
		v, _ := strconv.ParseInt(n.Value, 10, 64)
		return v
	}
	return 0
}
