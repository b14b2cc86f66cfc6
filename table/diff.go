package table

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/expr"
)

// diffWrite is how [Entity.writeDiff] conditions its write and what it
// sends with it.
type diffWrite struct {
	// ensureAll claims the guards of every unique value, not only those
	// the write sets (EnsureGuards, adoption).
	ensureAll bool
	// noTouch leaves the Timestamps and Def.Touch's fields alone (an
	// adoption pass is not an update of the item).
	noTouch bool
	// whole conditions the write on every attribute of the image read, not
	// only those it changes (Replace).
	whole bool
	// scope, when set, conditions the write on the tenant (Scoped).
	scope *scopeCond
	// also are actions on other items sent in the same transaction
	// (UpdateRequiring's checks, UpdateAlso's writes).
	also []TxOp
}

// writeDiff writes cur over orig, the item decoded from raw at version
// ver: SET and REMOVE of the attributes whose encoded value differs, the
// index keys and TTL derived from changed fields, the version and write
// tokens, and the guard moves, conditioned as [Entity.Update] says and as
// o asks. An item written by another service (version 0) gets guards only
// for the unique values this write sets, unless o.ensureAll (see
// EnsureGuards): a duplicate already in the data never blocks a write of
// other fields.
func (e *Entity[T]) writeDiff(ctx context.Context, k Key, orig *T, raw Item, ver int64, cur *T, o diffWrite) error {
	ensureAll := o.ensureAll
	if !o.noTouch {
		e.stampWrite(cur, e.t.now(), false)
	}
	codec.KeepExtra(orig, cur)
	w, err := e.prepare(cur, ver+1, false)
	if err != nil {
		return err
	}
	plainOld, err := e.encodePlain(orig)
	if err != nil {
		return fmt.Errorf("%w: encode %s: %v", ErrInvalidInput, e.def.Type, err)
	}
	plainNew, err := e.encodePlain(cur)
	if err != nil {
		return fmt.Errorf("%w: encode %s: %v", ErrInvalidInput, e.def.Type, err)
	}
	for _, a := range e.fixedAttrs() {
		if _, had := plainOld[a]; had && !codec.Equal(plainOld[a], plainNew[a]) {
			return &ValidationError{Entity: e.def.Type, Field: a, Reason: "fixed at creation (Def.Fixed or Def.Scope): an update cannot change it"}
		}
	}
	s := e.t.schema
	x := expr.New()
	cond := []string{e.t.c.Live(x, e.def.Type), e.t.c.VersionCond(x, ver)}
	if sc := o.scope; sc != nil {
		x.Names["#scope"] = sc.attr
		x.Values[":scope"] = &types.AttributeValueMemberS{Value: sc.value}
		cond = append(cond, "#scope = :scope")
	}
	var sets, removes []string
	setVals, removed := Item{}, []string(nil) // by attribute name: the image after the write
	n := 0
	ph := func(attr string) string {
		n++
		p := "#a" + strconv.Itoa(n)
		x.Names[p] = attr
		return p
	}
	val := func(v types.AttributeValue) string {
		n++
		p := ":a" + strconv.Itoa(n)
		x.Values[p] = v
		return p
	}
	// expect conditions attribute a on its stored value.
	conditioned := map[string]bool{}
	expect := func(np, attr string) {
		conditioned[attr] = true
		switch old := raw[attr].(type) {
		case nil:
			cond = append(cond, "attribute_not_exists("+np+")")
		case *types.AttributeValueMemberNULL:
			cond = append(cond, "attribute_type("+np+", "+val(&types.AttributeValueMemberS{Value: "NULL"})+")")
		default:
			cond = append(cond, np+" = "+val(old))
		}
	}
	managed := map[string]bool{s.PK: true, s.SK: true, s.TypeAttr: true, s.VersionAttr: true, s.TTLAttr: true, s.TokenAttr: true}
	for _, ix := range s.Indexes {
		managed[ix.PK], managed[ix.SK] = true, true
	}
	// Fields: what change changed, compared on the plaintext encodings.
	for _, attr := range sortedKeys(ddb.UnionKeys(plainOld, plainNew)) {
		if managed[attr] || codec.Equal(plainOld[attr], plainNew[attr]) {
			continue
		}
		np := ph(attr)
		expect(np, attr)
		if nv, ok := w.item[attr]; ok {
			kept := e.keepStored(attr, raw[attr], plainOld[attr], nv)
			sets = append(sets, np+" = "+val(kept))
			setVals[attr] = kept
		} else {
			removes = append(removes, np)
			removed = append(removed, attr)
		}
	}
	// Strict writes, tolerant reads: Def.Validate judges what this write
	// changes; a legacy value it carries through unchanged (written by
	// another service, or before a rule existed) never refuses the write.
	if err := e.validateChange(cur, plainOld, plainNew); err != nil {
		return err
	}
	// Secrets stored in plaintext (written by another service), in the
	// previous format or under a stale key are sealed anew by every write
	// (the whole top-level attribute that holds them is rewritten).
	for _, attr := range e.needsSeal(raw) {
		if w.item[attr] != nil && codec.Equal(plainOld[attr], plainNew[attr]) {
			np := ph(attr)
			expect(np, attr)
			sets = append(sets, np+" = "+val(w.item[attr]))
			setVals[attr] = w.item[attr]
		}
	}
	// Def.ValidWhileIndexed: the write is conditioned on those index
	// attributes as read (a revocation since the read fails it), and a
	// revoked item is never put back in those indexes nor guarded.
	valid := e.validAttrs()
	revoked := e.revoked(raw)
	for _, attr := range sortedKeys(valid) {
		if !conditioned[attr] {
			expect(ph(attr), attr)
		}
	}
	// Index keys and TTL: moved when the fields they derive from changed,
	// or added when the stored item has none.
	derivedOld, err := e.derived(orig)
	if err != nil {
		return err
	}
	moved := e.relayout(raw, w.derived) // sharded since it was written
	for _, attr := range sortedKeys(ddb.UnionKeys(derivedOld, w.derived)) {
		if revoked && valid[attr] {
			continue
		}
		nv, has := w.item[attr]
		_, stored := raw[attr]
		changed := !codec.Equal(derivedOld[attr], w.derived[attr]) || moved[attr]
		switch {
		case !changed && (stored || !has):
			continue
		case has:
			sets = append(sets, ph(attr)+" = "+val(nv))
			setVals[attr] = nv
		case stored:
			removes = append(removes, ph(attr))
			removed = append(removed, attr)
		}
	}
	if s.TypeAttr != "" {
		sets = append(sets, ph(s.TypeAttr)+" = "+val(w.item[s.TypeAttr]))
		setVals[s.TypeAttr] = w.item[s.TypeAttr]
	}
	sets = append(sets, "#v = "+val(codec.Num(ver+1)))
	setVals[s.VersionAttr] = codec.Num(ver + 1)
	var tok string
	if s.TokenAttr != "" {
		tok = e.t.c.NewToken()
		setVals[s.TokenAttr] = e.t.c.CarryTokens(raw, tok)
		sets = append(sets, ph(s.TokenAttr)+" = "+val(setVals[s.TokenAttr]))
	}
	// Replace: the stored item must still be the image the caller read,
	// every attribute of it, not only those this write changes.
	if o.whole {
		for _, attr := range e.t.c.ImageAttrs(raw) {
			if !conditioned[attr] {
				expect(ph(attr), attr)
			}
		}
	}
	ex := "SET " + strings.Join(sets, ", ")
	if len(removes) > 0 {
		ex += " REMOVE " + strings.Join(removes, ", ")
	}
	up := &types.Update{
		TableName:                 aws.String(s.Name),
		Key:                       e.t.c.KeyItem(k),
		UpdateExpression:          aws.String(ex),
		ConditionExpression:       aws.String(strings.Join(cond, " AND ")),
		ExpressionAttributeNames:  x.Names,
		ExpressionAttributeValues: x.Vals(),
	}
	var oldUniques []Unique
	if e.fn.unique != nil && ver > 0 && !ensureAll {
		oldUniques = e.fn.unique(orig)
	}
	newUniques := w.uniques
	if revoked {
		oldUniques, newUniques = nil, nil // its guards are neither claimed nor moved
	}
	rewriteKept := e.fn.expires != nil && w.expires != derivedTTL(derivedOld, s.TTLAttr)
	guards := txOps(e.t.c.GuardDiff(oldUniques, newUniques, k, w.expires, rewriteKept))
	ops := append([]TxOp{{op: ddb.Op{Update: up, Key: k, What: e.def.Type}}}, guards...)
	ops = append(ops, o.also...)
	// Guards of values this write does not set never block it: a guard the
	// item does not hold is not released (another item holds it), and an
	// item written elsewhere (version 0) claims the guards of its unchanged
	// values when it can, leaving out one held by another item (a duplicate
	// already in the live data, which the adoption job reports).
	// EnsureGuards (ensureAll) claims them all or fails.
	unchanged := map[Unique]bool{}
	if e.fn.unique != nil && !ensureAll {
		for _, u := range e.fn.unique(orig) {
			unchanged[u] = true
		}
	}
	for round := 0; ; round++ {
		if len(ops) == 1 {
			err = e.t.c.UpdateItem(ctx, e.def.Type, up, tok)
		} else {
			err = ddb.TxToUpdateErr(e.t.c.TransactGuarded(ctx, txActions(ops), tok))
		}
		var te *TxError
		if round > 1 || !errors.Is(err, ErrUniqueViolation) || !errors.As(err, &te) {
			break
		}
		next := ops[:1:1]
		dropped := false
		for i, op := range ops[1:] {
			if i+1 < len(te.Reasons) && te.Reasons[i+1].Code == "ConditionalCheckFailed" && op.op.Guard.Name != "" &&
				(op.op.Delete != nil || unchanged[op.op.Guard]) {
				dropped = true
				continue
			}
			next = append(next, op)
		}
		if !dropped {
			break
		}
		ops = next
	}
	if err == nil {
		e.setVersion(cur, ver+1)
		e.setRead(cur, ddb.AfterImage(raw, setVals, removed))
	}
	return err
}

// validateChange runs Def.Validate on cur, the item as a write leaves it,
// and keeps its error unless every *ValidationError in it (a Validate may
// join several with errors.Join) names a field whose value the write does
// not change: a legacy value carried through never refuses a write, an
// invalid value the write sets always does.
func (e *Entity[T]) validateChange(cur *T, plainOld, plainNew Item) error {
	if e.def.Validate == nil {
		return nil
	}
	err := e.def.Validate(cur)
	if err == nil {
		return nil
	}
	for _, leaf := range leafErrors(err) {
		var ve *ValidationError
		if !errors.As(leaf, &ve) {
			return err
		}
		field, _, _ := strings.Cut(ve.Field, ".")
		if field == "" || ve.Key || !codec.Equal(plainOld[field], plainNew[field]) {
			return leaf // about what this write changes
		}
	}
	return nil
}

// leafErrors flattens the errors.Join tree of err.
func leafErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, leafErrors(e)...)
		}
		return out
	}
	return []error{err}
}

// derived returns the index keys and TTL attribute item derives.
func (e *Entity[T]) derived(item *T) (Item, error) {
	out := Item{}
	s := e.t.schema
	if e.fn.indexes != nil {
		ix, err := e.fn.indexes(item)
		if err != nil {
			return nil, err
		}
		for i, ik := range ix {
			is, err := s.GSI(i)
			if err != nil {
				return nil, err
			}
			if ik.PK == "" {
				continue
			}
			out[is.PK] = &types.AttributeValueMemberS{Value: ik.PK}
			out[is.SK] = &types.AttributeValueMemberS{Value: ik.SK}
		}
	}
	if e.fn.expires != nil && s.TTLAttr != "" {
		if exp := e.fn.expires(item); !exp.IsZero() {
			out[s.TTLAttr] = codec.Num(exp.Unix())
		}
	}
	return out, nil
}

func derivedTTL(d Item, attr string) int64 {
	if n, ok := d[attr].(*types.AttributeValueMemberN); ok {
		v, _ := strconv.ParseInt(n.Value, 10, 64)
		return v
	}
	return 0
}
