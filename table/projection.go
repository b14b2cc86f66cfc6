package table

import "errors"

// ErrPartialItem is returned, before any request, by a write that would
// store an item read with a projection ([Project]): a partial item never
// overwrites the whole.
var ErrPartialItem = errors.New("singletable: partial item (read with a projection) cannot be written back")
