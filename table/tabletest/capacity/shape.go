package capacity

import (
	"regexp"
	"slices"
	"strings"

	"github.com/singletable/singletable/table"
)

// shapeTemplate is one declared partition key template, ready to match.
type shapeTemplate struct {
	table, index string
	shape        string
	re           *regexp.Regexp
	literal      int // literal bytes: the more, the more specific
}

var (
	templateAttr  = regexp.MustCompile(`\{([^}:]+)(:[^}]*)?\}`)
	templateShard = regexp.MustCompile(`#\{[^}:]+:shard([0-9]+)\}`)
)

// Learn makes [Meter.Shape] name the partitions of tables by the key
// templates their entities declare (table.Def Keys and IndexKeys):
// "USER#{userId}" rather than a guessed "USER#{id}". Call it with the
// tables a store was opened on, after the store bound its entities.
func (m *Meter) Learn(tables ...*table.Table) {
	var ts []shapeTemplate
	for _, t := range tables {
		for _, e := range t.Entities() {
			em := e.Model()
			if em.Keys.PK != "" {
				ts = append(ts, newShapeTemplate(t.Name(), "", em.Keys.PK))
			}
			for ix, tpl := range em.Indexes {
				if tpl.PK != "" {
					ts = append(ts, newShapeTemplate(t.Name(), ix, tpl.PK))
				}
			}
		}
	}
	slices.SortStableFunc(ts, func(a, b shapeTemplate) int { return b.literal - a.literal })
	m.mu.Lock()
	defer m.mu.Unlock()
	m.templates = append(m.templates, ts...)
}

func newShapeTemplate(tbl, index, tpl string) shapeTemplate {
	// A shard segment of one shard is left out of the key.
	tpl = templateShard.ReplaceAllStringFunc(tpl, func(seg string) string {
		if templateShard.FindStringSubmatch(seg)[1] == "1" {
			return ""
		}
		return seg
	})
	var re strings.Builder
	re.WriteString("^")
	last, literal := 0, 0
	for _, loc := range templateAttr.FindAllStringIndex(tpl, -1) {
		re.WriteString(regexp.QuoteMeta(tpl[last:loc[0]]))
		literal += loc[0] - last
		re.WriteString("[^#]*")
		last = loc[1]
	}
	re.WriteString(regexp.QuoteMeta(tpl[last:]))
	literal += len(tpl) - last
	re.WriteString("$")
	return shapeTemplate{
		table: tbl, index: index, literal: literal,
		shape: templateAttr.ReplaceAllString(tpl, "{$1}"),
		re:    regexp.MustCompile(re.String()),
	}
}

// Shape names p by its key's shape: "table SRC#{sourceId}", "GSI1
// SCHED#DUE". The key templates learned with [Meter.Learn] come first;
// a key no template matches (a unique guard, a key stated in code) is
// shaped by [KeyShape].
func (m *Meter) Shape(p Partition) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.shapeLocked(p)
}

// shapeLocked is [Meter.Shape] with m.mu held.
func (m *Meter) shapeLocked(p Partition) string {
	for _, t := range m.templates {
		if t.table == p.Table && t.index == p.Index && t.re.MatchString(p.Key) {
			p.Key = t.shape
			return p.String()
		}
	}
	return p.Shape()
}
