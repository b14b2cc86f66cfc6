package decl

// ItemValidator returns f, or, when f is nil and *T has a method
// Validate() error, a check calling that method: an entity whose type
// validates itself is validated on every write without saying so in its
// declaration, and cannot forget to.
func ItemValidator[T any](f func(*T) error) func(*T) error {
	if _, ok := any((*T)(nil)).(selfValidator); f != nil || !ok {
		return f
	}
	return func(item *T) error { return any(item).(selfValidator).Validate() }
}
