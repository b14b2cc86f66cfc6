package wiretest

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"

	"github.com/singletable/singletable/table"
)

// CheckWrites returns one message per declared write of store (a
// package's *Store) that a user could not find by its app and name, as
// [CheckDeclared] does for patterns: every exported field of an aggregate
// (an exported pointer-to-struct field of store) whose type is a func
// taking a context.Context first must be set and hold a write
// ([table.WriteDef], [table.Table.Writes]) or a unique read
// ([table.UniqueDef], [table.Table.Uniques]) declared on tables with Name
// "pkg.Type.Field" and an ID of the package's prefix; every write and
// unique read declared on tables must be such a field. It returns the
// number of them found so. A declared write opens its call with its ID
// and name by construction, so this is what is left to check.
func CheckWrites(p Package, store any, tables ...*table.Table) (problems []string, declared int) {
	idRE := regexp.MustCompile(`^` + regexp.QuoteMeta(p.Prefix) + `-[0-9]+$`)
	type field struct{ ID, what string }
	writes := map[string]field{} // by Name
	for _, t := range tables {
		for _, w := range t.Writes() {
			writes[w.Name] = field{w.ID, "write"}
		}
		for _, u := range t.Uniques() {
			writes[u.Name] = field{u.ID, "unique read"}
		}
	}
	ctxType := reflect.TypeFor[context.Context]()
	found := map[string]bool{}
	for f := range aggregateFields(store) {
		if !f.IsExported() || f.Type.Kind() != reflect.Func || f.Type.NumIn() == 0 || f.Type.In(0) != ctxType {
			continue
		}
		where := fmt.Sprintf("%s.%s.%s", p.Name, f.Agg.Name(), f.Name)
		found[where] = true
		o, ok := writes[where]
		switch {
		case f.V.IsNil():
			problems = append(problems, where+": declared write field not set")
		case !ok:
			problems = append(problems, where+": no write is declared with its name (table.WriteDef.Name, table.UniqueDef.Name)")
		case !idRE.MatchString(o.ID):
			problems = append(problems, fmt.Sprintf("%s: ID %q is not a %s catalog ID", where, o.ID, p.Prefix))
		default:
			declared++
		}
	}
	for _, name := range slices.Sorted(maps.Keys(writes)) {
		if o := writes[name]; !found[name] {
			problems = append(problems, fmt.Sprintf("%s (%s) is a %s declared on the store's tables but no func field of its aggregates", name, o.ID, o.what))
		}
	}
	return problems, declared
}
