package table

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Handler decodes the items of one entity type in a collection query.
// Make one with [Into], or with [Projection.Into] to fetch only some
// fields.
type Handler struct {
	typ    string
	match  func(Key) bool
	decode func(Item) error
	// project, for a handler of [Projection.Into], returns the projection
	// extended with what the entity's keys (and those of index ix) derive
	// from, or why the entity refuses it.
	project func(ix Index) (*projection, error)
}

// Into returns a Handler that decodes items of e's type and passes each to fn.
func Into[T any](e *Entity[T], fn func(T)) Handler {
	return Handler{typ: e.def.Type, match: e.decl.Match, decode: func(raw Item) error {
		v, _, err := e.decode(raw)
		if err != nil {
			return err
		}
		fn(v)
		return nil
	}}
}

// Into is the projection as a [Handler] of [Table.ReadCollection]: like
// [Into], it decodes the items of e's type and passes each to fn, and the
// collection's Query fetches only the projection's fields (and what the
// engine reads: keys, entity type, version, TTL). Each item passed to fn
// is partial ([ReadState.Partial]): a whole-item write refuses it with
// [ErrPartialItem]. Every handler of one ReadCollection projects, or none
// does; the Query fetches the union of their fields.
func (p Projection[T]) Into(e *Entity[T], fn func(T)) Handler {
	return Handler{typ: e.def.Type, match: e.decl.Match,
		decode: func(raw Item) error {
			v, _, err := e.decode(raw)
			if err != nil {
				return err
			}
			e.markPartial(&v)
			fn(v)
			return nil
		},
		project: func(ix Index) (*projection, error) { return e.projectionFor(p.p, []Index{ix}) },
	}
}

// collectionProjection returns the projection the handlers ask of a
// collection's Query on index ix: nil when none projects, the union of
// their fields when all do. A mix, or a projection the query already
// carries (from a List option), is refused: a handler without one would
// get partial items it cannot tell from whole ones.
func collectionProjection(q Query, handlers []Handler) (*projection, error) {
	var out *projection
	for i, h := range handlers {
		if (h.project != nil) != (handlers[0].project != nil) {
			return nil, &ValidationError{Entity: h.typ, Field: "projection", Reason: "every handler of a collection projects (Projection.Into) or none does"}
		}
		if h.project == nil {
			continue
		}
		p, err := h.project(q.Index)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			out = &projection{}
		}
		out.attrs = append(out.attrs, p.attrs...)
	}
	if q.project != nil {
		return nil, &ValidationError{Field: "projection", Reason: "a collection projects by its handlers (Projection.Into), not by a List option"}
	}
	return out, nil
}

// ReadCollection reads one page of an item collection that mixes entity
// types (one Query request) and decodes each item by its entity-type
// attribute with the matching handler (items without that attribute by
// the key shapes the entities declare). An item of a type no handler
// takes is an error, never dropped silently. It returns the cursor of the
// next page ("" if none). Handlers made with [Projection.Into] fetch only
// their fields.
func (t *Table) ReadCollection(ctx context.Context, q Query, handlers ...Handler) (string, error) {
	byType := make(map[string]Handler, len(handlers))
	for _, h := range handlers {
		byType[h.typ] = h
	}
	proj, err := collectionProjection(q, handlers)
	if err != nil {
		return "", opErr("read collection", "", Key{}, err)
	}
	q.project = proj
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
			k := t.c.KeyOf(raw)
			for _, c := range handlers {
				if c.match != nil && c.match(k) {
					h, ok = c, true
					break
				}
			}
		}
		if !ok {
			return "", opErr("read collection", typ, t.c.KeyOf(raw), fmt.Errorf("%w: no handler for entity type %q", ErrUnknownType, typ))
		}
		if err := h.decode(raw); err != nil {
			return "", opErr("read collection", typ, t.c.KeyOf(raw), err)
		}
	}
	return page.Cursor, nil
}
