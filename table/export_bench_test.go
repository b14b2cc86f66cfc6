package table

// DecodeForBench exposes the entity decode path to benchmarks.
func DecodeForBench[T any](raw Item) (T, error) {
	var v T
	err := decodeItem(raw, &v)
	return v, err
}
