package migrate

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
)

// Verified is what verification found for one legacy table.
type Verified struct {
	// Name is the legacy table's name (<stack>-<table>); Entity the
	// manifest's entity name for its items.
	Name   string
	Entity string
	// Missing says the deployment has no such table; Skip is why the
	// manifest leaves it out. Neither table is verified.
	Missing bool
	Skip    string
	// Legacy items scanned, found in the single table, past their TTL (not
	// migrated), absent from it.
	Scanned, Found, Expired int
	// Absent lists the legacy keys of items not in the single table (at
	// most 100).
	Absent []string
	// Differences lists, per item (at most 100), what differs between the
	// legacy item (after the manifest's renames, mappings and defaults) and
	// its copy: "legacy key: missing a, extra b, c: legacy X, migrated Y";
	// an item that cannot be decoded is a difference too.
	Differences []string
	// Report is the verification job's report (progress, capacity).
	Report table.JobReport
}

// OK reports whether every legacy item was found equal (or expired).
func (v Verified) OK() bool { return len(v.Absent) == 0 && len(v.Differences) == 0 }

// Verify scans the legacy tables again, through the job runner (parallel
// segments, progress, MaxCapacity, Resume: checkpoints _JOB#verify-<table>),
// and finds each item's copy in t by its entity's key (a consistent
// GetItem, the entity's get-by-ID access pattern). It compares every
// attribute of the legacy item, after the manifest's renames, mappings and
// defaults, with the copy as its entity reads it plus the attributes the
// entity does not model: an attribute absent from the copy is missing, one
// the copy has and the legacy item lacks (and the entity does not derive)
// is extra, values are compared as values (times as instants, numbers as
// numbers, NULL and "" as absent). An item that cannot be decoded, or
// whose copy is absent, is a reported difference, never an abort. Verify
// writes nothing but its checkpoints; DryRun is ignored. Options are
// checked as [Run] checks them.
func Verify(ctx context.Context, t *table.Table, o Options) ([]Verified, error) {
	head := func(lt Table, name string, missing bool) Verified {
		return Verified{Name: name, Entity: lt.Entity, Skip: lt.Skip, Missing: missing}
	}
	return eachTable(ctx, t, o, head, verifyTable, nil)
}

// errAbsent marks a legacy item whose copy is not in the single table.
var errAbsent = errors.New("absent from the single table")

// verifyTable runs the job that verifies one legacy table.
func verifyTable(ctx context.Context, t *table.Table, o Options, lt Table) (Verified, error) {
	vt := Verified{Name: o.Stack + "-" + lt.Suffix, Entity: lt.Entity}
	prep, err := prepFor(ctx, t.Client(), vt.Name, lt)
	if err != nil {
		return vt, fmt.Errorf("verify %s: %w", vt.Name, err)
	}
	tg := o.Targets[lt.Entity]
	now := t.Now().Unix()
	var mu sync.Mutex
	absentN := 0
	job := table.Job{
		Name: "verify-" + strings.ReplaceAll(lt.Suffix, "_", "-"),
		Visit: func(ctx context.Context, raw table.Item, _ bool) (table.JobOutcome, error) {
			if ttl, ok := lt.ttlSeconds(raw); ok && ttl <= now {
				return table.Skipped, nil
			}
			name := legacyKey(raw, lt)
			ready, _ := prep.item(raw)
			diffs, err := tg.check(ctx, ready)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.Is(err, errExpired):
				return table.Skipped, nil
			case errors.Is(err, errAbsent):
				absentN++
				if len(vt.Absent) < 100 {
					vt.Absent = append(vt.Absent, name)
				}
				return table.Conflicted, fmt.Errorf("%w: %s", table.ErrInvalidInput, err)
			case errors.Is(err, table.ErrInvalidInput):
				diffs = []string{err.Error()}
			case err != nil:
				return table.Conflicted, err
			}
			if len(diffs) == 0 {
				return table.Unchanged, nil
			}
			if len(vt.Differences) < 100 {
				vt.Differences = append(vt.Differences, name+": "+strings.Join(diffs, "; "))
			}
			return table.Conflicted, fmt.Errorf("%w: differs: %s", table.ErrInvalidInput, strings.Join(diffs, "; "))
		},
		Segments:    o.Segments,
		Resume:      o.Resume,
		MaxCapacity: o.MaxCapacity,
		Source:      vt.Name,
		SourceKey:   lt.keyAttrs(),
	}
	if o.Progress != nil {
		job.Progress = func(r table.JobReport) { o.Progress(vt.Name, r) }
	}
	rep, err := t.RunJob(ctx, job)
	vt.Report = rep
	vt.Scanned = int(rep.Seen)
	vt.Expired = int(rep.Skipped)
	vt.Found = int(rep.Seen-rep.Skipped) - absentN
	if err != nil {
		err = fmt.Errorf("verify %s: %w", vt.Name, err)
	}
	return vt, err
}

// errExpired marks a legacy item past its entity's expiry: not migrated.
var errExpired = errors.New("past its TTL")

// compare decodes a legacy item made ready by the manifest as ent's type,
// finds its copy by its key and lists what differs.
func compare[T any](ctx context.Context, ent *table.Entity[T], ready table.Item) ([]string, error) {
	t := ent.Table()
	legacy, err := ent.Decode(ready)
	if err != nil {
		return nil, fmt.Errorf("%w: cannot be decoded: %v", table.ErrInvalidInput, err)
	}
	if ent.Expired(&legacy) {
		return nil, errExpired
	}
	k, err := ent.KeyOf(&legacy)
	if err != nil {
		return nil, fmt.Errorf("%w: no key: %v", table.ErrInvalidInput, err)
	}
	sc := t.Schema()
	got, err := t.Client().GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(t.Name()), ConsistentRead: aws.Bool(true),
		Key: table.Item{sc.PK: &types.AttributeValueMemberS{Value: k.PK}, sc.SK: &types.AttributeValueMemberS{Value: k.SK}}})
	if err != nil {
		return nil, err
	}
	if len(got.Item) == 0 {
		return nil, errAbsent
	}
	migrated, err := ent.Decode(got.Item)
	if err != nil {
		return []string{"copy cannot be decoded: " + err.Error()}, nil
	}
	// The copy as its entity reads it (secrets opened, the members its
	// nested catch-alls keep unsealed), plus what the entity does not
	// model, stored as it came.
	view, err := ent.Encode(&migrated)
	if err != nil {
		return nil, err
	}
	engine := map[string]bool{sc.PK: true, sc.SK: true, sc.TypeAttr: true, sc.TTLAttr: true, sc.VersionAttr: true, sc.TokenAttr: true}
	for _, ix := range sc.Indexes {
		engine[ix.PK], engine[ix.SK] = true, true
	}
	for a, v := range got.Item {
		if _, ok := view[a]; !ok && !engine[a] {
			view[a] = v
		}
	}
	// What the entity derives itself (stamps, kept-equal aliases, zero
	// values it always writes) is not extra.
	ent.Touch(&legacy)
	derived, err := ent.Encode(&legacy)
	if err != nil {
		return nil, err
	}
	var diffs []string
	for _, a := range slices.Sorted(maps.Keys(ready)) {
		if strings.Contains(a, "#") && absent(view[a]) && !absent(ready[a]) {
			// A legacy composite key ("accountId#resourceType"): its parts
			// are the copy's attributes.
			if c, ok := joined(a, view); !ok || !sameValue(ready[a], &types.AttributeValueMemberS{Value: c}) {
				diffs = append(diffs, fmt.Sprintf("%s: legacy %s, migrated %q", a, show(ready[a]), c))
			}
			continue
		}
		diffs = append(diffs, diffAV(a, ready[a], view[a], derived[a])...)
	}
	for _, a := range slices.Sorted(maps.Keys(view)) {
		if _, ok := ready[a]; ok || absent(view[a]) {
			continue
		}
		if _, ok := derived[a]; ok {
			continue
		}
		diffs = append(diffs, "extra "+a)
	}
	return diffs, nil
}

// diffAV compares the legacy value l of attribute path with the copy's
// value m, member by member for maps: "missing path" (absent from the
// copy), "extra path" (a map member only the copy has, which the entity
// does not derive: derived is the entity's own encoding of the legacy
// item), "path: legacy X, migrated Y".
func diffAV(path string, l, m, derived types.AttributeValue) []string {
	switch {
	case absent(l):
		return nil
	case absent(m):
		return []string{"missing " + path}
	}
	lm, ok1 := l.(*types.AttributeValueMemberM)
	mm, ok2 := m.(*types.AttributeValueMemberM)
	if !ok1 || !ok2 {
		if sameValue(l, m) {
			return nil
		}
		return []string{fmt.Sprintf("%s: legacy %s, migrated %s", path, show(l), show(m))}
	}
	dm, _ := derived.(*types.AttributeValueMemberM)
	sub := func(k string) types.AttributeValue {
		if dm == nil {
			return nil
		}
		return dm.Value[k]
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(lm.Value)) {
		out = append(out, diffAV(path+"."+k, lm.Value[k], mm.Value[k], sub(k))...)
	}
	for _, k := range slices.Sorted(maps.Keys(mm.Value)) {
		if _, ok := lm.Value[k]; !ok && !absent(mm.Value[k]) && sub(k) == nil {
			out = append(out, "extra "+path+"."+k)
		}
	}
	return out
}

// joined returns composite attribute a ("x#y") as the item's x and y
// joined with '#'.
func joined(a string, item table.Item) (string, bool) {
	var parts []string
	for _, p := range strings.Split(a, "#") {
		switch v := item[p].(type) {
		case *types.AttributeValueMemberS:
			parts = append(parts, v.Value)
		case *types.AttributeValueMemberN:
			parts = append(parts, v.Value)
		default:
			return "", false
		}
	}
	return strings.Join(parts, "#"), true
}

// absent reports whether v stands for no value (nil, NULL, "").
func absent(v types.AttributeValue) bool {
	switch v := v.(type) {
	case nil, *types.AttributeValueMemberNULL:
		return true
	case *types.AttributeValueMemberS:
		return v.Value == ""
	}
	return false
}

// sameValue compares two attribute values as values: strings that are
// both times as instants, numbers as numbers, maps and lists member by
// member (absent members ignored), sets as sets.
func sameValue(a, b types.AttributeValue) bool {
	switch a := a.(type) {
	case *types.AttributeValueMemberS:
		switch b := b.(type) {
		case *types.AttributeValueMemberS:
			if a.Value == b.Value {
				return true
			}
			ta, errA := time.Parse(time.RFC3339Nano, a.Value)
			tb, errB := time.Parse(time.RFC3339Nano, b.Value)
			return errA == nil && errB == nil && ta.Equal(tb)
		case *types.AttributeValueMemberN:
			// A time stored as epoch seconds (an entity's unixtime field)
			// where the legacy item held it as a string: the same second.
			t, err := time.Parse(time.RFC3339Nano, a.Value)
			return err == nil && b.Value == fmt.Sprint(t.Unix())
		}
		return false
	case *types.AttributeValueMemberN:
		b, ok := b.(*types.AttributeValueMemberN)
		if !ok {
			return false
		}
		x, okA := new(big.Float).SetString(a.Value)
		y, okB := new(big.Float).SetString(b.Value)
		return okA && okB && x.Cmp(y) == 0
	case *types.AttributeValueMemberM:
		b, ok := b.(*types.AttributeValueMemberM)
		if !ok {
			return false
		}
		for k, v := range a.Value {
			if absent(v) {
				if !absent(b.Value[k]) {
					return false
				}
				continue
			}
			if !sameValue(v, b.Value[k]) {
				return false
			}
		}
		for k, v := range b.Value {
			if _, ok := a.Value[k]; !ok && !absent(v) {
				return false
			}
		}
		return true
	case *types.AttributeValueMemberL:
		b, ok := b.(*types.AttributeValueMemberL)
		if !ok || len(a.Value) != len(b.Value) {
			return false
		}
		for i := range a.Value {
			if !sameValue(a.Value[i], b.Value[i]) {
				return false
			}
		}
		return true
	case *types.AttributeValueMemberSS:
		b, ok := b.(*types.AttributeValueMemberSS)
		return ok && sameStrings(a.Value, b.Value)
	case *types.AttributeValueMemberNS:
		b, ok := b.(*types.AttributeValueMemberNS)
		return ok && sameStrings(a.Value, b.Value)
	case *types.AttributeValueMemberBOOL:
		b, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberB:
		b, ok := b.(*types.AttributeValueMemberB)
		return ok && string(a.Value) == string(b.Value)
	}
	return false
}

func sameStrings(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// show renders a value for a difference report (cut at 60 bytes).
func show(v types.AttributeValue) string {
	var s string
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		s = fmt.Sprintf("%q", v.Value)
	case *types.AttributeValueMemberN:
		s = v.Value
	case *types.AttributeValueMemberBOOL:
		s = fmt.Sprint(v.Value)
	case *types.AttributeValueMemberM:
		s = fmt.Sprintf("map(%d)", len(v.Value))
	case *types.AttributeValueMemberL:
		s = fmt.Sprintf("list(%d)", len(v.Value))
	default:
		s = fmt.Sprintf("%T", v)
	}
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return s
}
