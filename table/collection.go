package table

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Handler decodes the items of one entity type in a collection query.
// Make one with [Into].
type Handler struct {
	typ    string
	match  func(Key) bool
	decode func(Item) error
}

// Into returns a Handler that decodes items of e's type and passes each to fn.
func Into[T any](e *Entity[T], fn func(T)) Handler {
	return Handler{typ: e.def.Type, match: e.fn.match, decode: func(raw Item) error {
		v, _, err := e.decode(raw)
		if err != nil {
			return err
		}
		fn(v)
		return nil
	}}
}

// ReadCollection reads one page of an item collection that mixes entity
// types (one Query request) and decodes each item by its entity-type
// attribute with the matching handler (items without that attribute by
// the key shapes the entities declare). An item of a type no handler
// takes is an error, never dropped silently. It returns the cursor of the
// next page ("" if none).
func (t *Table) ReadCollection(ctx context.Context, q Query, handlers ...Handler) (string, error) {
	byType := make(map[string]Handler, len(handlers))
	for _, h := range handlers {
		byType[h.typ] = h
	}
	page, err := t.queryItems(ctx, q, "")
	if err != nil {
		return "", opErr("read collection", "", Key{}, err)
	}
	for _, raw := range page.Items {
		var typ string
		if s, ok := raw[t.schema.TypeAttr].(*types.AttributeValueMemberS); ok {
			typ = s.Value
		}
		h, ok := byType[typ]
		if !ok && typ == "" {
			k := t.keyFromItem(raw)
			for _, c := range handlers {
				if c.match != nil && c.match(k) {
					h, ok = c, true
					break
				}
			}
		}
		if !ok {
			return "", opErr("read collection", typ, t.keyFromItem(raw), fmt.Errorf("%w: no handler for entity type %q", ErrUnknownType, typ))
		}
		if err := h.decode(raw); err != nil {
			return "", opErr("read collection", typ, t.keyFromItem(raw), err)
		}
	}
	return page.Cursor, nil
}
