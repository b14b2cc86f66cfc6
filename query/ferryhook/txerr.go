package ferryhook

import (
	"errors"
	"fmt"

	"github.com/singletable/singletable/table"
)

// txErr turns a canceled transaction whose action idx failed its condition
// into sentinel (naming what), and one whose unique guard was taken into
// table.ErrUniqueViolation, keeping the *table.TxError in the chain.
func txErr(err error, idx int, sentinel error, what string) error {
	var te *table.TxError
	if !errors.As(err, &te) {
		return err
	}
	for _, r := range te.Failed() {
		if r.Code != "ConditionalCheckFailed" {
			continue
		}
		if r.Guard != "" {
			return fmt.Errorf("%w: %w", table.ErrUniqueViolation, err)
		}
		if r.Index == idx {
			return fmt.Errorf("%s: %w: %w", what, sentinel, err)
		}
	}
	return err
}
