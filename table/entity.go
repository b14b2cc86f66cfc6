package table

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Def is one entity type's schema: how its items are stored in a single
// table, declared as data the engine, the tools and the documents all read
// (see [Template]), then the two behaviour hooks. Type and Keys are
// required; every other field is optional.
//
// # Declared
//
// Type, Keys, IndexKeys, UniqueOn (with UniqueFold), TTL, Secrets, Scope,
// Fixed, AlwaysWrite, AlwaysWriteNull and Version say what an item is and how it is
// stored. The engine derives from them, never from a hand-kept list, which
// fields move which index entry and unique guard (Patch, Change, Update
// and the adoption job alike) and what a tool shows before the table
// holds an item ([Entity.Sample], [Entity.Model]). Escape is the one
// escape hatch, for unique values no declaration can state.
//
// # Behaviour
//
// Validate and Touch are code run on writes.
type Def[T any] struct {
	// Type is the value of the entity-type attribute ("User", "Source").
	Type string
	// Keys declares the primary key as templates bound to attribute names
	// ("USER#{userId}", "PROFILE"): see [Template].
	Keys Template
	// IndexKeys declares GSI keys as templates. An index whose referenced
	// attributes are empty, or whose When conditions fail, does not hold
	// the item (sparse). Keys are recomputed on every write, so a write
	// that changes a field an index derives from moves the index entry in
	// the same request.
	IndexKeys map[Index]Template
	// ValidWhileIndexed names indexes of IndexKeys that an item is valid
	// only while it is stored under: for a table shared with a writer that
	// revokes an item by removing its index key attributes and leaving it
	// (Ferryhook's service revokes an API key so: REMOVE gsi2pk, gsi2sk).
	// An item whose stored attributes lack the partition or sort key of
	// one of these indexes is revoked, and stays so:
	//
	//   - no write of the library puts it back: Update, Replace, Upsert and
	//     the adoption job ([AdoptJob]) never write those index keys on a
	//     revoked item, nor claim its unique guards (other index keys, the
	//     TTL and secrets are brought in line as usual); every such write
	//     is conditioned on those index attributes as it read them, so a
	//     revocation between the read and the write is seen (the write is
	//     retried on the new state, or gives [ErrConflict]);
	//   - a lookup answers only for a valid item: [Entity.GetByUnique],
	//     [Entity.GetByIndex] and [Entity.Get] with [Valid] read the item
	//     itself, strongly consistent (Get: with [Consistent]), and give
	//     [ErrNotFound] unless it stores under each of these indexes the
	//     key its fields derive. A guard, an index entry or a key alone
	//     never answers; a guard of a revoked item is not an orphan (the
	//     item still holds the value): it is kept and answers nothing.
	//
	// Lists and a plain Get return revoked items as stored (tolerant reads).
	ValidWhileIndexed []Index
	// UniqueOn lists attributes whose values are unique among the entity's
	// items (emails, usernames, key hashes). Each is held by a guard item
	// written in the same transaction as the item; create, change and
	// delete keep guards exact. The guard is named by the attribute, or,
	// written "name=attribute" ("keyhash=keyHash"), by name.
	UniqueOn []string
	// UniqueFold folds the value of a UniqueOn guard (by its name) before
	// it is guarded, so values that differ only in form are one value: an
	// email stored as given, guarded as keys.FoldEmail folds it.
	UniqueFold map[string]func(string) string
	// TTL declares when the item expires (see [TTL]).
	TTL TTL
	// Secrets maps attribute names to the string fields that hold secrets
	// (credentials, tokens, MFA secrets). They are encrypted with
	// Options.Cipher before any write, bound to the item's key and the
	// attribute name, and decrypted on read; Patch refuses them. Without a
	// cipher, writing a non-empty secret fails with [ErrNoCipher]: a
	// plaintext secret never reaches DynamoDB.
	Secrets map[string]func(*T) *string
	// Scope names the attribute holding the tenant an item belongs to
	// (an account, a user, an organization): set, it enables [Entity.In],
	// the handle whose reads and writes cannot reach another tenant's
	// items.
	Scope string
	// Fixed names attributes set when the item is created that no later
	// write changes (an owner, a tenant, an identity field): Update,
	// Replace and Upsert return a *[ValidationError] naming the attribute
	// when a change would alter one, and Patch refuses them. The Scope
	// attribute is always fixed: an item never moves to another tenant.
	Fixed []string
	// AlwaysWrite names attributes written even when their value is empty
	// (the encoder otherwise omits empty strings, zero-length lists and
	// maps): for deployments whose other readers expect them, such as a
	// service that reads body as "" rather than undefined.
	AlwaysWrite []string
	// AlwaysWriteNull names attributes written as NULL when their value
	// is empty (instead of omitted, or the empty value AlwaysWrite
	// writes): for deployments whose other writers store null for an
	// unset value, as a JavaScript service writes `x ?? null`, so that an
	// item reads the same to them whoever wrote it.
	AlwaysWriteNull []string
	// Version, if set, returns a pointer to the field that mirrors the
	// item's version attribute: it is filled on read and advanced on write,
	// and [Entity.Replace] uses it as the expected version.
	Version func(*T) *int64
	// Escape is the one escape hatch (see [EscapeHatch]): unique values
	// that follow a rule beyond the item's fields, with the attributes
	// they read declared. State the reason where it is used.
	Escape *EscapeHatch[T]

	// Validate checks the item before any write; return a
	// *[ValidationError] (see [Invalid]) naming the field.
	Validate func(*T) error
	// Touch is called before every write with the current time; created
	// is true on create. Use it to keep createdAt/updatedAt.
	Touch func(item *T, now time.Time, created bool)
}

// Entity reads and writes items of type T in a [Table]. Create one per
// entity type with [NewEntity]; it is safe for concurrent use.
type Entity[T any] struct {
	t    *Table
	def  Def[T]
	decl *declared  // the declarations, parsed
	fn   derived[T] // what the engine derives from them

	touchOnce sync.Once
	touches   []touchedAttr // what Def.Touch writes (see touchPlan)

	ownOnce sync.Once
	own     map[string]bool // the attributes Extra never holds (see ownAttrs)

	readIdx []int // T's ReadState field, if any (see ReadState)
}

// NewEntity binds def to table t. It panics if def has no Type or Keys,
// or declares something that references an attribute the type does not
// have: those are programming errors, found at start-up.
func NewEntity[T any](t *Table, def Def[T]) *Entity[T] {
	if def.Type == "" {
		panic("table.NewEntity: Def.Type is required")
	}
	decl, fn := declare(t, &def)
	e := &Entity[T]{t: t, def: def, decl: decl, fn: fn, readIdx: readStateField(reflect.TypeFor[T]())}
	extraIndex(reflect.TypeFor[T]()) // a misdeclared Extra field panics here
	t.entMu.Lock()
	t.entities = append(t.entities, e)
	t.entMu.Unlock()
	return e
}

// Type returns the entity-type name.
func (e *Entity[T]) Type() string { return e.def.Type }

// Table returns the table the entity lives in.
func (e *Entity[T]) Table() *Table { return e.t }

// KeyOf returns the primary key derived from item's fields.
func (e *Entity[T]) KeyOf(item *T) (Key, error) {
	k, err := e.fn.key(item)
	if err != nil {
		return Key{}, err
	}
	return k, checkKey(k)
}

// IndexKeysOf returns the GSI keys derived from item's fields, as a write
// would set them (an index the item is not in is absent).
func (e *Entity[T]) IndexKeysOf(item *T) (map[Index]IndexKey, error) {
	if e.fn.indexes == nil {
		return map[Index]IndexKey{}, nil
	}
	return e.fn.indexes(item)
}

// ReadOption changes a read.
type ReadOption func(*readOpts)

type readOpts struct {
	consistent bool
	indexed    []Index // see Indexed
	valid      bool    // see Valid
}

// Consistent asks for a strongly consistent read (table reads only).
func Consistent() ReadOption { return func(o *readOpts) { o.consistent = true } }

// Get returns the item with key k. A missing item, or one past its TTL,
// gives [ErrNotFound]. Options: [Consistent]; [Indexed] also requires the
// item to be stored under the named GSIs (its stored index attributes, as
// its fields derive them), else [ErrNotFound]; [Valid] requires it to be
// valid by Def.ValidWhileIndexed (a revoked item is [ErrNotFound]).
func (e *Entity[T]) Get(ctx context.Context, k Key, opts ...ReadOption) (T, error) {
	var zero T
	var ro readOpts
	for _, o := range opts {
		o(&ro)
	}
	item, _, raw, err := e.getRaw(ctx, k, opts...)
	if err != nil {
		return zero, opErr("get", e.def.Type, k, err)
	}
	if ixs := e.checkIndexes(ro, false); len(ixs) > 0 {
		ok, err := e.storedUnder(raw, &item, ixs)
		if err == nil && !ok {
			err = ErrNotFound
		}
		if err != nil {
			return zero, opErr("get", e.def.Type, k, err)
		}
	}
	return item, nil
}

func (e *Entity[T]) get(ctx context.Context, k Key, opts ...ReadOption) (T, int64, error) {
	v, ver, _, err := e.getRaw(ctx, k, opts...)
	return v, ver, err
}

// getRaw is get that also returns the stored item.
func (e *Entity[T]) getRaw(ctx context.Context, k Key, opts ...ReadOption) (T, int64, Item, error) {
	var zero T
	var ro readOpts
	for _, o := range opts {
		o(&ro)
	}
	if err := checkKey(k); err != nil {
		return zero, 0, nil, err
	}
	raw, err := e.t.getItem(ctx, e.def.Type, k, ro.consistent)
	if err != nil {
		return zero, 0, nil, err
	}
	if raw == nil || e.t.expired(raw) {
		return zero, 0, nil, ErrNotFound
	}
	v, ver, err := e.decode(raw)
	return v, ver, raw, err
}

// getItem is one GetItem; a missing item is nil, not an error.
func (t *Table) getItem(ctx context.Context, entity string, k Key, consistent bool) (Item, error) {
	start := time.Now()
	out, err := t.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:              aws.String(t.schema.Name),
		Key:                    t.keyItem(k),
		ConsistentRead:         aws.Bool(consistent),
		ReturnConsumedCapacity: t.wantCapacity(),
	})
	if err != nil {
		err = mapErr(err)
	}
	t.observe(ctx, Event{Op: "GetItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: capOf(out)})
	if err != nil {
		return nil, err
	}
	return out.Item, nil
}

func capOf(out *dynamodb.GetItemOutput) float64 {
	if out == nil {
		return 0
	}
	return capPtr(out.ConsumedCapacity)
}

// Create writes item if no item with its key exists; otherwise it returns
// [ErrAlreadyExists] (or [ErrUniqueViolation] when a unique value is held
// by another item). Guard items for its unique values are written in the
// same transaction. The item's version starts at 1.
//
// Under faults: an item past its TTL that DynamoDB has not deleted yet
// counts as absent, so Create takes its key, and a guard whose owner is
// missing or expired is taken over (conditioned on that owner staying
// absent, in the same transaction). A create whose response is lost after
// it was applied is retried by the SDK and returns success: the retry
// recognises its own write token (or the transaction's idempotency
// token), never [ErrAlreadyExists] for itself. Transaction conflicts are
// retried (see [Table.Transact]).
func (e *Entity[T]) Create(ctx context.Context, item *T) error {
	k, err := e.create(ctx, item, nil)
	return opErr("create", e.def.Type, k, err)
}

// create writes item and also (actions on other items) in one request: a
// PutItem when there is nothing else, else a transaction.
func (e *Entity[T]) create(ctx context.Context, item *T, also []TxOp) (Key, error) {
	ops, tok, err := e.newOps(item)
	if err != nil {
		return ops0Key(ops), err
	}
	k := ops[0].key
	if len(ops) == 1 && len(also) == 0 {
		if err := e.t.putItem(ctx, e.def.Type, ops[0].put, tok, ErrAlreadyExists); err != nil {
			return k, err
		}
	} else if err := e.t.transactGuarded(ctx, append(ops, also...), tok); err != nil {
		return k, txToCreateErr(err)
	}
	e.setVersion(item, 1)
	e.setRead(item, ops[0].put.Item)
	return k, nil
}

// CreateAlso is [Entity.Create] with also, actions on other items, in the
// same transaction (the counter shards of a new owner,
// [Counters.NewShardOps]): all are written or none. Its faults are
// Create's for a transaction.
func (e *Entity[T]) CreateAlso(ctx context.Context, item *T, also []TxOp) error {
	k, err := e.create(ctx, item, also)
	return opErr("create", e.def.Type, k, err)
}

func ops0Key(ops []TxOp) Key {
	if len(ops) == 0 {
		return Key{}
	}
	return ops[0].key
}

// newOps is createOps for a new item: Def.Touch stamps it first.
func (e *Entity[T]) newOps(item *T) ([]TxOp, string, error) {
	e.Touch(item)
	return e.createOps(item)
}

// createOps validates item and returns the conditional put that creates it
// (its key absent, or expired) and the puts of its guards, with the write
// token the put carries.
func (e *Entity[T]) createOps(item *T) ([]TxOp, string, error) {
	w, err := e.prepare(item, 1)
	if err == nil {
		err = e.keepReadForms(item, w.item)
	}
	if err != nil {
		return []TxOp{{key: w.key}}, "", err
	}
	var tok string
	if ta := e.t.schema.TokenAttr; ta != "" {
		tok = e.t.newToken()
		w.item[ta] = &types.AttributeValueMemberSS{Value: []string{tok}}
	}
	x := newExprs()
	c := e.t.absentCond(x)
	ops := []TxOp{{put: &types.Put{
		TableName:                 aws.String(e.t.schema.Name),
		Item:                      w.item,
		ConditionExpression:       aws.String(c),
		ExpressionAttributeNames:  x.names,
		ExpressionAttributeValues: x.vals(),
	}, key: w.key, what: e.def.Type}}
	for _, u := range w.uniques {
		ops = append(ops, e.t.guardPut(u, w.key, w.expires))
	}
	return ops, tok, nil
}

// txToCreateErr turns a canceled create transaction into ErrAlreadyExists
// (the item) or ErrUniqueViolation (a guard), keeping the TxError.
func txToCreateErr(err error) error {
	var te *TxError
	if !errors.As(err, &te) {
		return err
	}
	for _, r := range te.Reasons {
		if r.Code != "ConditionalCheckFailed" {
			continue
		}
		if r.Guard != "" {
			return fmt.Errorf("%w: %s %q: %w", ErrUniqueViolation, r.Guard, r.GuardValue, err)
		}
		return fmt.Errorf("%w: %w", ErrAlreadyExists, err)
	}
	return err
}

// Put writes item whether or not it exists (an upsert), replacing any
// previous item. Entities with unique values cannot be Put: use Create and
// Update, which keep their guards exact.
func (e *Entity[T]) Put(ctx context.Context, item *T) error {
	if e.fn.unique != nil {
		return opErr("put", e.def.Type, Key{}, fmt.Errorf("%w: %s has unique values; use Create or Update", ErrInvalidInput, e.def.Type))
	}
	now := e.t.now()
	if e.def.Touch != nil {
		e.def.Touch(item, now, false)
	}
	ver := e.putVersion(item)
	w, err := e.prepare(item, ver)
	if err == nil {
		err = e.keepReadForms(item, w.item)
	}
	if err != nil {
		return opErr("put", e.def.Type, w.key, err)
	}
	err = e.t.putItem(ctx, e.def.Type, &types.Put{TableName: aws.String(e.t.schema.Name), Item: w.item}, "", nil)
	if err == nil {
		e.setVersion(item, ver)
		e.setRead(item, w.item)
	}
	return opErr("put", e.def.Type, w.key, err)
}

// Replace writes item, the caller's whole intended state of an item it
// read, only if the stored item is still exactly what the caller read: in
// the same request, the write is conditioned on every attribute of the
// read image (carried with item in its [ReadState] field, like its
// version), not only on the version. A change by any writer since the
// read gives [ErrConflict]: another library write (which advances the
// version), and another service's PutItem or UpdateItem that never touches
// the version (PodcastFlow's scripts rewriting settings, Ferryhook's
// service removing an index key). Re-read and retry, or use
// [Entity.Update], which re-applies a change to what is stored.
//
// The write is one UpdateItem (a transaction when unique guards move)
// and sets only the attributes on which item differs from what was read,
// so attributes the Go type does not know are kept; an attribute another
// writer added since the read (absent from the image) is kept too, unless
// item sets it. A missing or expired item (or one of another entity
// type) gives [ErrNotFound]. On success the version field and the read
// state are advanced, so item can be replaced again.
//
// item must come from a read or a write of this entity (Get, List, a
// query, BatchGet, Create, Update, Patch, Replace): a T without a
// ReadState field, or an item built by hand, is refused with
// [ErrInvalidInput] before any request; the primary key cannot change. An
// item with more than 150 attributes is conditioned by a strongly
// consistent GetItem compared with the read image, then the write
// conditioned on the attributes it changes (DynamoDB's 4 KB expression
// limit): two requests.
//
// Under faults: a replace whose response was lost and that the SDK
// retried returns success (the retry meets its own write token). When the
// call itself fails after DynamoDB applied the write (every attempt's
// response lost, a deadline), item's read state is not advanced, so the
// caller's own retry of the same item gets [ErrConflict] on its own write:
// the stored item no longer matches the image item carries. Callers tell
// it from another writer's change by re-reading: if the stored item equals
// the one they meant to write (its version aside), their write landed;
// otherwise someone else wrote. Update does not need this: it re-reads
// and re-applies its change. (TestLostResponseReplace.)
func (e *Entity[T]) Replace(ctx context.Context, item *T) error {
	if e.readIdx == nil {
		return opErr("replace", e.def.Type, Key{}, fmt.Errorf("%w: %s has no table.ReadState field: Replace must know what the caller read", ErrInvalidInput, e.def.Type))
	}
	k, err := e.KeyOf(item)
	if err != nil {
		return opErr("replace", e.def.Type, k, err)
	}
	if e.def.Validate != nil {
		if err := e.def.Validate(item); err != nil {
			return opErr("replace", e.def.Type, k, err)
		}
	}
	image := e.readOf(item)
	if image == nil {
		return opErr("replace", e.def.Type, k, fmt.Errorf("%w: the %s carries no read state: pass an item from a read (Get, List) or write it with Update or Upsert", ErrInvalidInput, e.def.Type))
	}
	if rk := e.t.keyFromItem(image); rk != k {
		return opErr("replace", e.def.Type, k, &ValidationError{Entity: e.def.Type, Field: "key", Reason: fmt.Sprintf("the item was read as %s/%s: a replace cannot change the primary key", rk.PK, rk.SK), Key: true})
	}
	orig, ver, err := e.decode(image)
	if err != nil {
		return opErr("replace", e.def.Type, k, err)
	}
	wctx := context.WithValue(ctx, wholeImageKey{}, true)
	if len(e.t.imageAttrs(image)) > maxImageConds {
		cur, err := e.t.getItem(ctx, e.def.Type, k, true)
		switch {
		case err != nil:
			return opErr("replace", e.def.Type, k, err)
		case cur == nil || e.t.expired(cur) || !e.t.isType(cur, e.def.Type):
			return opErr("replace", e.def.Type, k, ErrNotFound)
		case !e.t.sameImage(cur, image):
			return opErr("replace", e.def.Type, k, fmt.Errorf("%w: the stored item changed since it was read", ErrConflict))
		}
		wctx, image = ctx, cur
	}
	err = e.writeDiff(wctx, k, &orig, image, ver, item, false)
	return opErr("replace", e.def.Type, k, err)
}

// Update reads the item with key k, applies change to it, and writes back
// what change changed, only if nobody wrote it in between. It is one
// strongly consistent GetItem and one UpdateItem (a transaction when
// unique guards move), and the write:
//
//   - sets and removes only the attributes whose value change changed;
//     attributes the Go type does not know, NULLs, and the stored form of
//     unchanged fields are kept byte for byte;
//   - is conditioned on the item being live and of this type, on the
//     stored values of exactly the attributes it changes, and on the
//     version attribute (items written by other services have none and
//     count as version 0): a concurrent change to the same attributes, or
//     by another library writer, is a lost race: Update re-reads and
//     re-applies change, up to Options.ConflictRetries times, so concurrent
//     updates are never lost; another service's change to other attributes
//     is kept;
//   - moves GSI keys and unique guards whose source fields changed, in the
//     same request; index keys of unchanged fields stay as stored.
//
// A missing or expired item gives [ErrNotFound]; the primary key cannot
// change. It returns the item as written.
//
// Under faults: a write whose response was lost and that the SDK retried
// is recognised by its write token and counts as done, so change is never
// applied twice for one call; a transaction conflict is a lost race.
func (e *Entity[T]) Update(ctx context.Context, k Key, change func(*T) error) (T, error) {
	return e.updateScoped(ctx, k, nil, change)
}

// requireKey carries the items an update's write requires to exist.
type requireKey struct{}

// UpdateRequiring is [Entity.Update] whose write also requires each item
// of require (keys in the same table) to exist, checked by a
// ConditionCheck in the same transaction: no read before it, so an item
// deleted in between is noticed (a user moved to an organization that is
// being deleted). A missing required item gives [ErrNotFound] naming its
// key. The write is then a transaction: one request, as an UpdateItem.
func (e *Entity[T]) UpdateRequiring(ctx context.Context, k Key, require []Key, change func(*T) error) (T, error) {
	var ops []TxOp
	for _, rk := range require {
		if err := checkKey(rk); err != nil {
			var zero T
			return zero, opErr("update", e.def.Type, k, err)
		}
		ops = append(ops, e.t.ConditionOp(rk))
	}
	return e.updateScoped(context.WithValue(ctx, requireKey{}, ops), k, nil, change)
}

// updateScoped is Update, restricted to scope's tenant when scope is set.
func (e *Entity[T]) updateScoped(ctx context.Context, k Key, scope *Scoped[T], change func(*T) error) (T, error) {
	var zero T
	for attempt := 0; ; attempt++ {
		orig, ver, raw, err := e.getRaw(ctx, k, Consistent())
		if err == nil && scope != nil && !scope.owns(raw) {
			err = ErrNotFound
		}
		if err != nil {
			return zero, opErr("update", e.def.Type, k, err)
		}
		cur, err := e.decodeCopy(raw)
		if err != nil {
			return zero, opErr("update", e.def.Type, k, err)
		}
		if err := change(&cur); err != nil {
			return zero, opErr("update", e.def.Type, k, err)
		}
		if scope != nil {
			if got, err := scope.scopeOf(&cur); err != nil || got != scope.scope {
				return zero, opErr("update", e.def.Type, k, &ValidationError{Entity: e.def.Type, Field: e.def.Scope, Reason: "the tenant of an item cannot change"})
			}
		}
		nk, err := e.KeyOf(&cur)
		if err != nil {
			return zero, opErr("update", e.def.Type, k, err)
		}
		if nk != k {
			return zero, opErr("update", e.def.Type, k, &ValidationError{Entity: e.def.Type, Field: "key", Reason: "an update cannot change the primary key", Key: true})
		}
		wctx := ctx
		if scope != nil {
			wctx = context.WithValue(ctx, scopeKey{}, scopeCond{attr: e.def.Scope, value: scope.scope})
		}
		err = e.writeDiff(wctx, k, &orig, raw, ver, &cur, false)
		if errors.Is(err, ErrConflict) && attempt < e.t.opts.ConflictRetries {
			if err := sleepCtx(ctx, backoff(attempt, 5*time.Millisecond, 200*time.Millisecond)); err != nil {
				return zero, opErr("update", e.def.Type, k, err)
			}
			continue
		}
		if err != nil {
			return zero, opErr("update", e.def.Type, k, err)
		}
		return cur, nil
	}
}

// decodeCopy decodes raw again: a copy change may modify without touching
// the original (slices and maps are not shared).
func (e *Entity[T]) decodeCopy(raw Item) (T, error) {
	v, _, err := e.decode(raw)
	return v, err
}

// writeDiff writes cur over orig, the item decoded from raw at version
// ver: SET and REMOVE of the attributes whose encoded value differs, the
// index keys and TTL derived from changed fields, the version and write
// tokens, and the guard moves, conditioned as [Entity.Update] says. An
// item written by another service (version 0) gets guards only for the
// unique values this write sets, unless ensureAll (see EnsureGuards): a
// duplicate already in the data never blocks a write of other fields.
func (e *Entity[T]) writeDiff(ctx context.Context, k Key, orig *T, raw Item, ver int64, cur *T, ensureAll bool) error {
	return e.writeDiffOpts(ctx, k, orig, raw, ver, cur, ensureAll, false)
}

// writeDiffOpts is writeDiff; noTouch leaves Def.Touch's fields alone (an
// adoption pass is not an update of the item).
func (e *Entity[T]) writeDiffOpts(ctx context.Context, k Key, orig *T, raw Item, ver int64, cur *T, ensureAll, noTouch bool) error {
	if e.def.Touch != nil && !noTouch {
		e.def.Touch(cur, e.t.now(), false)
	}
	keepExtra(orig, cur)
	w, err := e.prepareV(cur, ver+1, false)
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
		if _, had := plainOld[a]; had && !avEqual(plainOld[a], plainNew[a]) {
			return &ValidationError{Entity: e.def.Type, Field: a, Reason: "fixed at creation (Def.Fixed or Def.Scope): an update cannot change it"}
		}
	}
	s := e.t.schema
	x := newExprs()
	cond := []string{e.t.liveCond(x, e.def.Type), e.t.versionCond(x, ver)}
	if sc, ok := ctx.Value(scopeKey{}).(scopeCond); ok {
		x.names["#scope"] = sc.attr
		x.values[":scope"] = &types.AttributeValueMemberS{Value: sc.value}
		cond = append(cond, "#scope = :scope")
	}
	var sets, removes []string
	setVals, removed := Item{}, []string(nil) // by attribute name: the image after the write
	n := 0
	ph := func(attr string) string {
		n++
		p := "#a" + strconv.Itoa(n)
		x.names[p] = attr
		return p
	}
	val := func(v types.AttributeValue) string {
		n++
		p := ":a" + strconv.Itoa(n)
		x.values[p] = v
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
	for _, attr := range sortedKeys(unionKeys(plainOld, plainNew)) {
		if managed[attr] || avEqual(plainOld[attr], plainNew[attr]) {
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
	resealed := map[string]bool{}
	for path := range e.def.Secrets {
		attr := secretTop(path)
		if !resealed[attr] && e.t.needsSeal(raw, path) && w.item[attr] != nil && avEqual(plainOld[attr], plainNew[attr]) {
			resealed[attr] = true
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
	for _, attr := range sortedKeys(unionKeys(derivedOld, w.derived)) {
		if revoked && valid[attr] {
			continue
		}
		nv, has := w.item[attr]
		_, stored := raw[attr]
		changed := !avEqual(derivedOld[attr], w.derived[attr]) || moved[attr]
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
	sets = append(sets, "#v = "+val(numAV(ver+1)))
	setVals[s.VersionAttr] = numAV(ver + 1)
	var tok string
	if s.TokenAttr != "" {
		tok = e.t.newToken()
		setVals[s.TokenAttr] = e.t.carryTokens(raw, tok)
		sets = append(sets, ph(s.TokenAttr)+" = "+val(setVals[s.TokenAttr]))
	}
	// Replace: the stored item must still be the image the caller read,
	// every attribute of it, not only those this write changes.
	if whole, _ := ctx.Value(wholeImageKey{}).(bool); whole {
		for _, attr := range e.t.imageAttrs(raw) {
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
		Key:                       e.t.keyItem(k),
		UpdateExpression:          aws.String(ex),
		ConditionExpression:       aws.String(strings.Join(cond, " AND ")),
		ExpressionAttributeNames:  x.names,
		ExpressionAttributeValues: x.vals(),
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
	guards := e.t.guardDiff(oldUniques, newUniques, k, w.expires, rewriteKept)
	ops := append([]TxOp{{update: up, key: k, what: e.def.Type}}, guards...)
	if req, ok := ctx.Value(requireKey{}).([]TxOp); ok {
		ops = append(ops, req...)
	}
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
			err = e.t.updateItem(ctx, e.def.Type, up, tok)
		} else {
			err = txToUpdateErr(e.t.transactGuarded(ctx, ops, tok))
		}
		var te *TxError
		if round > 1 || !errors.Is(err, ErrUniqueViolation) || !errors.As(err, &te) {
			break
		}
		next := ops[:1:1]
		dropped := false
		for i, op := range ops[1:] {
			if i+1 < len(te.Reasons) && te.Reasons[i+1].Code == "ConditionalCheckFailed" && op.guard.Name != "" &&
				(op.del != nil || unchanged[op.guard]) {
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
		e.setRead(cur, afterImage(raw, setVals, removed))
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
		if field == "" || ve.Key || !avEqual(plainOld[field], plainNew[field]) {
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
			is, err := s.index(i)
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
			out[s.TTLAttr] = numAV(exp.Unix())
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

func unionKeys(a, b Item) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// avEqual reports whether two attribute values are equal (sets compared
// as sets).
func avEqual(a, b types.AttributeValue) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch a := a.(type) {
	case *types.AttributeValueMemberSS:
		if b, ok := b.(*types.AttributeValueMemberSS); ok {
			return sameSet(a.Value, b.Value)
		}
		return false
	case *types.AttributeValueMemberNS:
		if b, ok := b.(*types.AttributeValueMemberNS); ok {
			return sameSet(a.Value, b.Value)
		}
		return false
	}
	return reflect.DeepEqual(a, b)
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := make(map[string]bool, len(a))
	for _, s := range a {
		m[s] = true
	}
	for _, s := range b {
		if !m[s] {
			return false
		}
	}
	return true
}

// updateItem sends u as one UpdateItem. A failed condition whose returned
// item carries write token tok is this write, applied by an attempt whose
// response was lost: success. A missing, expired or foreign-typed item is
// [ErrNotFound]; any other failure [ErrConflict].
func (t *Table) updateItem(ctx context.Context, entity string, u *types.Update, tok string) error {
	start := time.Now()
	out, err := t.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                           u.TableName,
		Key:                                 u.Key,
		UpdateExpression:                    u.UpdateExpression,
		ConditionExpression:                 u.ConditionExpression,
		ExpressionAttributeNames:            u.ExpressionAttributeNames,
		ExpressionAttributeValues:           u.ExpressionAttributeValues,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		ReturnConsumedCapacity:              t.wantCapacity(),
	})
	if err != nil {
		err = mapErr(err)
		err = t.classifyCondFailure(err, entity, tok, nil)
	}
	var c float64
	if out != nil {
		c = capPtr(out.ConsumedCapacity)
	}
	t.observe(ctx, Event{Op: "UpdateItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: c})
	return err
}

// versionCond returns the condition "the stored version is v" (an item
// written without a version attribute counts as version 0).
func (t *Table) versionCond(x exprs, v int64) string {
	x.names["#v"] = t.schema.VersionAttr
	x.values[":v"] = numAV(v)
	if v == 0 {
		return "(attribute_not_exists(#v) OR #v = :v)"
	}
	return "#v = :v"
}

func txToUpdateErr(err error) error {
	var te *TxError
	if !errors.As(err, &te) {
		return err
	}
	for _, r := range te.Reasons {
		switch {
		case r.Code == "ConditionalCheckFailed" && r.Entity == "check":
			return fmt.Errorf("%w: required item %s/%s: %w", ErrNotFound, r.Key.PK, r.Key.SK, err)
		case r.Code == "ConditionalCheckFailed" && r.Guard != "":
			return fmt.Errorf("%w: %s %q: %w", ErrUniqueViolation, r.Guard, r.GuardValue, err)
		case r.Code == "ConditionalCheckFailed", r.Code == "TransactionConflict":
			return fmt.Errorf("%w: %w", ErrConflict, err)
		}
	}
	return err
}

// Delete deletes the item with key k and its unique guards. A missing or
// expired item, or one of another entity type, gives [ErrNotFound].
//
// Under faults: a delete whose response was lost after it was applied may
// report [ErrNotFound] when the SDK's retry finds the item gone; the item
// is deleted either way.
func (e *Entity[T]) Delete(ctx context.Context, k Key) error {
	return opErr("delete", e.def.Type, k, e.delete(ctx, k))
}

func (e *Entity[T]) delete(ctx context.Context, k Key) error {
	if err := checkKey(k); err != nil {
		return err
	}
	if e.fn.unique == nil {
		return e.t.deleteItem(ctx, e.def.Type, k)
	}
	for attempt := 0; ; attempt++ {
		ops, err := e.DeleteOps(ctx, k)
		if err != nil {
			return err
		}
		err = txToUpdateErr(e.t.Transact(ctx, ops...))
		if errors.Is(err, ErrConflict) && attempt < e.t.opts.ConflictRetries {
			continue
		}
		return err
	}
}

// DeleteOps reads the item with key k (strongly consistent) and returns
// the transaction actions that delete it and release its unique guards,
// conditioned on the version read: add them to a transaction of your own.
// A missing or expired item gives [ErrNotFound].
func (e *Entity[T]) DeleteOps(ctx context.Context, k Key) ([]TxOp, error) {
	cur, ver, err := e.get(ctx, k, Consistent())
	if err != nil {
		return nil, err
	}
	x := newExprs()
	c := e.t.liveCond(x, e.def.Type) + " AND " + e.t.versionCond(x, ver)
	ops := []TxOp{{del: &types.Delete{
		TableName:                 aws.String(e.t.schema.Name),
		Key:                       e.t.keyItem(k),
		ConditionExpression:       aws.String(c),
		ExpressionAttributeNames:  x.names,
		ExpressionAttributeValues: x.vals(),
	}, key: k, what: e.def.Type}}
	if e.fn.unique != nil {
		ops = append(ops, e.t.guardDiff(e.fn.unique(&cur), nil, k, 0, false)...)
	}
	return ops, nil
}

// DeleteOp returns a transaction action that deletes the item with key k
// if it exists, is live and is of this entity type. Entities with unique
// values cannot be deleted without their guards: for them the action fails
// validation when the transaction is sent; use [Entity.DeleteOps].
func (e *Entity[T]) DeleteOp(k Key) TxOp {
	if e.fn.unique != nil {
		return TxOp{key: k, what: e.def.Type, err: &ValidationError{Entity: e.def.Type, Field: "entity",
			Reason: "has unique values; use DeleteOps so its guards are released in the same transaction"}}
	}
	x := newExprs()
	c := e.t.liveCond(x, e.def.Type)
	return TxOp{del: &types.Delete{
		TableName:                 aws.String(e.t.schema.Name),
		Key:                       e.t.keyItem(k),
		ConditionExpression:       aws.String(c),
		ExpressionAttributeNames:  x.names,
		ExpressionAttributeValues: x.vals(),
	}, key: k, what: e.def.Type}
}

// DeleteVersionOp is [Entity.DeleteOp] that also requires the stored
// version to equal version: it deletes exactly the item the caller read,
// so a transaction can act on what it saw (a counter decremented only for
// a live item, say). A stale version fails the transaction's condition.
func (e *Entity[T]) DeleteVersionOp(k Key, version int64) TxOp {
	op := e.DeleteOp(k)
	if op.err != nil {
		return op
	}
	x := newExprs()
	c := e.t.liveCond(x, e.def.Type) + " AND " + e.t.versionCond(x, version)
	op.del.ConditionExpression = aws.String(c)
	op.del.ExpressionAttributeNames = x.names
	op.del.ExpressionAttributeValues = x.vals()
	return op
}

// CreateOp returns a transaction action that creates item (failing if its
// key holds a live item), plus the actions that write its unique guards.
func (e *Entity[T]) CreateOp(item *T) ([]TxOp, error) {
	ops, _, err := e.newOps(item)
	if err != nil {
		return nil, opErr("create", e.def.Type, ops0Key(ops), err)
	}
	e.setVersion(item, 1)
	return ops, nil
}

// PutOp returns a transaction (or batch) action that writes item
// unconditionally. Entities with unique values are refused.
func (e *Entity[T]) PutOp(item *T) (TxOp, error) {
	if e.fn.unique != nil {
		return TxOp{}, fmt.Errorf("%w: %s has unique values; use CreateOp", ErrInvalidInput, e.def.Type)
	}
	if e.def.Touch != nil {
		e.def.Touch(item, e.t.now(), false)
	}
	ver := e.putVersion(item)
	w, err := e.prepare(item, ver)
	if err == nil {
		err = e.keepReadForms(item, w.item)
	}
	if err != nil {
		return TxOp{}, opErr("put", e.def.Type, w.key, err)
	}
	e.setVersion(item, ver)
	return TxOp{put: &types.Put{TableName: aws.String(e.t.schema.Name), Item: w.item}, key: w.key, what: e.def.Type}, nil
}

// putVersion is the version an unconditional put stamps: never one an
// optimistic writer may have read before it (a put writing back version 1
// over version 1 would let a stale Update or Replace through). It is the
// item's version plus one, or the clock in microseconds if that is larger.
func (e *Entity[T]) putVersion(item *T) int64 {
	return max(e.versionOf(item)+1, e.t.now().UnixMicro())
}

func (e *Entity[T]) versionOf(item *T) int64 {
	if e.def.Version == nil {
		return 0
	}
	return *e.def.Version(item)
}

func (e *Entity[T]) setVersion(item *T, v int64) {
	if e.def.Version != nil {
		*e.def.Version(item) = v
	}
}

// putItem sends p as one PutItem. On a failed condition it looks at the
// item DynamoDB returns with the failure: one carrying write token tok is
// this write, applied by an earlier attempt whose response was lost
// (success); one missing, expired or of another entity type is
// [ErrNotFound]; otherwise the failure is onFail ([ErrConflict] if nil).
func (t *Table) putItem(ctx context.Context, entity string, p *types.Put, tok string, onFail error) error {
	start := time.Now()
	in := &dynamodb.PutItemInput{
		TableName:                 p.TableName,
		Item:                      p.Item,
		ConditionExpression:       p.ConditionExpression,
		ExpressionAttributeNames:  p.ExpressionAttributeNames,
		ExpressionAttributeValues: p.ExpressionAttributeValues,
		ReturnConsumedCapacity:    t.wantCapacity(),
	}
	if p.ConditionExpression != nil {
		in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	out, err := t.client.PutItem(ctx, in)
	if err != nil {
		err = mapErr(err)
		err = t.classifyCondFailure(err, entity, tok, onFail)
	}
	var c float64
	if out != nil {
		c = capPtr(out.ConsumedCapacity)
	}
	t.observe(ctx, Event{Op: "PutItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: c})
	return err
}

// classifyCondFailure explains a failed condition of a single-item write
// from the item DynamoDB returned with it: one carrying write token tok is
// this write, applied by an attempt whose response was lost (nil); else
// onFail if set; a missing, expired or foreign-typed item is ErrNotFound;
// anything else a lost race (ErrConflict). Other errors pass through.
func (t *Table) classifyCondFailure(err error, entity, tok string, onFail error) error {
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		return err
	}
	switch {
	case t.hasToken(ccf.Item, tok):
		return nil
	case onFail != nil:
		return onFail
	case ccf.Item == nil || t.expired(ccf.Item) || !t.isType(ccf.Item, entity):
		return ErrNotFound
	}
	return fmt.Errorf("%w: %w", ErrConflict, err)
}

// isType reports whether raw is of entity type typ, or carries no type.
func (t *Table) isType(raw Item, typ string) bool {
	if t.schema.TypeAttr == "" {
		return true
	}
	s, ok := raw[t.schema.TypeAttr].(*types.AttributeValueMemberS)
	return !ok || s.Value == typ
}

func (t *Table) deleteItem(ctx context.Context, entity string, k Key) error {
	x := newExprs()
	return t.deleteItemCond(ctx, entity, k, t.liveCond(x, entity), x)
}

// scopeKey carries a tenant condition to writeDiff (see Scoped.Update).
type scopeKey struct{}

type scopeCond struct{ attr, value string }

// deleteItemCond is one DeleteItem with condition c (placeholders in x); a
// failed condition is ErrNotFound.
func (t *Table) deleteItemCond(ctx context.Context, entity string, k Key, c string, x exprs) error {
	start := time.Now()
	out, err := t.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 aws.String(t.schema.Name),
		Key:                       t.keyItem(k),
		ConditionExpression:       aws.String(c),
		ExpressionAttributeNames:  x.names,
		ExpressionAttributeValues: x.vals(),
		ReturnConsumedCapacity:    t.wantCapacity(),
	})
	if err != nil {
		err = mapErr(err)
		if errors.Is(err, ErrConditionFailed) {
			err = ErrNotFound
		}
	}
	var c2 float64
	if out != nil {
		c2 = capPtr(out.ConsumedCapacity)
	}
	t.observe(ctx, Event{Op: "DeleteItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: c2})
	return err
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}

// fixedAttrs returns the attributes no write may change after creation.
func (e *Entity[T]) fixedAttrs() []string {
	if e.def.Scope == "" {
		return e.def.Fixed
	}
	return append(e.def.Fixed[:len(e.def.Fixed):len(e.def.Fixed)], e.def.Scope)
}
