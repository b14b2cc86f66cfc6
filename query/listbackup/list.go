package listbackup

import (
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
