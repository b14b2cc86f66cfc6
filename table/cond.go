package table

import (
	"crypto/rand"
	"encoding/hex"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
)

// Write conditions shared by every write on an existing key. One place
// builds them, so each write path (Update, Replace, Patch, Add, Delete,
// Take, and their transaction forms) inherits the same three guarantees:
//
//   - existence: the item exists and is not past its TTL (an item DynamoDB
//     has not deleted yet counts as missing);
//   - type binding: the item is of this entity type, or carries no type
//     attribute (written by another service), so Entity[A] never changes or
//     deletes an item of entity B;
//   - write tokens: see [Schema.TokenAttr].

// exprs accumulates expression placeholders.
type exprs struct {
	names  map[string]string
	values map[string]types.AttributeValue
}

func newExprs() exprs {
	return exprs{names: map[string]string{}, values: map[string]types.AttributeValue{}}
}

// vals returns the values, or nil when there are none (DynamoDB refuses an
// empty map).
func (x exprs) vals() map[string]types.AttributeValue {
	if len(x.values) == 0 {
		return nil
	}
	return x.values
}

// expiredCond holds for an item whose TTL has passed: a number in
// (0, now] (#ttl, :tiny and :now bound by bindTTL; :tiny is DynamoDB's
// smallest positive number, so BETWEEN's inclusive bound excludes 0 and
// below, which mean "no expiry"). A missing or non-number TTL is not
// expired, as DynamoDB's TTL and [Table.expired] on reads see it. One
// BETWEEN costs DynamoDB less to evaluate than the two comparisons it
// replaces (BenchmarkIngestAblation), with the same result for every number.
const expiredCond = "#ttl BETWEEN :tiny AND :now"

// notExpiredCond holds for an item with no TTL, a zero or negative TTL, a
// non-number TTL, or one in the future: expiredCond negated (a comparison
// on a missing attribute is false, so NOT makes it true); used in write
// conditions.
const notExpiredCond = "NOT " + expiredCond

// tinyNumber is DynamoDB's smallest positive number.
const tinyNumber = "1E-130"

// liveCond returns the condition "the item exists, is not expired and is of
// entity type typ (or untyped)", binding its placeholders into x.
func (t *Table) liveCond(x exprs, typ string) string { return t.liveCondOf(x, typ, false) }

// liveCondOf is liveCond; with implied, the caller's condition already
// requires the item to exist (an equality on a stored attribute, false on
// a missing item), so attribute_exists(#pk) is left out: the same
// condition, one operand shorter.
func (t *Table) liveCondOf(x exprs, typ string, implied bool) string {
	s := t.schema
	var parts []string
	if !implied {
		x.names["#pk"] = s.PK
		parts = append(parts, "attribute_exists(#pk)")
	}
	if s.TypeAttr != "" && typ != "" {
		x.names["#ty"] = s.TypeAttr
		x.values[":ty"] = &types.AttributeValueMemberS{Value: typ}
		parts = append(parts, "(attribute_not_exists(#ty) OR #ty = :ty)")
	}
	if s.TTLAttr != "" {
		t.bindTTL(x)
		parts = append(parts, notExpiredCond)
	}
	if len(parts) == 0 { // no type, no TTL: existence must still be asked
		x.names["#pk"] = s.PK
		return "attribute_exists(#pk)"
	}
	return strings.Join(parts, " AND ")
}

// absentCond returns the condition of a create: no item with the key, or
// only one past its TTL (absent for every read, so a create takes its key).
func (t *Table) absentCond(x exprs) string {
	x.names["#pk"] = t.schema.PK
	if t.schema.TTLAttr == "" {
		return createCond
	}
	t.bindTTL(x)
	return createCond + " OR " + expiredCond
}

// createCond is the condition a create is first sent with: no item with
// the key. A key holding an item past its TTL that DynamoDB has not
// deleted yet fails it, and the failure returns that item (every
// conditional write asks for it); the create is then sent once more on
// [Table.absentCond] ([Table.fullCreate]), which takes the key if the
// item is still expired and fails if a live item took it meanwhile. So a
// create on a fresh key (nearly every create: new IDs) costs one request
// on the shortest condition, and one over an expired item costs two, with
// absentCond's result. A lost response is told apart by the write token
// (or the transaction's idempotency token) on both sends.
const createCond = "attribute_not_exists(#pk)"

// shortCreate returns a create's put condition, with absent: true when it
// is createCond while the table has a TTL attribute (an expired item in
// the way needs the second send).
func (t *Table) shortCreate(x exprs) (cond string, absent bool) {
	x.names["#pk"] = t.schema.PK
	return createCond, t.schema.TTLAttr != ""
}

// fullCreate returns op, a create sent on createCond (perhaps with
// conditions ANDed on, [TxOp.and]), with createCond widened to
// absentCond: the second send of a create whose key holds an expired
// item. op itself is untouched.
func (t *Table) fullCreate(op TxOp) TxOp {
	if !op.absent {
		return op
	}
	op = op.edit(func(a actionRef) {
		x := exprs{names: maps.Clone(*a.names), values: maps.Clone(*a.values)}
		if x.values == nil {
			x.values = map[string]types.AttributeValue{}
		}
		full := "(" + t.absentCond(x) + ")"
		*a.cond = aws.String(strings.Replace(aws.ToString(*a.cond), createCond, full, 1))
		*a.names, *a.values = x.names, x.vals()
	})
	op.absent = false
	return op
}

func (t *Table) bindTTL(x exprs) {
	x.names["#ttl"] = t.schema.TTLAttr
	x.values[":now"] = codec.Num(t.now().Unix())
	x.values[":tiny"] = &types.AttributeValueMemberN{Value: tinyNumber}
}

// Write tokens. A write whose response is lost after DynamoDB applied it
// is retried by the SDK; the retry then meets its own write. Each
// non-idempotent single-item write therefore stamps a random token into
// the item's token set (Schema.TokenAttr) in the same request, and a
// failed condition is checked against the item DynamoDB returns with the
// failure: if it holds the token, the write is ours and succeeded.
// Library writes carry the recent tokens of the item forward, so a token
// survives later writes for [tokenTTL]; older ones are pruned.
const (
	tokenTTL  = 10 * time.Minute
	maxTokens = 16
)

// newToken returns a fresh write token: its creation time in Unix
// milliseconds (base 36), a dot, and 64 random bits.
func (t *Table) newToken() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return strconv.FormatInt(t.now().UnixMilli(), 36) + "." + hex.EncodeToString(b[:])
}

func tokenTime(tok string) time.Time {
	ms, _, ok := strings.Cut(tok, ".")
	if !ok {
		return time.Time{}
	}
	n, err := strconv.ParseInt(ms, 36, 64)
	if err != nil {
		return time.Time{}
	}
	return time.UnixMilli(n)
}

// tokens returns the write tokens stored in raw.
func (t *Table) tokens(raw Item) []string {
	if t.schema.TokenAttr == "" || raw == nil {
		return nil
	}
	if ss, ok := raw[t.schema.TokenAttr].(*types.AttributeValueMemberSS); ok {
		return ss.Value
	}
	return nil
}

// hasToken reports whether raw carries write token tok.
func (t *Table) hasToken(raw Item, tok string) bool {
	return tok != "" && slices.Contains(t.tokens(raw), tok)
}

// carryTokens returns the token set a full rewrite stores: the recent
// tokens of the item it replaces (newest first, at most maxTokens-1) and
// tok.
func (t *Table) carryTokens(old Item, tok string) types.AttributeValue {
	now := t.now()
	keep := []string{tok}
	olds := slices.Clone(t.tokens(old))
	slices.SortFunc(olds, func(a, b string) int { return tokenTime(b).Compare(tokenTime(a)) })
	for _, o := range olds {
		if len(keep) == maxTokens {
			break
		}
		if o != tok && now.Sub(tokenTime(o)) < tokenTTL {
			keep = append(keep, o)
		}
	}
	return &types.AttributeValueMemberSS{Value: keep}
}

// staleTokens returns the tokens of raw to prune once the set holds more
// than 2*maxTokens: all but the newest maxTokens. The set stays bounded
// (at most 32 tokens, under 1 KB) however hot the item; the price is that
// on an item written more than maxTokens times within the SDK's retry
// window (seconds), a retried Patch or Add may no longer find its token.
func (t *Table) staleTokens(raw Item) []string {
	toks := slices.Clone(t.tokens(raw))
	if len(toks) <= 2*maxTokens {
		return nil
	}
	slices.SortFunc(toks, func(a, b string) int { return tokenTime(b).Compare(tokenTime(a)) })
	return toks[maxTokens:]
}
