package table

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
)

// TxGet is one read of a [Table.TransactGet]; make it with [Entity.GetOp].
type TxGet struct {
	key    Key
	what   string
	decode func(Item) error
	found  *bool
}

// Found reports, after TransactGet returned, whether the item existed (and
// was not past its TTL).
func (g TxGet) Found() bool { return g.found != nil && *g.found }

// GetOp returns a transactional read of the item with key k into dst.
func (e *Entity[T]) GetOp(k Key, dst *T) TxGet {
	return TxGet{key: k, what: e.def.Type, found: new(bool), decode: func(raw Item) error {
		v, _, err := e.decode(raw)
		if err == nil {
			*dst = v
		}
		return err
	}}
}

// TransactGet reads up to 100 items as one serializable snapshot
// (TransactGetItems). Each TxGet reports whether its item was found; a
// missing item is not an error. Over 100 reads or the same key twice are
// refused before sending.
func (t *Table) TransactGet(ctx context.Context, gets ...TxGet) error {
	if len(gets) == 0 {
		return opErr("transact get", "", Key{}, &ValidationError{Field: "gets", Reason: "none given"})
	}
	if len(gets) > MaxTxItems {
		return opErr("transact get", "", Key{}, fmt.Errorf("%w: %d reads, the limit is %d", ErrTooManyItems, len(gets), MaxTxItems))
	}
	seen := make(map[Key]int, len(gets))
	items := make([]types.TransactGetItem, len(gets))
	for i, g := range gets {
		if err := keytmpl.CheckKey(g.key); err != nil {
			return opErr("transact get", g.what, g.key, err)
		}
		if j, ok := seen[g.key]; ok {
			return opErr("transact get", g.what, g.key, fmt.Errorf("%w: reads %d and %d", ErrDuplicateItem, j, i))
		}
		seen[g.key] = i
		items[i] = types.TransactGetItem{Get: &types.Get{TableName: aws.String(t.schema.Name), Key: t.c.KeyItem(g.key)}}
	}
	start := time.Now()
	out, err := t.client.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: items, ReturnConsumedCapacity: t.c.WantCapacity()})
	if err != nil {
		err = ddb.MapErr(err)
	}
	var c float64
	if out != nil {
		c = ddb.Capacity(out.ConsumedCapacity...)
	}
	t.c.Observe(ctx, Event{Op: "TransactGetItems", Duration: time.Since(start), Err: err, Capacity: c})
	if err != nil {
		return opErr("transact get", "", Key{}, err)
	}
	for i, r := range out.Responses {
		if i >= len(gets) || r.Item == nil || t.c.Expired(r.Item) {
			continue
		}
		if err := gets[i].decode(r.Item); err != nil {
			return opErr("transact get", gets[i].what, gets[i].key, err)
		}
		*gets[i].found = true
	}
	return nil
}
