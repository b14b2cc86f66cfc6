package listbackup

import (
	"strings"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// TimeRange is an inclusive time range for time-ordered lists. A zero From
// means since the beginning; a zero To means until the end of time.
type TimeRange struct {
	From, To time.Time
}

// Between returns the range [from, to].
func Between(from, to time.Time) TimeRange { return TimeRange{From: from, To: to} }

// cond returns the sort-key condition for the sort keys in r of an index
// whose sort key begins with the time: prefixAt(t) is the begins_with
// prefix of the keys at instant t ([table.Entity.SortPrefixAt]). Errors: a
// *table.ValidationError.
func (r TimeRange) cond(prefixAt func(time.Time) (string, error)) (table.SKCond, error) {
	if !r.From.IsZero() && !r.To.IsZero() && r.To.Before(r.From) {
		return table.SKCond{}, table.Invalid("to", "%s is before from %s (reversed range)", r.To.Format(time.RFC3339), r.From.Format(time.RFC3339))
	}
	const top = "\U0010FFFF" // sorts after every key character
	var lo, hi string
	if !r.From.IsZero() {
		if err := lb.CheckTime("from", r.From); err != nil {
			return table.SKCond{}, err
		}
		p, err := prefixAt(r.From)
		if err != nil {
			return table.SKCond{}, err
		}
		lo = strings.TrimSuffix(p, keys.Delimiter) // at or below every key of that instant
	}
	if !r.To.IsZero() {
		if err := lb.CheckTime("to", r.To); err != nil {
			return table.SKCond{}, err
		}
		p, err := prefixAt(r.To)
		if err != nil {
			return table.SKCond{}, err
		}
		hi = p + top // every key at the To instant
	}
	switch {
	case lo != "" && hi != "":
		return table.SKBetween(lo, hi), nil
	case lo != "":
		return table.SKGreaterEq(lo), nil
	case hi != "":
		return table.SKLessEq(hi), nil
	}
	return table.SKCond{}, nil
}
