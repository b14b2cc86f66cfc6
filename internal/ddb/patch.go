package ddb

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/expr"
	"github.com/singletable/singletable/internal/keytmpl"
	"github.com/singletable/singletable/keys"
)

// PatchSpec is a patch (table.Patch) as the entity layer hands it to the
// expression builder: the values Set encoded as Create stores them, the
// index keys the patch moves, the attributes Def.Timestamps and Def.Touch
// add, and the entity's own checks of a field name and value.
type PatchSpec struct {
	Entity                                string
	Set, SetIfAbsent, IfEqual, IfNotEqual map[string]any
	Add                                   map[string]int64
	Remove, IfAbsent                      []string
	IfVersion                             *int64
	// Enc is Set encoded; Moves the index keys that move with it.
	Enc   Item
	Moves map[Index]keytmpl.IndexKey
	// Touched are the attributes the write stamps besides the patch's own.
	Touched []Touched
	// Token stamps a write token.
	Token bool
	// CheckName refuses a field the entity does not let a patch write
	// (after the table's own attributes, refused here); CheckValue a value
	// its field's type refuses; CheckCond a field a condition names.
	CheckName  func(field string) error
	CheckValue func(field string, v any) error
	CheckCond  func(field string) error
	// Encode encodes values as Create stores them.
	Encode func(map[string]any) (Item, error)
}

// Touched is an attribute a write stamps besides what a patch sets.
type Touched struct {
	Name    string
	Value   types.AttributeValue
	OnlyNew bool // set only if absent
}

// Patch is a patch's UpdateItem: its expressions, placeholders and write
// token. SetPH and TouchPH name the value placeholder of each Set field
// stored (not removed) and of each touched attribute; Moves says the
// patch moves index keys (their values derive from Set values). A
// prepared patch rebinds these.
type Patch struct {
	Update, Cond   string
	Names          map[string]string
	Values         map[string]types.AttributeValue
	Token          string
	SetPH, TouchPH map[string]string
	Moves          bool
}

// BuildPatch builds the UpdateItem of p: SET, ADD and REMOVE clauses and
// the condition that the item is live, of p.Entity's type, at p.IfVersion
// and as p's conditions ask; every write advances the version.
func (c *Conn) BuildPatch(p PatchSpec) (Patch, error) {
	s := c.Schema
	reserved := []string{s.PK, s.SK, s.TypeAttr, s.VersionAttr, s.TokenAttr}
	for _, ix := range s.Indexes {
		reserved = append(reserved, ix.PK, ix.SK)
	}
	x := expr.New()
	x.Names["#v"] = s.VersionAttr
	x.Values[":one"] = codec.Num(1)
	b := Patch{Names: x.Names, Values: x.Values, SetPH: map[string]string{}, TouchPH: map[string]string{}}
	n := 0
	var sets, adds, removes, conds []string
	enc, moves := p.Enc, p.Moves
	b.Moves = len(moves) > 0
	for _, ix := range slices.Sorted(maps.Keys(moves)) {
		is, _ := s.GSI(ix)
		ik := moves[ix]
		n++
		pp, sp := "#x"+strconv.Itoa(n), "#y"+strconv.Itoa(n)
		b.Names[pp], b.Names[sp] = is.PK, is.SK
		if ik.PK == "" {
			removes = append(removes, pp, sp)
			continue
		}
		if err := keytmpl.CheckKeyValue(is.PK, ik.PK, keys.MaxPKBytes); err != nil {
			return b, err
		}
		if err := keytmpl.CheckKeyValue(is.SK, ik.SK, keys.MaxSKBytes); err != nil {
			return b, err
		}
		b.Values[":x"+strconv.Itoa(n)] = &types.AttributeValueMemberS{Value: ik.PK}
		b.Values[":y"+strconv.Itoa(n)] = &types.AttributeValueMemberS{Value: ik.SK}
		sets = append(sets, pp+" = :x"+strconv.Itoa(n), sp+" = :y"+strconv.Itoa(n))
	}
	name := func(field string) (string, error) {
		if field == "" || strings.ContainsAny(field, ".[]") {
			return "", &codec.ValidationError{Entity: p.Entity, Field: field, Reason: "not a top-level attribute name"}
		}
		if slices.Contains(reserved, field) {
			return "", &codec.ValidationError{Entity: p.Entity, Field: field, Reason: "a key or table attribute; use Update"}
		}
		if err := p.CheckName(field); err != nil {
			return "", err
		}
		n++
		ph := "#f" + strconv.Itoa(n)
		b.Names[ph] = field
		return ph, nil
	}
	value := func(v any) (string, error) {
		av, err := dynamo.Marshal(v)
		if err != nil {
			return "", err
		}
		n++
		ph := ":v" + strconv.Itoa(n)
		if av == nil {
			return "", fmt.Errorf("empty value")
		}
		if r := codec.Check(av); r != "" {
			return "", errors.New(r)
		}
		b.Values[ph] = av
		return ph, nil
	}
	for _, f := range slices.Sorted(maps.Keys(p.Set)) {
		nm, err := name(f)
		if err != nil {
			return b, err
		}
		if err := p.CheckValue(f, p.Set[f]); err != nil {
			return b, err
		}
		av, ok := enc[f]
		if !ok {
			removes = append(removes, nm) // Create stores nothing for this value (empty, an empty set)
			continue
		}
		if r := codec.Check(av); r != "" {
			return b, &codec.ValidationError{Entity: p.Entity, Field: f, Reason: "cannot set: " + r}
		}
		n++
		vp := ":v" + strconv.Itoa(n)
		b.Values[vp] = av
		b.SetPH[f] = vp
		sets = append(sets, nm+" = "+vp)
	}
	encIf, err := p.Encode(p.SetIfAbsent)
	if err != nil {
		return b, err
	}
	for _, f := range slices.Sorted(maps.Keys(p.SetIfAbsent)) {
		if _, dup := p.Set[f]; dup {
			return b, &codec.ValidationError{Entity: p.Entity, Field: f, Reason: "both set and set if absent"}
		}
		nm, err := name(f)
		if err != nil {
			return b, err
		}
		if err := p.CheckValue(f, p.SetIfAbsent[f]); err != nil {
			return b, err
		}
		av, ok := encIf[f]
		if !ok {
			err = errors.New("empty value")
		}
		if err == nil {
			if r := codec.Check(av); r != "" {
				err = errors.New(r)
			}
		}
		if err != nil {
			return b, &codec.ValidationError{Entity: p.Entity, Field: f, Reason: "cannot set: " + err.Error()}
		}
		n++
		vp := ":v" + strconv.Itoa(n)
		b.Values[vp] = av
		sets = append(sets, nm+" = if_not_exists("+nm+", "+vp+")")
	}
	for _, f := range p.Touched {
		nm, err := name(f.Name)
		if err != nil {
			continue // a touched field that keys derive from is left to Update
		}
		n++
		vp := ":v" + strconv.Itoa(n)
		b.Values[vp] = f.Value
		b.TouchPH[f.Name] = vp
		if f.OnlyNew {
			sets = append(sets, nm+" = if_not_exists("+nm+", "+vp+")")
		} else {
			sets = append(sets, nm+" = "+vp)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(p.Add)) {
		if _, dup := p.Set[f]; dup {
			return b, &codec.ValidationError{Entity: p.Entity, Field: f, Reason: "both set and added"}
		}
		nm, err := name(f)
		if err != nil {
			return b, err
		}
		d := p.Add[f]
		vp, _ := value(d)
		adds = append(adds, nm+" "+vp)
		// A counter never overflows int64: the condition refuses the add
		// before it writes (a stored value out of range could not be read).
		n++
		lim := ":l" + strconv.Itoa(n)
		if d > 0 {
			b.Values[lim] = codec.Num(math.MaxInt64 - d)
			conds = append(conds, "NOT "+nm+" > "+lim) // true on a missing attribute
		} else if d < 0 {
			b.Values[lim] = codec.Num(math.MinInt64 - d)
			conds = append(conds, "NOT "+nm+" < "+lim)
		}
	}
	for _, f := range p.Remove {
		nm, err := name(f)
		if err != nil {
			return b, err
		}
		removes = append(removes, nm)
	}
	adds = append(adds, "#v :one")
	if p.Token && s.TokenAttr != "" {
		b.Token = c.NewToken()
		b.Names["#wt"] = s.TokenAttr
		b.Values[":wt"] = &types.AttributeValueMemberSS{Value: []string{b.Token}}
		b.Values[":wtok"] = &types.AttributeValueMemberS{Value: b.Token}
		adds = append(adds, "#wt :wt")
		conds = append(conds, "NOT contains(#wt, :wtok)")
	}
	for _, cm := range []struct {
		m  map[string]any
		eq bool
	}{{p.IfEqual, true}, {p.IfNotEqual, false}} {
		for _, f := range slices.Sorted(maps.Keys(cm.m)) {
			if err := p.CheckCond(f); err != nil {
				return b, err
			}
			n++
			ph := "#c" + strconv.Itoa(n)
			b.Names[ph] = f
			// compared with the value as Create stores it (its tags applied)
			cv, err := p.Encode(map[string]any{f: cm.m[f]})
			if err != nil {
				return b, err
			}
			if cv[f] == nil {
				return b, &codec.ValidationError{Entity: p.Entity, Field: f, Reason: "bad condition value: empty value"}
			}
			if r := codec.Check(cv[f]); r != "" {
				return b, &codec.ValidationError{Entity: p.Entity, Field: f, Reason: "bad condition value: " + r}
			}
			n++
			vp := ":v" + strconv.Itoa(n)
			b.Values[vp] = cv[f]
			if cm.eq {
				conds = append(conds, ph+" = "+vp)
			} else {
				conds = append(conds, "(attribute_not_exists("+ph+") OR "+ph+" <> "+vp+")")
			}
		}
	}
	for _, f := range p.IfAbsent {
		if err := p.CheckCond(f); err != nil {
			return b, err
		}
		n++
		ph := "#c" + strconv.Itoa(n)
		b.Names[ph] = f
		conds = append(conds, "attribute_not_exists("+ph+")")
	}
	var ex []string
	if len(sets) > 0 {
		ex = append(ex, "SET "+strings.Join(sets, ", "))
	}
	ex = append(ex, "ADD "+strings.Join(adds, ", "))
	if len(removes) > 0 {
		ex = append(ex, "REMOVE "+strings.Join(removes, ", "))
	}
	b.Update = strings.Join(ex, " ")
	// The item exists, is live (one past its TTL that DynamoDB has not
	// deleted yet counts as missing) and is of this entity type.
	// An IfEqual condition is false on a missing item (an equality with an
	// attribute that is not there), so it implies attribute_exists.
	cond := c.LiveOf(x, p.Entity, len(p.IfEqual) > 0)
	if p.IfVersion != nil {
		cond += " AND " + c.VersionCond(x, *p.IfVersion)
	}
	if len(conds) > 0 {
		cond += " AND " + strings.Join(conds, " AND ")
	}
	b.Cond = cond
	return b, nil
}

// AddResult reads the counter an Add (table.Entity.Add) returned: field
// of raw, the item UpdateItem returned; a non-number is an *OpError.
func AddResult(raw Item, field, entity string, k Key) (int64, error) {
	n, ok := raw[field].(*types.AttributeValueMemberN)
	if !ok {
		return 0, OpErr("add", entity, k, fmt.Errorf("attribute %s is not a number", field))
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	return v, OpErr("add", entity, k, err)
}
