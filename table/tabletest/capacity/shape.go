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
// "USER#{userId}" rather than a guessed "USER#{id}", and the guards of
// their unique values (table.Def.UniqueOn) "UNIQUE#email#{email}". Call
// it with the tables a store was opened on, after the store bound its
// entities.
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
			for _, u := range em.Unique {
				// "email", or "keyhash=keyHash": the guard's name, then its attribute.
				name, attr, ok := strings.Cut(u, "=")
				if !ok {
					attr = name
				}
				prefix := "UNIQUE#" + name + "#" // then the value, which may hold '#'
				ts = append(ts, shapeTemplate{table: t.Name(), literal: len(prefix), shape: prefix + "{" + attr + "}",
					re: regexp.MustCompile("^" + regexp.QuoteMeta(prefix) + ".+$")})
			}
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.templates = append(m.templates, ts...)
	slices.SortStableFunc(m.templates, func(a, b shapeTemplate) int { return b.literal - a.literal })
}

// shownTransforms are the key transforms a shape keeps, since the
// segment is not the value written out but something made from it: a
// shard number, a path's root, two segments. Other transforms (esc, ts,
// a width) encode the value itself, and the shape names the value only.
var shownTransforms = map[string]bool{"shard": true, "root": true, "split": true}

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
		if strings.HasSuffix(tpl[loc[0]:loc[1]], ":split}") {
			re.WriteString("#[^#]*") // two segments
		}
		last = loc[1]
	}
	re.WriteString(regexp.QuoteMeta(tpl[last:]))
	literal += len(tpl) - last
	re.WriteString("$")
	return shapeTemplate{
		table: tbl, index: index, literal: literal,
		shape: templateAttr.ReplaceAllStringFunc(tpl, func(seg string) string {
			m := templateAttr.FindStringSubmatch(seg)
			if shownTransforms[strings.TrimRight(strings.TrimPrefix(m[2], ":"), "0123456789")] {
				return seg
			}
			return "{" + m[1] + "}"
		}),
		re: regexp.MustCompile(re.String()),
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

// shapeLocked is [Meter.Shape] with m.mu held. A key that templates
// of two entities match alike (as specific, with other names:
// "STATUS#{status}#{userId:shard4}" and
// "STATUS#{status}#{organizationId:shard4}") is named by both, the names
// that differ joined, sorted: "STATUS#{status}#{organizationId/userId:shard4}";
// the key alone cannot tell whose it is.
func (m *Meter) shapeLocked(p Partition) string {
	var shape string
	literal := -1
	for _, t := range m.templates { // the most specific first
		if literal >= 0 && t.literal < literal {
			break
		}
		if t.table != p.Table || t.index != p.Index || !t.re.MatchString(p.Key) {
			continue
		}
		if literal < 0 {
			shape, literal = t.shape, t.literal
			continue
		}
		shape = mergeShapes(shape, t.shape)
	}
	if literal < 0 {
		if name, ok := guardName(p); ok { // a guard of values no entity declares by attribute
			shape = "UNIQUE#" + name + "#{value}"
		} else {
			return p.Shape()
		}
	}
	p.Key = shape
	return p.String()
}

// mergeShapes joins two shapes of one key placeholder by placeholder:
// where the attribute names differ, "{a/b}" (with the transform they
// share). Shapes of another layout are joined whole: "a or b".
func mergeShapes(a, b string) string {
	if a == b {
		return a
	}
	pa, pb := templateAttr.FindAllStringSubmatchIndex(a, -1), templateAttr.FindAllStringSubmatchIndex(b, -1)
	if len(pa) != len(pb) || templateAttr.ReplaceAllString(a, "{}") != templateAttr.ReplaceAllString(b, "{}") {
		return a + " or " + b
	}
	var out strings.Builder
	last := 0
	for i, la := range pa {
		lb := pb[i]
		out.WriteString(a[last:la[0]])
		na, nb := strings.Split(a[la[2]:la[3]], "/"), b[lb[2]:lb[3]]
		if !slices.Contains(na, nb) {
			na = append(na, nb)
			slices.Sort(na) // whatever order the entities were declared in
		}
		tr := ""
		if la[4] >= 0 {
			tr = a[la[4]:la[5]]
		}
		out.WriteString("{" + strings.Join(na, "/") + tr + "}")
		last = la[1]
	}
	out.WriteString(a[last:])
	return out.String()
}

// guardName returns the name of the unique value whose guard p is
// (UNIQUE#{name}#{value} in the table, as the engine writes it).
func guardName(p Partition) (string, bool) {
	rest, ok := strings.CutPrefix(p.Key, "UNIQUE#")
	if !ok || p.Index != "" {
		return "", false
	}
	name, _, ok := strings.Cut(rest, "#")
	return name, ok && name != ""
}
