package table

import (
	"context"
	"fmt"
	"iter"
	"reflect"
	"slices"
	"strings"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/decl"
	"github.com/singletable/singletable/internal/keytmpl"
)

// Reads says which reads a declared access pattern serves ([PatternDef.Reads]).
type Reads uint8

// The reads of a [Pattern].
const (
	// ReadOne is [Pattern.Get]: one item by its whole primary key (a
	// pattern on the table, [Primary]).
	ReadOne Reads = 1 << iota
	// ReadPage is [Pattern.List] and [Pattern.All]: the entity's items in
	// one partition.
	ReadPage
	// ReadRange is [Pattern.Between] and [Pattern.AllBetween]: the
	// entity's items in one partition whose sort keys lie between two.
	ReadRange
)

// PatternDef declares one read access pattern of an entity: what a
// catalog row names (its ID), where it reads (an index and the entity's
// templates for it, never restated) and how (order, page size,
// consistency, the application's checks of its input). [NewPattern] binds
// it; the [Pattern] then gives the typed reads, each one call of ID for
// Options.Tracer, and [Table.Patterns] lists it for tools and documents.
type PatternDef[T any] struct {
	// ID is the catalog ID ("PF-12"), stated once: the spans, the
	// documents and the cost records read it from here.
	ID string
	// Name is "package.Type.Field" of the store field holding the
	// pattern ("notes.Notes.ByAuthor"): a read's call is named Name +
	// "." + the method ("notes.Notes.ByAuthor.List").
	Name string
	// Doc says in one sentence what the pattern returns, for the
	// documents (the key condition is derived, not stated).
	Doc string
	// Reads lists the reads the pattern serves; a read it does not list
	// is refused before any request.
	Reads Reads
	// Index is the index read: [Primary] for the table, or a GSI the
	// entity declares in Def.IndexKeys. Its templates give the partition
	// key (from the fields a call sets) and the sort key.
	Index Index
	// WholePartition reads the whole partition: no sort-key condition, for
	// a partition that holds this entity's items alone. Otherwise a List
	// narrows the sort key to the literal prefix its template starts
	// with, as [Entity.Partition] does.
	WholePartition bool
	// Desc lists newest first (descending sort keys) unless the caller
	// asks otherwise ([Asc], [Desc]).
	Desc bool
	// Limit is the page size when the caller sets none (0:
	// DefaultListLimit).
	Limit int
	// Consistent reads strongly consistent (on the table only).
	Consistent bool
	// SortPrefix narrows a List's sort key to the prefix its template
	// builds from the fields the call sets, up to the first it leaves
	// unset ("JOB#{jobId}#RUN#" for JOB#{jobId}#RUN#{runId} when jobId is
	// set, "JOB#" when none is), instead of the literal prefix alone. A
	// field left at its zero value is unset.
	SortPrefix bool
	// WholeWhenUnset, with SortPrefix, reads the whole partition (no
	// sort-key condition, as WholePartition) when the call sets none of
	// the sort key's fields, instead of the sort key's literal prefix
	// ("TYPE#" of TYPE#{accountType}#{accountId}): for a partition that
	// holds this entity's items alone, listed whole or narrowed by its
	// leading sort-key field.
	WholeWhenUnset bool
	// WholeKeyBegins, with SortPrefix, reads every sort key beginning with
	// the one the call's fields build whole (begins_with), not only the
	// key equal to it: a tree path and every path below it.
	WholeKeyBegins bool
	// RangeOn names the sort-key field a Between's bounds range over
	// when they need not build whole sort keys: each bound sets the
	// fields before it (the same in both) and, unless open, RangeOn
	// itself; from then reads from the first key its fields begin (the
	// sort key up to RangeOn, without what follows), to up to the last
	// key they begin. A bound that leaves RangeOn unset is open: from
	// starts at the prefix of the fields before it, to ends after that
	// prefix; with both open, the range is the prefix. Without it,
	// Between builds both sort keys whole.
	RangeOn string
	// FilterOn names attributes a Query's items must equal, each to the
	// value of its field in the call's fields (a FilterExpression,
	// [Query.Filter]: evaluated after the page is read, so a page may hold
	// fewer items than its limit; the cursor still continues correctly).
	// A field the call leaves zero filters nothing.
	FilterOn []string
	// FilterContains names list or set attributes a Query's items must
	// contain the value of its field in the call's fields (a slice of one
	// value): contains(attribute, value), a FilterExpression as FilterOn's
	// ([Query.FilterContains]). A field the call leaves empty filters
	// nothing; one of more values is a *[ValidationError].
	FilterContains []string
	// Keep, if set, is an application's rule of which items a read
	// returns, given the call's fields (a soft-deleted item, another
	// owner's): an item it refuses is left out of a page (which may then
	// hold fewer items than its limit; the cursor still continues), and
	// is [ErrNotFound] to Get.
	Keep func(fields, item *T) bool
	// Check, if set, checks what the fields a call gives cannot say of
	// themselves (a rule across fields, a non-key field's form) before
	// any request and before the templates' own checks, so that it names
	// the field alone; return a *[ValidationError] naming it. It sees the
	// fields of every read the pattern serves: a List sets no sort-key
	// field, so check those only when set. A key field whose type checks
	// itself (a method Validate(field string) error, Check(field string)
	// error or Validate() error: a typed ID, an enumeration) needs no
	// Check: after Check, every read calls it with the attribute's name,
	// always for a partition-key field (but under a shard transform or
	// ":opt"), else when set (or when Require names it).
	Check func(fields *T) error
	// Require names key fields every read needs, by attribute as the key
	// templates of Index spell them: one a call leaves zero is a
	// *[ValidationError] naming it, reason "required", before any request
	// (after Check); one set gets its own check. For a sort-key field
	// that selects the items (a List of the jobs in one status, where an
	// unset field would read the whole partition):
	//
	//	Require: []string{"status"}
	//
	// NewPattern panics on a name that is no field of the templates.
	Require []string
	// SortFrom makes a List read the sort keys from the prefix the
	// leading sort-key fields set build up to the end of the template's
	// keys, as [Entity.Range] from the fields to none: for
	// SUBUPD#{UpdatedAt:ts}#{Topic} with UpdatedAt set, SK BETWEEN
	// SUBUPD#{since} AND SUBUPD$; with none set, SUBUPD# AND SUBUPD$.
	SortFrom bool
	// Hidden, if set, tells the items a List, All, Between or AllBetween
	// leaves out unless the call passes [IncludeHidden] (a soft-deleted
	// item): dropped after the page is read, so a page may hold fewer
	// items than its limit while the cursor continues. Get returns a
	// hidden item (it names it by its key).
	Hidden func(item *T) bool
}

// Pattern is one declared read access pattern of an entity ([NewPattern]).
// Nobody writes its prologue, its iterator or its key: every read builds
// its key from the entity's templates and the fields given, refuses a
// missing field or a bad value with a *[ValidationError] naming it before
// any request, and runs as one call of the pattern's ID for
// Options.Tracer ([Table.Call]). It is safe for concurrent use.
type Pattern[T any] struct {
	*patternDecl[T]
	scope Scoped[T] // the tenant's handle of a scoped view ([Pattern.In]); zero: unscoped
}

// patternDecl is a pattern's declaration, which its scoped views share.
type patternDecl[T any] struct {
	e       *Entity[T]
	def     PatternDef[T]
	pk, sk  keytmpl.Template
	methods [5]string        // call names: Get, List, All, Between, AllBetween
	filter  [][]int          // the field index of each FilterOn attribute
	has     [][]int          // the field index of each FilterContains attribute
	self    []decl.SelfCheck // key fields whose types check themselves
}

// NewPattern binds def to entity e and registers it with e's table
// ([Table.Patterns]). It panics on a declaration error, found at start-up:
// no ID, Name or Reads, an index e does not declare, ReadOne on a GSI,
// Consistent on a GSI, a Require name that is no key field.
func NewPattern[T any](e *Entity[T], def PatternDef[T]) *Pattern[T] {
	fail := func(format string, a ...any) {
		panic(fmt.Sprintf("table.NewPattern %s %s: %s", def.ID, def.Name, fmt.Sprintf(format, a...)))
	}
	if def.ID == "" || def.Name == "" {
		fail("ID and Name are required")
	}
	if def.Reads == 0 || def.Reads&^(ReadOne|ReadPage|ReadRange) != 0 {
		fail("Reads must list ReadOne, ReadPage or ReadRange")
	}
	if def.Limit < 0 || def.Limit > MaxListLimit {
		fail("Limit %d is outside 0..%d", def.Limit, MaxListLimit)
	}
	p := &Pattern[T]{patternDecl: &patternDecl[T]{e: e, def: def, pk: e.decl.pk, sk: e.decl.sk}}
	if def.Index != Primary {
		pair, ok := e.decl.indexes[def.Index]
		if !ok {
			fail("entity %s declares no template for GSI%d", e.def.Type, def.Index)
		}
		if def.Reads&ReadOne != 0 || def.Consistent {
			fail("ReadOne and Consistent read the table, not GSI%d", def.Index)
		}
		p.pk, p.sk = pair[0], pair[1]
	}
	var err error
	if p.self, err = decl.SelfChecks(reflect.TypeFor[T](), p.pk, p.sk, e.decl.KeyTagged, def.Require); err != nil {
		fail("Require %v", err)
	}
	fields := codec.FieldsOf(reflect.TypeFor[T]())
	for _, a := range def.FilterOn {
		fi, ok := fields[a]
		if !ok {
			fail("FilterOn %q is not an attribute of the type", a)
		}
		p.filter = append(p.filter, fi.Index)
	}
	if (def.WholeWhenUnset || def.WholeKeyBegins) && !def.SortPrefix {
		fail("WholeWhenUnset and WholeKeyBegins change a SortPrefix read: set SortPrefix")
	}
	for _, a := range def.FilterContains {
		fi, ok := fields[a]
		if !ok || fi.Typ.Kind() != reflect.Slice {
			fail("FilterContains %q is not a slice attribute of the type", a)
		}
		p.has = append(p.has, fi.Index)
	}
	if def.RangeOn != "" && !slices.Contains(p.sk.Attrs(), def.RangeOn) {
		fail("RangeOn %q is no field of the sort key (%s)", def.RangeOn, keytmpl.JoinAttrs(p.sk.Attrs()))
	}
	for i, m := range []string{"Get", "List", "All", "Between", "AllBetween"} {
		p.methods[i] = def.Name + "." + m
	}
	e.t.entMu.Lock()
	e.t.patterns = append(e.t.patterns, p.Info())
	e.t.entMu.Unlock()
	return p
}

// PatternInfo describes a declared pattern for tools and documents
// ([Table.Patterns]).
type PatternInfo struct {
	// ID, Name, Doc and Index are the declaration's.
	ID, Name, Doc string
	Index         Index
	// Entity is the entity type read.
	Entity string
	// Methods are the pattern's reads, in order: Get, List, All, Between,
	// AllBetween (those its Reads lists).
	Methods []PatternMethod
	// Desc, Limit and Consistent are the declaration's.
	Desc       bool
	Limit      int
	Consistent bool
	// run runs the pattern with text fields (Table.RunPattern).
	run patternRun
}

// PatternMethod is one read of a declared pattern: the method ("Get",
// "List", "All", "Between", "AllBetween") and the request it sends,
// derived from the templates ("GetItem PK = USER#{userId}, SK = PROFILE",
// "Query GSI1 PK = ORG#{organizationId}", "Query PK = BILLING#{orgId},
// SK begins_with RECORD#"; a sharded partition adds "(each shard)").
type PatternMethod struct{ Name, Request string }

// Info describes the pattern.
func (p *Pattern[T]) Info() PatternInfo {
	d := p.def
	in := PatternInfo{ID: d.ID, Name: d.Name, Doc: d.Doc, Index: d.Index, Entity: p.e.def.Type,
		Desc: d.Desc, Limit: d.Limit, Consistent: d.Consistent, run: p.runText}
	tp := p.e.def.Keys
	if d.Index != Primary {
		tp = p.e.def.IndexKeys[d.Index]
	}
	for _, m := range decl.Describe(decl.Shape{Index: int(d.Index), PKText: tp.PK, SKText: tp.SK, PK: p.pk, SK: p.sk,
		One: d.Reads&ReadOne != 0, Page: d.Reads&ReadPage != 0, Range: d.Reads&ReadRange != 0,
		FilterOn: d.FilterOn, FilterHas: d.FilterContains, SortFrom: d.SortFrom, SortPrefix: d.SortPrefix,
		WholeWhenUnset: d.WholeWhenUnset, WholeKeyBegins: d.WholeKeyBegins, WholePartition: d.WholePartition, RangeOn: d.RangeOn}) {
		in.Methods = append(in.Methods, PatternMethod(m))
	}
	return in
}

// Patterns returns the access patterns declared on the table with
// [NewPattern], in the order they were declared: what tools and documents
// list (catalog coverage, the access-pattern documents).
func (t *Table) Patterns() []PatternInfo {
	t.entMu.Lock()
	defer t.entMu.Unlock()
	return slices.Clone(t.patterns)
}

// Entity returns the entity the pattern reads.
func (p *Pattern[T]) Entity() *Entity[T] { return p.e }

// refuse returns the error of a read the declaration does not list.
func (p *Pattern[T]) refuse(r Reads, method string) error {
	if p.def.Reads&r != 0 {
		return nil
	}
	return opErr(strings.ToLower(method), p.e.def.Type, Key{}, &ValidationError{Field: "pattern",
		Reason: fmt.Sprintf("%s (%s) declares no %s", p.def.Name, p.def.ID, method)})
}

// check runs the declaration's Check on fields, then the key fields' own
// checks ([PatternDef.Check]).
func (p *Pattern[T]) check(op string, fields *T) error {
	if p.def.Check != nil {
		if err := p.def.Check(fields); err != nil {
			return opErr(op, p.e.def.Type, Key{}, err)
		}
	}
	return opErr(op, p.e.def.Type, Key{}, decl.RunSelfChecks(reflect.ValueOf(fields).Elem(), p.self))
}

// Get returns the item whose primary key the fields set in fields build
// (ReadOne): one GetItem. Errors: *[ValidationError] (a missing or bad key
// field, before any request), [ErrNotFound].
func (p *Pattern[T]) Get(ctx context.Context, fields T, opts ...ReadOption) (_ T, err error) {
	ctx, call := p.e.t.Call(ctx, p.def.ID, p.methods[0])
	defer func() { call.End(err) }()
	var zero T
	if err := p.refuse(ReadOne, "Get"); err != nil {
		return zero, err
	}
	if err := p.check("get", &fields); err != nil {
		return zero, err
	}
	k := p.e.Key(fields)
	if k.Err() != nil {
		return zero, k.Err()
	}
	if p.def.Consistent {
		opts = append([]ReadOption{Consistent()}, opts...)
	}
	item, err := p.get(ctx, k, opts)
	if err == nil && p.def.Keep != nil && !p.def.Keep(&fields, &item) {
		return zero, opErr("get", p.e.def.Type, k, ErrNotFound)
	}
	return item, err
}

// Query returns the query List sends for fields: the partition of the
// pattern's index its fields build, narrowed as the declaration says,
// with its order, page size and consistency (and, on a scoped view
// ([Pattern.In]), the filter on the tenant). A missing or bad field makes
// a query every method refuses before any request ([Query.Err]). Use it
// to compose the pattern into a read of several entities
// ([Table.ReadCollection]).
func (p *Pattern[T]) Query(fields T) Query {
	var q Query
	if err := p.check("partition", &fields); err != nil {
		q = Query{Index: p.def.Index, err: err}
	} else {
		q = p.e.Partition(p.def.Index, fields)
	}
	if p.def.WholePartition {
		q.SK = SKCond{}
	}
	if p.def.SortPrefix && q.err == nil {
		if sk, err := p.e.decl.PrefixCond(p.sk, reflect.ValueOf(&fields).Elem(), p.def.WholeWhenUnset, p.def.WholeKeyBegins); err != nil {
			q.err = opErr("partition", p.e.def.Type, Key{}, err)
		} else {
			q.SK = sk
		}
	}
	if (len(p.filter) > 0 || len(p.has) > 0) && q.err == nil {
		var err error
		q.Filter, q.FilterContains, err = decl.Filters(p.e.def.Type, reflect.ValueOf(&fields).Elem(), p.def.FilterOn, p.filter, p.def.FilterContains, p.has)
		q.err = opErr("partition", p.e.def.Type, Key{}, err)
	}
	if p.def.SortFrom && q.err == nil {
		sk, err := p.e.decl.From(p.e.def.Type, p.def.Index, reflect.ValueOf(&fields).Elem())
		q.SK, q.err = sk, opErr("partition", p.e.def.Type, Key{}, err)
	}
	q.Desc, q.Limit, q.Consistent = p.def.Desc, p.def.Limit, p.def.Consistent
	return p.scoped(q)
}

// list reads one page of q, the items the declaration's Keep refuses
// left out.
func (p *Pattern[T]) list(ctx context.Context, fields *T, q Query, opts []ListOption) (Page[T], error) {
	page, err := p.page(ctx, q, opts)
	if err == nil && p.def.Hidden != nil {
		page.Items = p.hide(page.Items, opts)
	}
	if err == nil && p.def.Keep != nil {
		page.Items = slices.DeleteFunc(page.Items, func(item T) bool { return !p.def.Keep(fields, &item) })
	}
	return page, err
}

// all iterates over every page of q, as list reads each.
func (p *Pattern[T]) all(ctx context.Context, fields *T, q Query, opts []ListOption) iter.Seq2[T, error] {
	if p.def.Keep == nil && p.def.Hidden == nil && p.scope.e == nil {
		return p.e.ListAll(ctx, q, opts...)
	}
	return Pages(ctx, func(ctx context.Context, o ...ListOption) (Page[T], error) { return p.list(ctx, fields, q, o) }, opts...)
}

// List returns one page of the entity's items in the partition the fields
// set in fields build (ReadPage): one Query, or one per shard of a sharded
// partition, sent at once. Errors: *[ValidationError] (before any
// request), [ErrInvalidCursor].
func (p *Pattern[T]) List(ctx context.Context, fields T, opts ...ListOption) (_ Page[T], err error) {
	ctx, call := p.e.t.Call(ctx, p.def.ID, p.methods[1])
	defer func() { call.End(err) }()
	if err := p.refuse(ReadPage, "List"); err != nil {
		return Page[T]{}, err
	}
	return p.list(ctx, &fields, p.Query(fields), opts)
}

// All iterates over every item List reads, page by page: one call,
// started when the iteration starts. The error is yielded once; no
// request is sent after the loop stops.
func (p *Pattern[T]) All(ctx context.Context, fields T, opts ...ListOption) iter.Seq2[T, error] {
	return CallSeq2(ctx, p.e.t, p.def.ID, p.methods[2], func(ctx context.Context) iter.Seq2[T, error] {
		if err := p.refuse(ReadPage, "All"); err != nil {
			return func(yield func(T, error) bool) { var zero T; yield(zero, err) }
		}
		return p.all(ctx, &fields, p.Query(fields), opts)
	})
}

// rangeQuery returns the query of the items from from to to, both
// inclusive: the partition from builds (to must build the same), the sort
// keys between the keys from and to build whole.
func (p *Pattern[T]) rangeQuery(from, to T) Query {
	q := p.Query(from)
	if q.err != nil {
		return q
	}
	bad := func(err error) Query { q.err = err; return q } // the list names the operation and entity
	if qt := p.Query(to); qt.err != nil {
		return qt
	} else if qt.PK != q.PK {
		return bad(&ValidationError{Field: keytmpl.JoinAttrs(p.pk.Attrs()), Reason: fmt.Sprintf("from and to are in different partitions (%s, %s)", q.PK, qt.PK), Key: true})
	}
	fv, tv := reflect.ValueOf(&from).Elem(), reflect.ValueOf(&to).Elem()
	var err error
	if p.def.RangeOn != "" {
		q.SK, err = p.e.decl.PrefixRange(p.sk, p.def.RangeOn, fv, tv)
	} else {
		q.SK, err = p.e.decl.KeyRange(p.sk, fv, tv)
	}
	if err != nil {
		return bad(err)
	}
	return q
}

// Between returns one page of the entity's items in one partition whose
// sort keys lie between the keys from and to build, both inclusive
// (ReadRange): from and to set the fields of the partition (the same) and
// of the whole sort key. One Query. Errors: *[ValidationError] (a missing
// or bad field, different partitions, a reversed range; before any
// request), [ErrInvalidCursor].
func (p *Pattern[T]) Between(ctx context.Context, from, to T, opts ...ListOption) (_ Page[T], err error) {
	ctx, call := p.e.t.Call(ctx, p.def.ID, p.methods[3])
	defer func() { call.End(err) }()
	if err := p.refuse(ReadRange, "Between"); err != nil {
		return Page[T]{}, err
	}
	return p.list(ctx, &from, p.rangeQuery(from, to), opts)
}

// AllBetween iterates over every item Between reads, page by page: one
// call, started when the iteration starts.
func (p *Pattern[T]) AllBetween(ctx context.Context, from, to T, opts ...ListOption) iter.Seq2[T, error] {
	return CallSeq2(ctx, p.e.t, p.def.ID, p.methods[4], func(ctx context.Context) iter.Seq2[T, error] {
		if err := p.refuse(ReadRange, "AllBetween"); err != nil {
			return func(yield func(T, error) bool) { var zero T; yield(zero, err) }
		}
		return p.all(ctx, &from, p.rangeQuery(from, to), opts)
	})
}
