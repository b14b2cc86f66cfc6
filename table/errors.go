package table

import (
	"errors"
	"fmt"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/keys"
)

// Sentinel errors, matched with [errors.Is]. Every error the package returns
// wraps one of them together with the operation and, where known, the entity
// and key.
var (
	// ErrNotFound: the item does not exist (or is past its TTL).
	ErrNotFound = ddb.ErrNotFound
	// ErrAlreadyExists: a create found an item with the same key.
	ErrAlreadyExists = ddb.ErrAlreadyExists
	// ErrConflict: an optimistic-concurrency check failed (stale version)
	// or a transaction collided with another writer.
	ErrConflict = ddb.ErrConflict
	// ErrUniqueViolation: a unique value (email, tag, key hash) is held by
	// another item. It also matches ErrAlreadyExists.
	ErrUniqueViolation = ddb.ErrUniqueViolation
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
	ErrItemTooLarge = ddb.ErrItemTooLarge
	// ErrTooManyItems: a transaction exceeds 100 actions.
	ErrTooManyItems = ddb.ErrTooManyItems
	// ErrDuplicateItem: one transaction or batch names the same key twice.
	ErrDuplicateItem = ddb.ErrDuplicateItem
	// ErrThrottled: DynamoDB kept throttling after the SDK's retries.
	ErrThrottled = ddb.ErrThrottled
	// ErrConditionFailed: a caller-supplied condition did not hold.
	ErrConditionFailed = ddb.ErrConditionFailed
	// ErrTransactionCanceled: a transaction was canceled; the error is a
	// *[TxError] listing the reason per action.
	ErrTransactionCanceled = ddb.ErrTransactionCanceled
	// ErrIdempotencyMismatch: a transaction repeated an idempotency token
	// (see [IdempotencyToken]) with other actions within ten minutes.
	ErrIdempotencyMismatch = ddb.ErrIdempotencyMismatch
	// ErrUnknownType: a collection query met an item of an entity type
	// it has no handler for.
	ErrUnknownType = errors.New("singletable: unknown entity type")
	// ErrUnprocessed: a batch gave up with items not written or keys not
	// read; the error is a *[BatchError] listing them.
	ErrUnprocessed = ddb.ErrUnprocessed
)

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

// OpError wraps an error with the operation ("get", "create", "update",
// "query", ...), the entity type and the key ("PK/SK") it concerns, where
// known.
type OpError = ddb.OpError

// opErr wraps err in an *[OpError] (nil stays nil).
var opErr = ddb.OpErr
