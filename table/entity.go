package table

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Def describes how one entity type T is stored in a single table: its type
// name, how its keys derive from its fields, and its rules. Only Type and
// Key are required.
type Def[T any] struct {
	// Type is the value of the entity-type attribute ("User", "Source").
	Type string
	// Key derives the item's primary key from its fields.
	Key func(*T) (Key, error)
	// Indexes derives the item's GSI keys from its fields. An index left
	// out, or with an empty PK, does not hold the item (sparse index).
	// Keys are recomputed on every write, so an update that changes a field
	// an index derives from moves the index entry in the same write.
	Indexes func(*T) (map[Index]IndexKey, error)
	// Validate checks the item before any write; return a
	// *[ValidationError] (see [Invalid]) naming the field.
	Validate func(*T) error
	// Unique lists the item's unique values (emails, usernames, tags, key
	// hashes). Each is held by a guard item written in the same
	// transaction as the item; create, change and delete keep guards exact.
	Unique func(*T) []Unique
	// Expires returns when the item expires (zero: never). It is stored in
	// the schema's TTL attribute as epoch seconds; reads never return an
	// item past it.
	Expires func(*T) time.Time
	// Touch is called before every write with the current time; created
	// is true on create. Use it to keep createdAt/updatedAt.
	Touch func(item *T, now time.Time, created bool)
	// Version, if set, returns a pointer to the field that mirrors the
	// item's version attribute: it is filled on read and advanced on write,
	// and [Entity.Replace] uses it as the expected version.
	Version func(*T) *int64
	// IndexedFields names the attributes that Indexes or Unique derive
	// from. [Entity.Patch] refuses to change them (use [Entity.Update],
	// which recomputes keys and guards).
	IndexedFields []string
	// Secrets maps attribute names to the string fields that hold secrets
	// (credentials, tokens, MFA secrets). They are encrypted with
	// Options.Cipher before any write, bound to the item's key and the
	// attribute name, and decrypted on read; Patch refuses them. Without a
	// cipher, writing a non-empty secret fails with [ErrNoCipher]: a
	// plaintext secret never reaches DynamoDB.
	Secrets map[string]func(*T) *string
	// Match recognizes this entity's items by primary key. It is used for
	// items that carry no entity-type attribute (written by another
	// service in a documented key format), so a collection query can still
	// decode them.
	Match func(Key) bool
}

// Entity reads and writes items of type T in a [Table]. Create one per
// entity type with [NewEntity]; it is safe for concurrent use.
type Entity[T any] struct {
	t   *Table
	def Def[T]
}

// NewEntity binds def to table t. It panics if def has no Type or Key:
// that is a programming error, not a runtime condition.
func NewEntity[T any](t *Table, def Def[T]) *Entity[T] {
	if def.Type == "" || def.Key == nil {
		panic("table.NewEntity: Def.Type and Def.Key are required")
	}
	return &Entity[T]{t: t, def: def}
}

// Type returns the entity-type name.
func (e *Entity[T]) Type() string { return e.def.Type }

// Table returns the table the entity lives in.
func (e *Entity[T]) Table() *Table { return e.t }

// KeyOf returns the primary key derived from item's fields.
func (e *Entity[T]) KeyOf(item *T) (Key, error) {
	k, err := e.def.Key(item)
	if err != nil {
		return Key{}, err
	}
	return k, checkKey(k)
}

// ReadOption changes a read.
type ReadOption func(*readOpts)

type readOpts struct{ consistent bool }

// Consistent asks for a strongly consistent read (table reads only).
func Consistent() ReadOption { return func(o *readOpts) { o.consistent = true } }

// Get returns the item with key k. A missing item, or one past its TTL,
// gives [ErrNotFound].
func (e *Entity[T]) Get(ctx context.Context, k Key, opts ...ReadOption) (T, error) {
	var zero T
	item, _, err := e.get(ctx, k, opts...)
	if err != nil {
		return zero, opErr("get", e.def.Type, k, err)
	}
	return item, nil
}

func (e *Entity[T]) get(ctx context.Context, k Key, opts ...ReadOption) (T, int64, error) {
	var zero T
	var ro readOpts
	for _, o := range opts {
		o(&ro)
	}
	if err := checkKey(k); err != nil {
		return zero, 0, err
	}
	start := time.Now()
	out, err := e.t.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:              aws.String(e.t.schema.Name),
		Key:                    e.t.keyItem(k),
		ConsistentRead:         aws.Bool(ro.consistent),
		ReturnConsumedCapacity: e.t.wantCapacity(),
	})
	if err != nil {
		err = mapErr(err)
	}
	e.t.observe(ctx, Event{Op: "GetItem", Entity: e.def.Type, Duration: time.Since(start), Err: err, Capacity: capOf(out)})
	if err != nil {
		return zero, 0, err
	}
	if out.Item == nil || e.t.expired(out.Item) {
		return zero, 0, ErrNotFound
	}
	v, ver, err := e.decode(out.Item)
	return v, ver, err
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
func (e *Entity[T]) Create(ctx context.Context, item *T) error {
	k, err := e.create(ctx, item)
	return opErr("create", e.def.Type, k, err)
}

func (e *Entity[T]) create(ctx context.Context, item *T) (Key, error) {
	now := e.t.now()
	if e.def.Touch != nil {
		e.def.Touch(item, now, true)
	}
	w, err := e.prepare(item, 1)
	if err != nil {
		return w.key, err
	}
	ops := []TxOp{{put: &types.Put{
		TableName:           aws.String(e.t.schema.Name),
		Item:                w.item,
		ConditionExpression: aws.String("attribute_not_exists(#pk)"),
		ExpressionAttributeNames: map[string]string{
			"#pk": e.t.schema.PK,
		},
	}, key: w.key, what: e.def.Type}}
	for _, u := range w.uniques {
		ops = append(ops, e.t.guardPut(u, w.key))
	}
	if len(ops) == 1 {
		if err := e.t.putItem(ctx, e.def.Type, ops[0].put); err != nil {
			return w.key, err
		}
	} else if err := e.t.Transact(ctx, ops...); err != nil {
		return w.key, txToCreateErr(err)
	}
	e.setVersion(item, 1)
	return w.key, nil
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
	if e.def.Unique != nil {
		return opErr("put", e.def.Type, Key{}, fmt.Errorf("%w: %s has unique values; use Create or Update", ErrInvalidInput, e.def.Type))
	}
	now := e.t.now()
	if e.def.Touch != nil {
		e.def.Touch(item, now, false)
	}
	ver := e.putVersion(item)
	w, err := e.prepare(item, ver)
	if err != nil {
		return opErr("put", e.def.Type, w.key, err)
	}
	err = e.t.putItem(ctx, e.def.Type, &types.Put{TableName: aws.String(e.t.schema.Name), Item: w.item})
	if err == nil {
		e.setVersion(item, ver)
	}
	return opErr("put", e.def.Type, w.key, err)
}

// Replace writes item only if the stored item has the version that
// Def.Version reports for item (optimistic concurrency); a stale version
// gives [ErrConflict], a missing item [ErrNotFound]. On success the
// version field is advanced. Unique guards are kept exact.
func (e *Entity[T]) Replace(ctx context.Context, item *T) error {
	if e.def.Version == nil {
		return opErr("replace", e.def.Type, Key{}, fmt.Errorf("%w: %s has no Def.Version field", ErrInvalidInput, e.def.Type))
	}
	k, err := e.KeyOf(item)
	if err != nil {
		return opErr("replace", e.def.Type, k, err)
	}
	expect := *e.def.Version(item)
	var old T
	var oldUniques []Unique
	if e.def.Unique != nil {
		o, ver, err := e.get(ctx, k, Consistent())
		if err != nil {
			return opErr("replace", e.def.Type, k, err)
		}
		if ver != expect {
			return opErr("replace", e.def.Type, k, ErrConflict)
		}
		old = o
		oldUniques = e.heldUniques(&old, ver)
	}
	err = e.write(ctx, item, expect, oldUniques)
	return opErr("replace", e.def.Type, k, err)
}

// Update reads the item with key k, applies change to it, and writes it
// back only if nobody wrote it in between (optimistic concurrency on the
// version attribute). On a lost race it re-reads and re-applies change,
// up to Options.ConflictRetries times, so concurrent updates are never
// lost. GSI keys and unique guards are recomputed from the changed item in
// the same write. A missing item gives [ErrNotFound]; the primary key
// cannot change. It returns the item as written.
func (e *Entity[T]) Update(ctx context.Context, k Key, change func(*T) error) (T, error) {
	var zero T
	for attempt := 0; ; attempt++ {
		cur, ver, err := e.get(ctx, k, Consistent())
		if err != nil {
			return zero, opErr("update", e.def.Type, k, err)
		}
		oldUniques := e.heldUniques(&cur, ver)
		if err := change(&cur); err != nil {
			return zero, opErr("update", e.def.Type, k, err)
		}
		nk, err := e.KeyOf(&cur)
		if err != nil {
			return zero, opErr("update", e.def.Type, k, err)
		}
		if nk != k {
			return zero, opErr("update", e.def.Type, k, &ValidationError{Entity: e.def.Type, Field: "key", Reason: "an update cannot change the primary key", Key: true})
		}
		err = e.write(ctx, &cur, ver, oldUniques)
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

// heldUniques returns the unique values whose guards the stored item (at
// version ver) holds. An item at version 0 was written outside the library
// (the library starts at 1) and holds none yet, so the next write creates
// them; a guard already held by its owner is rewritten harmlessly.
func (e *Entity[T]) heldUniques(item *T, ver int64) []Unique {
	if e.def.Unique == nil || ver == 0 {
		return nil
	}
	return e.def.Unique(item)
}

// write stores item if the stored version is expect, replacing guards
// oldUniques with the item's current ones.
func (e *Entity[T]) write(ctx context.Context, item *T, expect int64, oldUniques []Unique) error {
	if e.def.Touch != nil {
		e.def.Touch(item, e.t.now(), false)
	}
	w, err := e.prepare(item, expect+1)
	if err != nil {
		return err
	}
	put := &types.Put{
		TableName:                 aws.String(e.t.schema.Name),
		Item:                      w.item,
		ConditionExpression:       aws.String(versionCond(expect)),
		ExpressionAttributeNames:  map[string]string{"#pk": e.t.schema.PK, "#v": e.t.schema.VersionAttr},
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": numAV(expect)},
	}
	ops := []TxOp{{put: put, key: w.key, what: e.def.Type}}
	ops = append(ops, e.t.guardDiff(oldUniques, w.uniques, w.key)...)
	if len(ops) == 1 {
		err = e.t.putItem(ctx, e.def.Type, put)
		if errors.Is(err, ErrConditionFailed) {
			err = ErrConflict
		}
	} else {
		err = e.t.Transact(ctx, ops...)
		err = txToUpdateErr(err)
	}
	if err == nil {
		e.setVersion(item, expect+1)
	}
	return err
}

// versionCond holds when the item exists at version v (an item written
// without a version attribute counts as version 0).
func versionCond(v int64) string {
	if v == 0 {
		return "attribute_exists(#pk) AND (attribute_not_exists(#v) OR #v = :v)"
	}
	return "attribute_exists(#pk) AND #v = :v"
}

func txToUpdateErr(err error) error {
	var te *TxError
	if !errors.As(err, &te) {
		return err
	}
	for _, r := range te.Reasons {
		switch {
		case r.Code == "ConditionalCheckFailed" && r.Guard != "":
			return fmt.Errorf("%w: %s %q: %w", ErrUniqueViolation, r.Guard, r.GuardValue, err)
		case r.Code == "ConditionalCheckFailed", r.Code == "TransactionConflict":
			return fmt.Errorf("%w: %w", ErrConflict, err)
		}
	}
	return err
}

// Delete deletes the item with key k and its unique guards. A missing item
// gives [ErrNotFound].
func (e *Entity[T]) Delete(ctx context.Context, k Key) error {
	return opErr("delete", e.def.Type, k, e.delete(ctx, k))
}

func (e *Entity[T]) delete(ctx context.Context, k Key) error {
	if err := checkKey(k); err != nil {
		return err
	}
	if e.def.Unique == nil {
		return e.t.deleteItem(ctx, e.def.Type, k)
	}
	for attempt := 0; ; attempt++ {
		cur, ver, err := e.get(ctx, k, Consistent())
		if err != nil {
			return err
		}
		ops := []TxOp{{del: &types.Delete{
			TableName:                 aws.String(e.t.schema.Name),
			Key:                       e.t.keyItem(k),
			ConditionExpression:       aws.String(versionCond(ver)),
			ExpressionAttributeNames:  map[string]string{"#pk": e.t.schema.PK, "#v": e.t.schema.VersionAttr},
			ExpressionAttributeValues: map[string]types.AttributeValue{":v": numAV(ver)},
		}, key: k, what: e.def.Type}}
		ops = append(ops, e.t.guardDiff(e.def.Unique(&cur), nil, k)...)
		err = txToUpdateErr(e.t.Transact(ctx, ops...))
		if errors.Is(err, ErrConflict) && attempt < e.t.opts.ConflictRetries {
			continue
		}
		return err
	}
}

// DeleteOp returns a transaction action that deletes the item with key k
// if it exists. It does not touch unique guards: use it for entities
// without unique values, or add the guard deletes yourself.
func (e *Entity[T]) DeleteOp(k Key) TxOp {
	return TxOp{del: &types.Delete{
		TableName:                aws.String(e.t.schema.Name),
		Key:                      e.t.keyItem(k),
		ConditionExpression:      aws.String("attribute_exists(#pk)"),
		ExpressionAttributeNames: map[string]string{"#pk": e.t.schema.PK},
	}, key: k, what: e.def.Type}
}

// CreateOp returns a transaction action that creates item (failing if its
// key exists), plus the actions that write its unique guards.
func (e *Entity[T]) CreateOp(item *T) ([]TxOp, error) {
	if e.def.Touch != nil {
		e.def.Touch(item, e.t.now(), true)
	}
	w, err := e.prepare(item, 1)
	if err != nil {
		return nil, opErr("create", e.def.Type, w.key, err)
	}
	ops := []TxOp{{put: &types.Put{
		TableName:                aws.String(e.t.schema.Name),
		Item:                     w.item,
		ConditionExpression:      aws.String("attribute_not_exists(#pk)"),
		ExpressionAttributeNames: map[string]string{"#pk": e.t.schema.PK},
	}, key: w.key, what: e.def.Type}}
	for _, u := range w.uniques {
		ops = append(ops, e.t.guardPut(u, w.key))
	}
	e.setVersion(item, 1)
	return ops, nil
}

// PutOp returns a transaction (or batch) action that writes item
// unconditionally. Entities with unique values are refused.
func (e *Entity[T]) PutOp(item *T) (TxOp, error) {
	if e.def.Unique != nil {
		return TxOp{}, fmt.Errorf("%w: %s has unique values; use CreateOp", ErrInvalidInput, e.def.Type)
	}
	if e.def.Touch != nil {
		e.def.Touch(item, e.t.now(), false)
	}
	ver := e.putVersion(item)
	w, err := e.prepare(item, ver)
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

func (t *Table) putItem(ctx context.Context, entity string, p *types.Put) error {
	start := time.Now()
	out, err := t.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                 p.TableName,
		Item:                      p.Item,
		ConditionExpression:       p.ConditionExpression,
		ExpressionAttributeNames:  p.ExpressionAttributeNames,
		ExpressionAttributeValues: p.ExpressionAttributeValues,
		ReturnConsumedCapacity:    t.wantCapacity(),
	})
	if err != nil {
		err = mapErr(err)
		if errors.Is(err, ErrConditionFailed) && p.ConditionExpression != nil && *p.ConditionExpression == "attribute_not_exists(#pk)" {
			err = ErrAlreadyExists
		}
	}
	var c float64
	if out != nil {
		c = capPtr(out.ConsumedCapacity)
	}
	t.observe(ctx, Event{Op: "PutItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: c})
	return err
}

func (t *Table) deleteItem(ctx context.Context, entity string, k Key) error {
	start := time.Now()
	out, err := t.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                aws.String(t.schema.Name),
		Key:                      t.keyItem(k),
		ConditionExpression:      aws.String("attribute_exists(#pk)"),
		ExpressionAttributeNames: map[string]string{"#pk": t.schema.PK},
		ReturnConsumedCapacity:   t.wantCapacity(),
	})
	if err != nil {
		err = mapErr(err)
		if errors.Is(err, ErrConditionFailed) {
			err = ErrNotFound
		}
	}
	var c float64
	if out != nil {
		c = capPtr(out.ConsumedCapacity)
	}
	t.observe(ctx, Event{Op: "DeleteItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: c})
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
