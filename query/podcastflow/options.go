package podcastflow

import (
	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

// dateRange checks an inclusive date range.
func dateRange(from, to pf.Date) error {
	if err := from.Validate("from"); err != nil {
		return err
	}
	if err := to.Validate("to"); err != nil {
		return err
	}
	if from > to {
		return table.Invalid("to", "%s is before from %s (reversed range)", to, from)
	}
	return nil
}

func consistent() table.ReadOption { return table.Consistent() }
