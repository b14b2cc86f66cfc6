// Package opstore is parsed, never built, by TestOpForm: store methods in
// the op form, right and wrong.
package opstore

// Put stores a day's metrics (XX-1).
func (s *Usage) Put(ctx context.Context, m *Metrics) error {
	return s.put.Do(ctx, func(ctx context.Context) error { return s.e.Put(ctx, m) })
}

// Increment adds to a day's counters (XX-2).
func (s *Usage) Increment(ctx context.Context, m *Metrics) (Metrics, error) {
	return table.Run(ctx, s.increment, func(ctx context.Context) (Metrics, error) { return s.e.Add(ctx, m) })
}

// Reset runs in another method's op (XX-1).
func (s *Usage) Reset(ctx context.Context) error {
	return s.put.Do(ctx, func(ctx context.Context) error { return nil })
}

// Drop's op is declared with another ID than it cites (XX-3).
func (s *Usage) Drop(ctx context.Context) error {
	return s.drop.Do(ctx, func(ctx context.Context) error { return nil })
}

// Move has no declared op (XX-1).
func (s *Usage) Move(ctx context.Context) error {
	return s.move.Do(ctx, func(ctx context.Context) error { return nil })
}

// Rename's op names another method (XX-1).
func (s *Usage) Rename(ctx context.Context) error {
	return s.rename.Do(ctx, func(ctx context.Context) error { return nil })
}

// All iterates over the days' metrics (XX-2).
func (s *Usage) All(ctx context.Context) iter.Seq2[Metrics, error] {
	return table.RunPages(ctx, s.all, s.e.List)
}
