package table

import (
	"context"
	"iter"
	"reflect"

	"github.com/singletable/singletable/internal/decl"
)

// PatternItem is one item a pattern run by text returned
// ([Table.RunPattern]).
type PatternItem struct {
	// Type is the entity type.
	Type string
	// Key is the item's primary key.
	Key Key
	// Value is the typed item (the entity's Go value, a T), as the
	// pattern's own reads return it. On a table with
	// Options.RedactSecrets its secrets read [Redacted].
	Value any
}

// RunRequest is a declared pattern to run by text ([Table.RunPattern]).
type RunRequest struct {
	// Pattern is the pattern's catalog ID ("PF-12") or its Name
	// ("podcastflow.Users.ByOrganization"); an ID that two patterns share
	// must be given by Name.
	Pattern string
	// Fields are the key fields, by the attribute names the entity's
	// templates use ("userId" -> "u-1"). From.* and To.* fields
	// ("from.date", "to.date") make the run a range read (Between).
	Fields map[string]string
	// Limit stops after this many items (0: the pattern's page size).
	Limit int
}

// patternRun is a declared pattern run by text: what [Table.RunPattern]
// reaches through [PatternInfo].
type patternRun func(ctx context.Context, r RunRequest) iter.Seq2[PatternItem, error]

// RunPattern runs a declared access pattern with its fields given as text
// (singletable query): Get when the pattern reads one item, else every
// page of List (or of Between, with from./to. fields), up to r.Limit
// items, each one traced call of the pattern's ID as its own reads are.
// The fields are checked as the pattern checks them, before any request.
// Open the table with Options.RedactSecrets to never see a secret: the
// items then hold [Redacted] in its place. Errors: a
// *[ValidationError] naming the pattern when no pattern or several match
// r.Pattern, or naming the field that is missing or bad.
func (t *Table) RunPattern(ctx context.Context, r RunRequest) iter.Seq2[PatternItem, error] {
	pats := t.Patterns()
	i, err := decl.Pick(r.Pattern, len(pats), func(i int) (string, string, bool) { return pats[i].ID, pats[i].Name, pats[i].run != nil })
	if err != nil {
		return func(yield func(PatternItem, error) bool) { yield(PatternItem{}, err) }
	}
	return pats[i].run(ctx, r)
}

// runText is the pattern's [patternRun].
func (p *Pattern[T]) runText(ctx context.Context, r RunRequest) iter.Seq2[PatternItem, error] {
	return func(yield func(PatternItem, error) bool) {
		var fields, lo, hi T
		ranged, err := p.e.decl.TextFields(r.Fields, reflect.ValueOf(&fields).Elem(), reflect.ValueOf(&lo).Elem(), reflect.ValueOf(&hi).Elem())
		if err != nil {
			yield(PatternItem{}, err)
			return
		}
		var opts []ListOption
		if r.Limit > 0 {
			opts = append(opts, Limit(min(r.Limit, MaxListLimit)))
		}
		var seq iter.Seq2[T, error]
		switch {
		case ranged:
			seq = p.AllBetween(ctx, lo, hi, opts...)
		case p.def.Reads&ReadOne != 0 && (p.def.Reads&ReadPage == 0 || p.e.Key(fields).Err() == nil):
			seq = func(yield func(T, error) bool) { yield(p.Get(ctx, fields)) }
		default:
			seq = p.All(ctx, fields, opts...)
		}
		n := 0
		for v, err := range seq {
			if err != nil {
				yield(PatternItem{}, err)
				return
			}
			if !yield(p.item(v)) {
				return
			}
			if n++; r.Limit > 0 && n >= r.Limit {
				return
			}
		}
	}
}

// item returns v as a PatternItem.
func (p *Pattern[T]) item(v T) (PatternItem, error) {
	it := PatternItem{Type: p.e.def.Type, Value: v}
	raw, err := p.e.decl.encode(&v)
	if err != nil {
		return it, err
	}
	it.Key, err = p.e.decl.Primary(raw)
	return it, err
}
