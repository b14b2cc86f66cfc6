package table

import (
	"context"
	"fmt"
	"slices"

	"github.com/singletable/singletable/internal/ddb"
)

// Op declares a store operation that is more than one read of a declared
// pattern ([Pattern]): a write, or a method that sends several requests
// and carries an application's rules. It holds the catalog ID and the
// method's name once, as data; the method's body runs inside [Op.Do] (or
// [Run] for a result), which opens the call for Options.Tracer
// ([Table.Call]) and ends it with the body's error, so no method writes a
// span prologue:
//
//	type Usage struct {
//		put table.Op
//		e   *entities
//	}
//
//	func newUsage(e *entities) *Usage {
//		return &Usage{e: e, put: table.NewOp(e.t, "LB-58", "listbackup.Usage.Put")}
//	}
//
//	// Put stores a day's metrics (LB-58, its write side).
//	func (s *Usage) Put(ctx context.Context, m *lb.UsageMetrics) error {
//		return s.put.Do(ctx, func(ctx context.Context) error { return s.e.usage.Put(ctx, m) })
//	}
//
// NewOp registers the declaration with the table ([Table.Ops]): the
// access-pattern documents, the cost records and the catalog coverage read
// the ID from it, not from the doc comment (which may still cite it for
// its readers). internal/wiretest holds the declaration, the field and the
// method to one another. An Op is a value, safe for concurrent use.
type Op struct {
	// ID is the catalog ID the operation serves ("LB-58").
	ID string
	// Name is "package.Type.Method" of the store method it runs
	// ("listbackup.Usage.Put"): the call's name.
	Name string

	t *Table
}

// NewOp declares the operation id of the method name on table t. It
// panics when id or name is empty or t is nil (a declaration error, found
// at start-up).
func NewOp(t *Table, id, name string) Op { return t.declareOp(OpInfo{ID: id, Name: name}, nil, nil) }

// declareOp registers info once (a store view declared per request adds
// nothing), with write for a declared write or unique for a declared
// unique read, and returns its Op.
func (t *Table) declareOp(info OpInfo, write *WriteInfo, unique *UniqueInfo) Op {
	if t == nil || info.ID == "" || info.Name == "" {
		panic(fmt.Sprintf("table: operation %q %q: a table, an ID and a name are required", info.ID, info.Name))
	}
	t.entMu.RLock()
	seen := t.opSeen[info] // a view declared per request: a read lock only
	t.entMu.RUnlock()
	if seen {
		return Op{ID: info.ID, Name: info.Name, t: t}
	}
	t.entMu.Lock()
	if !t.opSeen[info] {
		if t.opSeen == nil {
			t.opSeen = map[OpInfo]bool{}
		}
		t.opSeen[info] = true
		t.ops = append(t.ops, info)
		if write != nil {
			t.writes = append(t.writes, *write)
		}
		if unique != nil {
			t.uniques = append(t.uniques, *unique)
		}
	}
	t.entMu.Unlock()
	return Op{ID: info.ID, Name: info.Name, t: t}
}

// OpInfo describes a declared operation for tools and documents ([Table.Ops]).
type OpInfo struct {
	// ID is the catalog ID it serves ("LB-58").
	ID string
	// Name is "package.Type.Method" ("listbackup.Usage.Put").
	Name string
}

// Ops returns the operations declared on the table with [NewOp], in the
// order they were first declared, each (ID, Name) once (a store opened
// twice on one table declares its operations again).
func (t *Table) Ops() []OpInfo {
	t.entMu.Lock()
	defer t.entMu.Unlock()
	return slices.Clone(t.ops)
}

// Do runs fn as one call of the operation: fn gets the call's context
// (the requests it sends are the call's), and the call ends with fn's
// error. Without a tracer it is fn(ctx).
func (o Op) Do(ctx context.Context, fn func(context.Context) error) error {
	_, err := Run(ctx, o, func(ctx context.Context) (struct{}, error) { return struct{}{}, fn(ctx) })
	return err
}

// Run is [Op.Do] for an operation with a result.
func Run[R any](ctx context.Context, o Op, fn func(context.Context) (R, error)) (R, error) {
	r, _, err := Run2(ctx, o, func(ctx context.Context) (R, struct{}, error) { r, err := fn(ctx); return r, struct{}{}, err })
	return r, err
}

// Run2 is [Run] for an operation with two results (a minted secret's
// plaintext and the stored item).
func Run2[A, B any](ctx context.Context, o Op, fn func(context.Context) (A, B, error)) (A, B, error) {
	if o.t == nil {
		return fn(ctx)
	}
	return ddb.Run2(ctx, o.t.opts.Tracer, o.ID, o.Name, fn)
}
