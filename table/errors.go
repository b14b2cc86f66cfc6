package table

import (
	"errors"
	"fmt"
	"strings"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/keys"
)

// Sentinel errors, matched with [errors.Is]. Every error the package returns
// wraps one of them together with the operation and, where known, the entity
// and key.
var (
	// ErrNotFound: the item does not exist (or is past its TTL).
	ErrNotFound = errors.New("singletable: item not found")
	// ErrAlreadyExists: a create found an item with the same key.
	ErrAlreadyExists = errors.New("singletable: item already exists")
	// ErrConflict: an optimistic-concurrency check failed (stale version)
	// or a transaction collided with another writer.
	ErrConflict = errors.New("singletable: version conflict")
	// ErrUniqueViolation: a unique value (email, tag, key hash) is held by
	// another item. It also matches ErrAlreadyExists.
	ErrUniqueViolation = &uniqueErr{}
	// ErrInvalidKey: a key or key segment is malformed.
	// It is the same value as keys.ErrInvalidKey.
	ErrInvalidKey = keys.ErrInvalidKey
	// ErrInvalidInput: an item or request failed validation before any
	// request was sent.
	ErrInvalidInput = codec.ErrInvalidInput
	// ErrInvalidCursor: a pagination cursor is malformed, tampered with, or
	// belongs to another access pattern or partition.
	ErrInvalidCursor = ddb.ErrInvalidCursor
	// ErrItemTooLarge: an item exceeds DynamoDB's 400 KB limit.
	ErrItemTooLarge = errors.New("singletable: item too large")
	// ErrTooManyItems: a transaction exceeds 100 actions.
	ErrTooManyItems = errors.New("singletable: too many items")
	// ErrDuplicateItem: one transaction or batch names the same key twice.
	ErrDuplicateItem = errors.New("singletable: duplicate item in request")
	// ErrThrottled: DynamoDB kept throttling after the SDK's retries.
	ErrThrottled = errors.New("singletable: throttled")
	// ErrConditionFailed: a caller-supplied condition did not hold.
	ErrConditionFailed = errors.New("singletable: condition failed")
	// ErrTransactionCanceled: a transaction was canceled; the error is a
	// *[TxError] listing the reason per action.
	ErrTransactionCanceled = errors.New("singletable: transaction canceled")
	// ErrIdempotencyMismatch: a transaction repeated an idempotency token
	// (see [IdempotencyToken]) with other actions within ten minutes.
	ErrIdempotencyMismatch = errors.New("singletable: idempotency token reused with other content")
	// ErrUnknownType: a collection query met an item of an entity type
	// it has no handler for.
	ErrUnknownType = errors.New("singletable: unknown entity type")
	// ErrUnprocessed: a batch gave up with items not written or keys not
	// read; the error is a *[BatchError] listing them.
	ErrUnprocessed = errors.New("singletable: unprocessed batch items")
)

type uniqueErr struct{}

func (*uniqueErr) Error() string        { return "singletable: unique value already taken" }
func (*uniqueErr) Is(target error) bool { return target == ErrAlreadyExists }

// ValidationError reports bad input: which field, and why. It matches
// [ErrInvalidInput] (and [ErrInvalidKey] when Key is set). Entity is the
// entity type when known; Field names the offending field or key segment;
// Reason says what is wrong with it; Key is true when the field is part
// of a key. Unknown is true when the field holds a value its enumeration
// does not list ([ParseEnum], [CheckEnum]); Value is that value and
// Allowed the list. A write refuses it; [Entity.Import] keeps it, since
// the source holds it (see [KeptValue]).
type ValidationError = codec.ValidationError

// Invalid returns a *[ValidationError] for field with the reason formatted
// from format and args.
func Invalid(field, format string, args ...any) error {
	return &ValidationError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

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

func opErr(op, entity string, k Key, err error) error {
	if err == nil {
		return nil
	}
	var ks string
	if k.PK != "" {
		ks = k.PK + "/" + k.SK
	}
	var ve *ValidationError
	if errors.As(err, &ve) && ve.Entity == "" && entity != "" {
		ve.Entity = entity
	}
	return &OpError{Op: op, Entity: entity, Key: ks, Err: err}
}
