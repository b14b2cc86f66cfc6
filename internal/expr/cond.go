package expr

import (
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
)

// Exprs accumulates expression placeholders: names (#n) and values (:v).
type Exprs struct {
	Names  map[string]string
	Values map[string]types.AttributeValue
}

// New returns empty placeholders.
func New() Exprs {
	return Exprs{Names: map[string]string{}, Values: map[string]types.AttributeValue{}}
}

// Vals returns the values, or nil when there are none (DynamoDB refuses an
// empty map).
func (x Exprs) Vals() map[string]types.AttributeValue {
	if len(x.Values) == 0 {
		return nil
	}
	return x.Values
}

// Attrs are the table's attributes the write conditions read (the
// schema's names), and its clock.
type Attrs struct {
	// PK is the partition key attribute; Type the entity-type attribute;
	// TTL the expiry attribute; Token the write-token attribute. An empty
	// name leaves its part out.
	PK, Type, TTL, Token string
	// Now is the table's clock.
	Now func() time.Time
}

// ExpiredCond holds for an item whose TTL has passed: a number in
// (0, now] (#ttl, :tiny and :now bound by [Attrs.BindTTL]; :tiny is DynamoDB's
// smallest positive number, so BETWEEN's inclusive bound excludes 0 and
// below, which mean "no expiry"). A missing or non-number TTL is not
// expired, as DynamoDB's TTL and ddb.Conn.Expired on reads see it. One
// BETWEEN costs DynamoDB less to evaluate than the two comparisons it
// replaces (BenchmarkIngestAblation), with the same result for every number.
const ExpiredCond = "#ttl BETWEEN :tiny AND :now"

// NotExpiredCond holds for an item with no TTL, a zero or negative TTL, a
// non-number TTL, or one in the future: ExpiredCond negated (a comparison
// on a missing attribute is false, so NOT makes it true); used in write
// conditions.
const NotExpiredCond = "NOT " + ExpiredCond

// TinyNumber is DynamoDB's smallest positive number.
const TinyNumber = "1E-130"

// Live returns the condition "the item exists, is not expired and is of
// entity type typ (or untyped)", binding its placeholders into x.
func (a Attrs) Live(x Exprs, typ string) string { return a.LiveOf(x, typ, false) }

// LiveOf is Live; with implied, the caller's condition already
// requires the item to exist (an equality on a stored attribute, false on
// a missing item), so attribute_exists(#pk) is left out: the same
// condition, one operand shorter.
func (a Attrs) LiveOf(x Exprs, typ string, implied bool) string {
	var parts []string
	if !implied {
		x.Names["#pk"] = a.PK
		parts = append(parts, "attribute_exists(#pk)")
	}
	if a.Type != "" && typ != "" {
		x.Names["#ty"] = a.Type
		x.Values[":ty"] = &types.AttributeValueMemberS{Value: typ}
		parts = append(parts, "(attribute_not_exists(#ty) OR #ty = :ty)")
	}
	if a.TTL != "" {
		a.BindTTL(x)
		parts = append(parts, NotExpiredCond)
	}
	if len(parts) == 0 { // no type, no TTL: existence must still be asked
		x.Names["#pk"] = a.PK
		return "attribute_exists(#pk)"
	}
	return strings.Join(parts, " AND ")
}

// Absent returns the condition of a create: no item with the key, or
// only one past its TTL (absent for every read, so a create takes its key).
func (a Attrs) Absent(x Exprs) string {
	x.Names["#pk"] = a.PK
	if a.TTL == "" {
		return CreateCond
	}
	a.BindTTL(x)
	return CreateCond + " OR " + ExpiredCond
}

// CreateCond is the condition a create is first sent with: no item with
// the key. A key holding an item past its TTL that DynamoDB has not
// deleted yet fails it, and the failure returns that item (every
// conditional write asks for it); the create is then sent once more on
// [Attrs.Absent] (ddb.FullCreate), which takes the key if the
// item is still expired and fails if a live item took it meanwhile. So a
// create on a fresh key (nearly every create: new IDs) costs one request
// on the shortest condition, and one over an expired item costs two, with
// absentCond's result. A lost response is told apart by the write token
// (or the transaction's idempotency token) on both sends.
const CreateCond = "attribute_not_exists(#pk)"

// ShortCreate returns a create's put condition, with absent: true when it
// is CreateCond while the table has a TTL attribute (an expired item in
// the way needs the second send).
func (a Attrs) ShortCreate(x Exprs) (cond string, absent bool) {
	x.Names["#pk"] = a.PK
	return CreateCond, a.TTL != ""
}

// BindTTL binds #ttl, :now and :tiny, the placeholders of ExpiredCond.
func (a Attrs) BindTTL(x Exprs) {
	x.Names["#ttl"] = a.TTL
	x.Values[":now"] = codec.Num(a.Now().Unix())
	x.Values[":tiny"] = &types.AttributeValueMemberN{Value: TinyNumber}
}

// Write tokens. A write whose response is lost after DynamoDB applied it
// is retried by the SDK; the retry then meets its own write. Each
// non-idempotent single-item write therefore stamps a random token into
// the item's token set (Schema.TokenAttr) in the same request, and a
// failed condition is checked against the item DynamoDB returns with the
// failure: if it holds the token, the write is ours and succeeded.
// Library writes carry the recent tokens of the item forward, so a token
// survives later writes for [TokenTTL]; older ones are pruned.
const (
	TokenTTL  = 10 * time.Minute
	MaxTokens = 16
)

// NewToken returns a fresh write token: its creation time in Unix
// milliseconds (base 36), a dot, and 64 random bits.
func (a Attrs) NewToken() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return strconv.FormatInt(a.Now().UnixMilli(), 36) + "." + hex.EncodeToString(b[:])
}

// TokenTime returns when token tok was made (zero if it is not one).
func TokenTime(tok string) time.Time {
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

// Tokens returns the write tokens stored in raw.
func (a Attrs) Tokens(raw map[string]types.AttributeValue) []string {
	if a.Token == "" || raw == nil {
		return nil
	}
	if ss, ok := raw[a.Token].(*types.AttributeValueMemberSS); ok {
		return ss.Value
	}
	return nil
}

// HasToken reports whether raw carries write token tok.
func (a Attrs) HasToken(raw map[string]types.AttributeValue, tok string) bool {
	return tok != "" && slices.Contains(a.Tokens(raw), tok)
}

// CarryTokens returns the token set a full rewrite stores: the recent
// tokens of the item it replaces (newest first, at most MaxTokens-1) and
// tok.
func (a Attrs) CarryTokens(old map[string]types.AttributeValue, tok string) types.AttributeValue {
	now := a.Now()
	keep := []string{tok}
	olds := slices.Clone(a.Tokens(old))
	slices.SortFunc(olds, func(a, b string) int { return TokenTime(b).Compare(TokenTime(a)) })
	for _, o := range olds {
		if len(keep) == MaxTokens {
			break
		}
		if o != tok && now.Sub(TokenTime(o)) < TokenTTL {
			keep = append(keep, o)
		}
	}
	return &types.AttributeValueMemberSS{Value: keep}
}

// StaleTokens returns the tokens of raw to prune once the set holds more
// than 2*MaxTokens: all but the newest MaxTokens. The set stays bounded
// (at most 32 tokens, under 1 KB) however hot the item; the price is that
// on an item written more than MaxTokens times within the SDK's retry
// window (seconds), a retried Patch or Add may no longer find its token.
func (a Attrs) StaleTokens(raw map[string]types.AttributeValue) []string {
	toks := slices.Clone(a.Tokens(raw))
	if len(toks) <= 2*MaxTokens {
		return nil
	}
	slices.SortFunc(toks, func(a, b string) int { return TokenTime(b).Compare(TokenTime(a)) })
	return toks[MaxTokens:]
}
