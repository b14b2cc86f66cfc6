package ddb

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/singletable/singletable/internal/codec"
)

// The engine's sentinel errors (table's are these values; their
// documentation is there).
var (
	ErrNotFound            = errors.New("singletable: item not found")
	ErrAlreadyExists       = errors.New("singletable: item already exists")
	ErrConflict            = errors.New("singletable: version conflict")
	ErrUniqueViolation     = &uniqueErr{}
	ErrItemTooLarge        = errors.New("singletable: item too large")
	ErrTooManyItems        = errors.New("singletable: too many items")
	ErrDuplicateItem       = errors.New("singletable: duplicate item in request")
	ErrThrottled           = errors.New("singletable: throttled")
	ErrConditionFailed     = errors.New("singletable: condition failed")
	ErrTransactionCanceled = errors.New("singletable: transaction canceled")
	ErrIdempotencyMismatch = errors.New("singletable: idempotency token reused with other content")
	ErrUnprocessed         = errors.New("singletable: unprocessed batch items")
)

type uniqueErr struct{}

func (*uniqueErr) Error() string        { return "singletable: unique value already taken" }
func (*uniqueErr) Is(target error) bool { return target == ErrAlreadyExists }

// OpError wraps an error with the operation, entity and key it concerns.
type OpError struct {
	Op     string // "get", "create", "update", "query", ...
	Entity string // entity type, if known
	Key    string // "PK/SK", if known
	Err    error
}

// Error implements error.
func (e *OpError) Error() string {
	var b strings.Builder
	b.WriteString(e.Op)
	if e.Entity != "" {
		b.WriteString(" " + e.Entity)
	}
	if e.Key != "" {
		b.WriteString(" " + e.Key)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *OpError) Unwrap() error { return e.Err }

// OpErr wraps err (nil stays nil) in an *[OpError] for op on entity's key
// k, and names entity in a *codec.ValidationError that names none.
func OpErr(op, entity string, k Key, err error) error {
	if err == nil {
		return nil
	}
	var ks string
	if k.PK != "" {
		ks = k.PK + "/" + k.SK
	}
	var ve *codec.ValidationError
	if errors.As(err, &ve) && ve.Entity == "" && entity != "" {
		ve.Entity = entity
	}
	return &OpError{Op: op, Entity: entity, Key: ks, Err: err}
}

// MapErr turns SDK errors into the sentinels, keeping the cause.
func MapErr(err error) error {
	var ccf *types.ConditionalCheckFailedException
	var tce *types.TransactionCanceledException
	var thr *types.ProvisionedThroughputExceededException
	var rle *types.RequestLimitExceeded
	var tcf *types.TransactionConflictException
	var ipm *types.IdempotentParameterMismatchException
	var ae smithy.APIError
	switch {
	case errors.As(err, &ccf):
		return fmt.Errorf("%w: %w", ErrConditionFailed, err)
	case errors.As(err, &tce):
		return newTxError(tce)
	case errors.As(err, &thr), errors.As(err, &rle):
		return fmt.Errorf("%w: %w", ErrThrottled, err)
	case errors.As(err, &ipm):
		return fmt.Errorf("%w: %w", ErrIdempotencyMismatch, err)
	case errors.As(err, &tcf):
		return fmt.Errorf("%w: %w", ErrConflict, err)
	case errors.As(err, &ae) && (ae.ErrorCode() == "ThrottlingException" || ae.ErrorCode() == "ThrottlingError"):
		return fmt.Errorf("%w: %w", ErrThrottled, err)
	}
	return err
}

// outcomeUnknown reports whether a failed request may have been applied:
// anything but an error DynamoDB answered as the client's fault (a
// validation error, a missing table) or throttling.
func outcomeUnknown(err error) bool {
	if errors.Is(err, ErrThrottled) {
		return false
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorFault() != smithy.FaultClient
	}
	return true
}
