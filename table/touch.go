package table

import (
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/singletable/singletable/internal/ddb"
)

// What Def.Touch adds to a patch: the derived fields a Touch writes,
// found once per entity (touchPlan) and encoded per patch (touched), as
// the expression builder takes them ([ddb.Touched]).

// touched returns the attributes an update sets besides the patch's own,
// for Patch and Add to set too, unless p sets them itself: the
// Timestamps' Updated (never Created: a patch is no create), then those
// Def.Touch sets. Which attributes Touch writes is learned once per
// entity (touchPlan); each call then runs Touch on a zero item and encodes
// it once.
func (e *Entity[T]) touched(p Patch) []ddb.Touched {
	if p.NoTouch {
		return nil
	}
	now := e.t.now()
	var all []ddb.Touched
	if ta, ok := e.stampedUpdated(now); ok {
		all = append(all, ta)
	}
	if plan := e.touchPlan(); len(plan) > 0 {
		var v T
		e.def.Touch(&v, now, false)
		if av, err := e.encodeItem(&v); err == nil {
			for _, ta := range plan {
				if val, ok := av[ta.Name]; ok {
					all = append(all, ddb.Touched{Name: ta.Name, Value: val, OnlyNew: ta.OnlyNew})
				}
			}
		}
	}
	var out []ddb.Touched
	for _, ta := range all {
		if _, set := p.Set[ta.Name]; set {
			continue
		}
		if _, add := p.Add[ta.Name]; add || slices.Contains(p.Remove, ta.Name) {
			continue
		}
		if slices.ContainsFunc(out, func(o ddb.Touched) bool { return o.Name == ta.Name }) {
			continue
		}
		out = append(out, ta)
	}
	return out
}

// touchPlan runs Touch twice on a zero item, with two times: attributes it
// rewrites the second time are set on every write; those it fills only
// while empty (a createdAt set "if zero") are set only if absent.
func (e *Entity[T]) touchPlan() []ddb.Touched {
	if e.def.Touch == nil {
		return nil
	}
	e.touchOnce.Do(func() {
		var zero, v T
		base, err := e.encodeItem(&zero)
		if err != nil {
			return
		}
		now := time.Now()
		e.def.Touch(&v, now.Add(-time.Second), false)
		first, err := e.encodeItem(&v)
		if err != nil {
			return
		}
		e.def.Touch(&v, now, false)
		second, err := e.encodeItem(&v)
		if err != nil {
			return
		}
		for _, name := range slices.Sorted(maps.Keys(second)) {
			if old, ok := base[name]; ok && reflect.DeepEqual(old, second[name]) {
				continue // not changed by Touch
			}
			e.touches = append(e.touches, ddb.Touched{Name: name, OnlyNew: reflect.DeepEqual(first[name], second[name])})
		}
	})
	return e.touches
}
