package job

import (
	"strings"

	"github.com/singletable/singletable/internal/counter"
	"github.com/singletable/singletable/internal/ddb"
)

// The engine's own items on a table beside the entities' (table.Classify):
// unique guards, counter shards and rollups, job checkpoints and change
// feeds' checkpoints, by their entity-type value or, written without one,
// by their key's shape.
const (
	// FeedType is the entity-type value of a change feed's checkpoint
	// items (table.FeedType).
	FeedType = "_feed"
	// FeedPrefix starts their partition key: _FEED#{name}
	// (table.FeedPrefix).
	FeedPrefix = "_FEED#"
	// Type is the entity-type value of a job's checkpoint items.
	Type = "_job"
)

// LibraryType reports whether typ is the entity-type value of one of the
// engine's own items.
func LibraryType(typ string) bool {
	return typ == ddb.GuardType || typ == counter.Type || typ == Type || typ == FeedType
}

// LibraryKind returns the entity-type value of the engine's own item a key
// (pk, sk) without an entity-type attribute has by its shape, or "".
func LibraryKind(pk, sk string) string {
	switch {
	case strings.HasPrefix(pk, "UNIQUE#") && sk == "UNIQUE",
		strings.HasPrefix(pk, "SHARED#") && strings.HasPrefix(sk, "HOLDER#"):
		return ddb.GuardType
	case strings.HasPrefix(pk, counter.Prefix):
		return counter.Type
	case strings.HasPrefix(pk, Prefix):
		return Type
	case strings.HasPrefix(pk, FeedPrefix):
		return FeedType
	}
	return ""
}
