package listbackup

import (
	"maps"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// TimeRange is an inclusive time range for time-ordered lists. A zero From
// means since the beginning; a zero To means until the end of time.
type TimeRange struct {
	From, To time.Time
}

// Between returns the range [from, to].
func Between(from, to time.Time) TimeRange { return TimeRange{From: from, To: to} }

// cond returns the sort-key condition for the keys of template sk in r:
// v sets the references before the time (nil when the time leads, or
// follows only literals), at names the time's attribute. Errors: a
// *table.ValidationError.
func (r TimeRange) cond(sk table.Template, v map[string]string, at string) (table.SKCond, error) {
	if !r.From.IsZero() && !r.To.IsZero() && r.To.Before(r.From) {
		return table.SKCond{}, table.Invalid("to", "%s is before from %s (reversed range)", r.To.Format(time.RFC3339), r.From.Format(time.RFC3339))
	}
	const top = "\U0010FFFF" // sorts after every key character
	prefix, err := sk.SortPrefix(v)
	if err != nil {
		return table.SKCond{}, err
	}
	// with returns v with the time set to t.
	with := func(field string, t time.Time) (map[string]string, error) {
		s, err := lb.TimeValue(field, t)
		if err != nil {
			return nil, err
		}
		w := maps.Clone(v)
		if w == nil {
			w = map[string]string{}
		}
		w[at] = s
		return w, nil
	}
	var lo, hi string
	if !r.From.IsZero() {
		w, err := with("from", r.From)
		if err != nil {
			return table.SKCond{}, err
		}
		if lo, err = sortBound(sk, w); err != nil {
			return table.SKCond{}, err
		}
	}
	if !r.To.IsZero() {
		w, err := with("to", r.To)
		if err != nil {
			return table.SKCond{}, err
		}
		p, err := sk.SortPrefix(w)
		if err != nil {
			return table.SKCond{}, err
		}
		hi = p + top // every key at the To instant
	}
	switch {
	case lo != "" && hi != "":
		return table.SKBetween(lo, hi), nil
	case lo != "" && prefix != "":
		return table.SKBetween(lo, prefix+top), nil
	case lo != "":
		return table.SKGreaterEq(lo), nil
	case hi != "" && prefix != "":
		return table.SKBetween(prefix, hi), nil
	case hi != "":
		return table.SKLessEq(hi), nil
	case prefix != "":
		return table.SKBeginsWith(prefix), nil
	}
	return table.SKCond{}, nil
}
