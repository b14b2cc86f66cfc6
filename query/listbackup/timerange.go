package listbackup

import (
	"time"

	"github.com/singletable/singletable/table"
)

// TimeRange is an inclusive time range for time-ordered lists. A zero From
// means since the beginning; a zero To means until the end of time.
type TimeRange struct {
	From, To time.Time
}

// Between returns the range [from, to].
func Between(from, to time.Time) TimeRange { return TimeRange{From: from, To: to} }

// cond returns the sort-key condition for keys "{prefix}{timestamp}#..."
// in r, or a *table.ValidationError.
func (r TimeRange) cond(prefix string) (table.SKCond, error) {
	if !r.From.IsZero() && !r.To.IsZero() && r.To.Before(r.From) {
		return table.SKCond{}, table.Invalid("to", "%s is before from %s (reversed range)", r.To.Format(time.RFC3339), r.From.Format(time.RFC3339))
	}
	const top = "\U0010FFFF" // sorts after every key character
	var lo, hi string
	if !r.From.IsZero() {
		s, err := timeKey("from", r.From)
		if err != nil {
			return table.SKCond{}, err
		}
		lo = prefix + s
	}
	if !r.To.IsZero() {
		s, err := timeKey("to", r.To)
		if err != nil {
			return table.SKCond{}, err
		}
		hi = prefix + s + "#" + top // every key at the To instant
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
