package ddb

import (
	"errors"
	"fmt"
)

// What a canceled transaction means (table.TxOp.OnFail): the error its
// first failing action names.

// failure is a canceled transaction explained by the error one of its
// actions carries: it matches both that error and the *TxError.
type failure struct {
	meaning error
	err     error
}

func (e *failure) Error() string   { return e.meaning.Error() + ": " + e.err.Error() }
func (e *failure) Unwrap() []error { return []error{e.meaning, e.err} }

// meaning is the error op's failed condition means: its OnFail error, or
// for a unique guard [ErrUniqueViolation] naming the value; nil if none.
func (o Op) meaning() error {
	switch {
	case o.OnFail != nil:
		return o.OnFail
	case o.Guard.Name != "":
		return fmt.Errorf("%w: %s %q", ErrUniqueViolation, o.Guard.Name, o.Guard.Value)
	}
	return nil
}

// Explain returns err, the error of a transaction of ops, explained: when
// it is a canceled transaction, the first action in request order whose
// condition failed (ConditionalCheckFailed) decides. If that action
// carries a meaning ([Op.OnFail], or a guard's [ErrUniqueViolation]),
// the result wraps it and err (so the *TxError stays in the chain);
// otherwise, and for any other error or a cancellation without a failed
// condition, err is returned as it is. Explaining twice changes nothing.
func Explain(err error, ops []Op) error {
	var te *TxError
	if err == nil || explained(err) || !errors.As(err, &te) {
		return err
	}
	for _, r := range te.Reasons {
		if r.Code != "ConditionalCheckFailed" {
			continue
		}
		if r.Index < len(ops) {
			if m := ops[r.Index].meaning(); m != nil {
				return &failure{meaning: m, err: err}
			}
		}
		return err
	}
	return err
}

// explained reports whether err is a transaction [Explain] explained.
func explained(err error) bool {
	var f *failure
	return errors.As(err, &f)
}
