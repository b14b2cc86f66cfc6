package codec

import "maps"

// WithEntry returns a copy of m with k set to v (m is left as it is).
func WithEntry(m map[string]any, k string, v any) map[string]any {
	c := make(map[string]any, len(m)+1)
	maps.Copy(c, m)
	c[k] = v
	return c
}

// SetEntry sets k to v in *m, making *m first when it is nil.
func SetEntry(m *map[string]any, k string, v any) {
	if *m == nil {
		*m = map[string]any{}
	}
	(*m)[k] = v
}
