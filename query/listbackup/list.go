package listbackup

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/table"
)

// Errors of the ListBackup patterns, beyond the table sentinels.
var (
	// ErrTokenReused: a refresh token that was already rotated was
	// presented again (LB-37); its whole family has been revoked. It
	// matches table.ErrConflict.
	ErrTokenReused = fmt.Errorf("listbackup: refresh token reused, family revoked: %w", table.ErrConflict)
	// ErrTokenRevoked: the refresh token was revoked.
	ErrTokenRevoked = errors.New("listbackup: refresh token revoked")
	// ErrKeyInactive: the API key is revoked or expired (LB-52).
	ErrKeyInactive = errors.New("listbackup: API key revoked or expired")
)

// getOne returns the single item of a GSI lookup partition, or
// table.ErrNotFound.
func getOne[T any](ctx context.Context, e *table.Entity[T], q table.Query, what string) (T, error) {
	var zero T
	q.Limit = 1
	p, err := e.Query(ctx, q)
	if err != nil {
		return zero, err
	}
	if len(p.Items) == 0 {
		return zero, fmt.Errorf("%s: %w", what, table.ErrNotFound)
	}
	return p.Items[0], nil
}
