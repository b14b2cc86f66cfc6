package tn

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// AccessMode is a Tinode permission bit set. It is stored as a number (as
// Tinode's DynamoDB adapter did) and written as letters, "JRWPASDO", or "N"
// for none.
type AccessMode uint32

// The access mode bits, in Tinode's order and values.
const (
	ModeJoin    AccessMode = 1 << iota // J: join the topic
	ModeRead                           // R: receive messages
	ModeWrite                          // W: send messages
	ModePres                           // P: receive presence updates
	ModeApprove                        // A: approve joins, ban
	ModeShare                          // S: invite others
	ModeDelete                         // D: hard-delete messages
	ModeOwner                          // O: owner of the topic

	// ModeNone is no permissions at all ("N").
	ModeNone AccessMode = 0
	// ModeAll is every bit.
	ModeAll AccessMode = 0xFF
	// ModeCPublic is Tinode's default for authenticated users on p2p
	// topics and new users' Access.Auth: JRWPA (31).
	ModeCPublic = ModeJoin | ModeRead | ModeWrite | ModePres | ModeApprove
	// ModeCFull is the owner's mode: JRWPASDO.
	ModeCFull = ModeAll
)

const modeLetters = "JRWPASDO"

// Valid reports whether m holds only the eight defined bits.
func (m AccessMode) Valid() bool { return m&^ModeAll == 0 }

// Has reports whether every bit of want is set in m.
func (m AccessMode) Has(want AccessMode) bool { return m&want == want }

// String returns the letters of the set bits in Tinode's order ("JRWPA"),
// "N" for none.
func (m AccessMode) String() string {
	if m == ModeNone {
		return "N"
	}
	if !m.Valid() {
		return "AccessMode(" + strconv.FormatUint(uint64(m), 10) + ")"
	}
	var b strings.Builder
	for i := range len(modeLetters) {
		if m&(1<<i) != 0 {
			b.WriteByte(modeLetters[i])
		}
	}
	return b.String()
}

// ParseAccessMode parses Tinode's letter form: any of "JRWPASDO" in any
// order and case, or "N" for none. Unknown letters and "" are errors.
func ParseAccessMode(s string) (AccessMode, error) {
	if s == "" {
		return 0, fmt.Errorf("tinode: access mode: empty")
	}
	if strings.EqualFold(s, "N") {
		return ModeNone, nil
	}
	var m AccessMode
	for _, c := range strings.ToUpper(s) {
		i := strings.IndexRune(modeLetters, c)
		if i < 0 {
			return 0, fmt.Errorf("tinode: access mode %q: unknown letter %q", s, c)
		}
		m |= 1 << i
	}
	return m, nil
}

// MarshalDynamo stores the mode as a number.
func (m AccessMode) MarshalDynamo() (types.AttributeValue, error) {
	if !m.Valid() {
		return nil, fmt.Errorf("tinode: invalid access mode %d", uint32(m))
	}
	return &types.AttributeValueMemberN{Value: strconv.FormatUint(uint64(m), 10)}, nil
}

// UnmarshalDynamo reads a number, or the letter form stored as a string.
func (m *AccessMode) UnmarshalDynamo(av types.AttributeValue) error {
	switch v := av.(type) {
	case *types.AttributeValueMemberN:
		n, err := strconv.ParseUint(v.Value, 10, 32)
		if err != nil || !AccessMode(n).Valid() {
			return fmt.Errorf("tinode: access mode %q out of range", v.Value)
		}
		*m = AccessMode(n)
	case *types.AttributeValueMemberS:
		p, err := ParseAccessMode(v.Value)
		if err != nil {
			return err
		}
		*m = p
	case *types.AttributeValueMemberNULL:
		*m = ModeNone
	default:
		return fmt.Errorf("tinode: access mode: unexpected attribute %T", av)
	}
	return nil
}

// MarshalJSON writes the letter form, as Tinode's wire protocol does.
func (m AccessMode) MarshalJSON() ([]byte, error) {
	if !m.Valid() {
		return nil, fmt.Errorf("tinode: invalid access mode %d", uint32(m))
	}
	return json.Marshal(m.String())
}

// UnmarshalJSON reads the letter form or a number (the stored form).
func (m *AccessMode) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		p, err := ParseAccessMode(s)
		if err != nil {
			return err
		}
		*m = p
		return nil
	}
	var n uint32
	if err := json.Unmarshal(b, &n); err != nil || !AccessMode(n).Valid() {
		return fmt.Errorf("tinode: access mode %s: not letters or a number in 0..255", b)
	}
	*m = AccessMode(n)
	return nil
}

// DefaultAccess is the default access of a user (for p2p topics) or a
// topic: Auth for authenticated users, Anon for anonymous ones.
type DefaultAccess struct {
	Auth AccessMode `dynamo:"Auth" json:"Auth"`
	Anon AccessMode `dynamo:"Anon" json:"Anon"`
}

// Validate checks both modes.
func (a DefaultAccess) Validate(field string) error {
	if !a.Auth.Valid() {
		return invalid(field+".Auth", "undefined bits in %d", uint32(a.Auth))
	}
	if !a.Anon.Valid() {
		return invalid(field+".Anon", "undefined bits in %d", uint32(a.Anon))
	}
	return nil
}
