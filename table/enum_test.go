package table_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/singletable/singletable/table"
)

type color string

func TestEnums(t *testing.T) {
	t.Parallel()
	if c, err := table.ParseEnum[color]("color", "red", "red", "blue"); err != nil || c != "red" {
		t.Errorf("ParseEnum(red) = %q, %v", c, err)
	}
	_, err := table.ParseEnum[color]("color", "Red", "red", "blue")
	var ve *table.ValidationError
	if !errors.As(err, &ve) || ve.Field != "color" || !strings.Contains(ve.Reason, "red, blue") || !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("ParseEnum(Red): %v", err)
	}
	if err := table.CheckEnum("level", 20, 0, 10, 20); err != nil {
		t.Errorf("CheckEnum(20): %v", err)
	}
	if err := table.CheckEnum("level", 15, 0, 10, 20); !errors.As(err, &ve) || ve.Field != "level" {
		t.Errorf("CheckEnum(15): %v", err)
	}
}
