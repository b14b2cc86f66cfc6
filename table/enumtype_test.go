package table_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/singletable/singletable/table"
)

type hue string

const (
	hueRed  hue = "red"
	hueBlue hue = "blue"
)

var hues = table.NewEnum("color", hueRed, hueBlue)

// Issue 42: one generic enumeration type gives the values, the check and
// the parse that each enumeration used to write by hand.
func TestEnum(t *testing.T) {
	if got := hues.Values(); !slices.Equal(got, []hue{hueRed, hueBlue}) {
		t.Errorf("Values = %v", got)
	}
	vs := hues.Values()
	vs[0] = "green" // a copy: the enumeration does not change
	if !hues.Valid(hueRed) || hues.Valid("green") {
		t.Errorf("Valid(hueRed) %v, Valid(green) %v", hues.Valid(hueRed), hues.Valid("green"))
	}
	if c, err := hues.Parse("blue"); err != nil || c != hueBlue {
		t.Errorf("Parse(hueBlue) = %q, %v", c, err)
	}
	for _, err := range []error{second(hues.Parse("Blue")), hues.Check("green")} {
		var ve *table.ValidationError
		if !errors.As(err, &ve) || ve.Field != "color" || !ve.Unknown || !slices.Equal(ve.Allowed, []string{"red", "blue"}) ||
			!errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("err = %#v, want an unknown-value ValidationError on color listing hueRed, hueBlue", err)
		}
	}
	var ve *table.ValidationError
	if err := hues.CheckField("defaultColor", "green"); !errors.As(err, &ve) || ve.Field != "defaultColor" || ve.Value != "green" {
		t.Errorf("CheckField = %#v", err)
	}
	if hues.Check(hueRed) != nil || hues.Field() != "color" {
		t.Errorf("Check(hueRed) %v, Field %q", hues.Check(hueRed), hues.Field())
	}
}

func second[A any](_ A, err error) error { return err }

func ExampleEnum() {
	type Plan string
	plans := table.NewEnum("plan", Plan("starter"), Plan("pro"))
	_, err := plans.Parse("free")
	fmt.Println(plans.Values(), plans.Valid("pro"))
	fmt.Println(err)
	// Output:
	// [starter pro] true
	// singletable: invalid plan: unknown value "free" (want one of starter, pro)
}
