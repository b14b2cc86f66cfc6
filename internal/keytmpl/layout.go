package keytmpl

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/keys"
)

// Write-sharded collections: the layout of an owner's collection (see
// table.Layout).

// ShardPK returns the partition key of shard i of the sharded partition
// pk: pk#i, or pk itself when n is 1.
func ShardPK(pk string, i, n int) string {
	if n <= 1 {
		return pk
	}
	return pk + keys.Delimiter + strconv.Itoa(i)
}

// Epoch is one period of a [Layout]: the shard count that items at
// positions From and above are written with (until the next epoch).
type Epoch struct {
	// From is the first position written under the epoch.
	From int64
	// Shards is the number of partitions: 1 is the owner's own partition
	// key (the document's), N > 1 the keys PK#0 .. PK#{N-1}.
	Shards int
}

// Layout is the shard history of a write-sharded collection, stored on its
// owner item as text ("0:1,5001:8": From:Shards, oldest first). The zero
// Layout is a collection that was never sharded: every item in the owner's
// partition, as the document stores it.
type Layout struct{ epochs []Epoch }

// NewLayout returns the layout of a collection created with n shards.
func NewLayout(n int) (Layout, error) {
	if n < 1 || n > MaxShards {
		return Layout{}, &codec.ValidationError{Field: "Shards", Reason: fmt.Sprintf("%d is outside 1..%d", n, MaxShards)}
	}
	if n == 1 {
		return Layout{}, nil
	}
	return Layout{epochs: []Epoch{{From: 0, Shards: n}}}, nil
}

// ParseLayout parses the stored text of a layout ("" is the zero Layout).
func ParseLayout(s string) (Layout, error) {
	if s == "" {
		return Layout{}, nil
	}
	var l Layout
	for part := range strings.SplitSeq(s, ",") {
		from, n, ok := strings.Cut(part, ":")
		f, err1 := strconv.ParseInt(from, 10, 64)
		c, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil || c < 1 || c > MaxShards || f < 0 ||
			(len(l.epochs) > 0 && f <= l.epochs[len(l.epochs)-1].From) {
			return Layout{}, &codec.ValidationError{Field: "Layout", Reason: fmt.Sprintf("%q is not a layout (From:Shards, From increasing)", s)}
		}
		l.epochs = append(l.epochs, Epoch{From: f, Shards: c})
	}
	return l, nil
}

// String returns the layout's stored text ("" for the zero Layout).
func (l Layout) String() string {
	parts := make([]string, len(l.epochs))
	for i, e := range l.epochs {
		parts[i] = strconv.FormatInt(e.From, 10) + ":" + strconv.Itoa(e.Shards)
	}
	return strings.Join(parts, ",")
}

// IsZero reports whether the collection was never sharded.
func (l Layout) IsZero() bool { return len(l.epochs) == 0 }

// Epochs returns the layout's epochs, oldest first (none for the zero
// Layout: everything in the owner's partition).
func (l Layout) Epochs() []Epoch { return slices.Clone(l.epochs) }

// Shards returns the shard count new items are written with.
func (l Layout) Shards() int {
	if len(l.epochs) == 0 {
		return 1
	}
	return l.epochs[len(l.epochs)-1].Shards
}

// ShardsAt returns the shard count of the epoch position pos falls in.
func (l Layout) ShardsAt(pos int64) int {
	n := 1
	for _, e := range l.epochs {
		if e.From > pos {
			break
		}
		n = e.Shards
	}
	return n
}

// Switch returns the layout with a new epoch: items at positions from
// and above are written with n shards. from must be at or above the last
// epoch's From, and at or above every position already written (the
// caller conditions the switch on that, see table.Table.SwitchLayoutOp).
// from equal to the last epoch's From is a switch made again before any
// item was written in that epoch (the caller's positions are all below
// from: for a sequence, the owner's last number plus one): the epoch
// takes n, or is removed when n is the count of the epoch before it.
func (l Layout) Switch(from int64, n int) (Layout, error) {
	if n < 1 || n > MaxShards {
		return l, &codec.ValidationError{Field: "Shards", Reason: fmt.Sprintf("%d is outside 1..%d", n, MaxShards)}
	}
	last := len(l.epochs) - 1
	if from < 0 || (last >= 0 && from < l.epochs[last].From) {
		return l, &codec.ValidationError{Field: "From", Reason: fmt.Sprintf("%d is before the layout's last epoch (%s)", from, l)}
	}
	if n == l.Shards() {
		return l, nil
	}
	if last >= 0 && from == l.epochs[last].From { // the last epoch is empty: redo it
		epochs := slices.Clone(l.epochs)
		if last > 0 && epochs[last-1].Shards == n {
			return Layout{epochs: epochs[:last]}, nil // the epoch before goes on
		}
		epochs[last].Shards = n
		return Layout{epochs: epochs}, nil
	}
	epochs := slices.Clone(l.epochs)
	if len(epochs) == 0 && from > 0 {
		// The collection was the owner's partition until from.
		epochs = []Epoch{{From: 0, Shards: 1}}
	}
	return Layout{epochs: append(epochs, Epoch{From: from, Shards: n})}, nil
}

// SeqPK returns the partition of the item at sequence number seq of the
// collection whose owner's partition key is pk: shard seq mod N of the
// epoch seq falls in, or pk itself when that epoch has 1 shard.
// Consecutive sequence numbers go to consecutive shards, so a range of
// them is spread evenly and each shard's part is computable.
func (l Layout) SeqPK(pk string, seq int64) string {
	n := l.ShardsAt(seq)
	return ShardPK(pk, int(((seq%int64(n))+int64(n))%int64(n)), n)
}

// SeqPKs returns every partition seq may be in: [Layout.SeqPK]'s first,
// then its place under each other shard count of the layout, for a point
// read that missed (an item numbered by its writer, not by the owner's
// sequence, and written under the layout before a switch whose first
// position was at or below it).
func (l Layout) SeqPKs(pk string, seq int64) []string {
	out := []string{l.SeqPK(pk, seq)}
	for _, e := range l.epochs {
		p := Layout{epochs: []Epoch{{Shards: e.Shards}}}.SeqPK(pk, seq)
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// IDPK returns the partition of the item with ID id written at position
// pos: shard [Shard](id, N) of the epoch pos falls in.
func (l Layout) IDPK(pk string, pos int64, id string) string {
	n := l.ShardsAt(pos)
	return ShardPK(pk, Shard(id, n), n)
}

// Partitions returns every partition key the collection's items may be
// in: pk itself if an epoch had 1 shard (or the layout is zero), and
// pk#0 .. pk#{max-1} for the largest count N > 1 of its epochs.
func (l Layout) Partitions(pk string) []string {
	base, n := l.Span()
	var out []string
	if base {
		out = append(out, pk)
	}
	for i := range n {
		out = append(out, ShardPK(pk, i, n))
	}
	return out
}

// Span returns whether the owner's own partition is used and the
// largest shard count above 1 (0 if none).
func (l Layout) Span() (base bool, n int) {
	if len(l.epochs) == 0 {
		return true, 0
	}
	for _, e := range l.epochs {
		if e.Shards == 1 {
			base = true
		} else {
			n = max(n, e.Shards)
		}
	}
	return base, n
}
