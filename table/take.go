package table

import (
	"context"

	"github.com/singletable/singletable/internal/keytmpl"
)

// Take consumes the item with key k and returns it, in one conditional
// request: the item is valid once. Of two concurrent Takes exactly one
// gets the item; a missing item, one already taken, one of another entity
// type, or one past its TTL (even if DynamoDB has not removed it yet)
// gives [ErrNotFound]. Use it to consume one-time values such as OAuth
// states or invitation codes. Entities with unique values are refused
// (their guards go with Delete).
//
// On a schema with a TTL attribute, Take is one UpdateItem that ends the
// item's life (its TTL set to now, so every read and write treats it as
// absent at once and DynamoDB's TTL deletes it later) and stamps a write
// token: if the response is lost after DynamoDB applied it, the SDK's
// retry recognises the token and Take still returns the item it consumed.
// Without a TTL attribute it is one conditional DeleteItem, and a lost
// response gives [ErrNotFound] on the retry.
func (e *Entity[T]) Take(ctx context.Context, k Key) (T, error) {
	var zero T
	if e.hasUniques() {
		return zero, opErr("take", e.def.Type, k, &ValidationError{Entity: e.def.Type, Field: "entity", Reason: "has unique values; use Delete"})
	}
	if err := keytmpl.CheckKey(k); err != nil {
		return zero, opErr("take", e.def.Type, k, err)
	}
	raw, err := e.t.c.Take(ctx, e.def.Type, k, e.t.now())
	if err != nil {
		return zero, opErr("take", e.def.Type, k, err)
	}
	v, _, err := e.decode(raw)
	if err != nil {
		return zero, opErr("take", e.def.Type, k, err)
	}
	return v, nil
}
