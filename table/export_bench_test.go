package table

import "github.com/singletable/singletable/internal/codec"

// DecodeForBench exposes the entity decode path to benchmarks.
func DecodeForBench[T any](raw Item) (T, error) {
	var v T
	err := codec.DecodeItem(raw, &v)
	return v, err
}
