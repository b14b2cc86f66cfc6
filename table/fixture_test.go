package table_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// member is the test entity: a unique email, a status index, a counter, an
// optional expiry and a version field.
type member struct {
	ID        string    `dynamo:"id"`
	Email     string    `dynamo:"email"`
	Status    string    `dynamo:"status"`
	Team      string    `dynamo:"team"`
	Logins    int64     `dynamo:"logins"`
	Note      string    `dynamo:"note"`
	ExpiresAt time.Time `dynamo:"expiresAt"`
	CreatedAt time.Time `dynamo:"createdAt"`
	UpdatedAt time.Time `dynamo:"updatedAt"`
	Version   int64     `dynamo:"-"`
	// Read is what the item was read as (Replace conditions on it).
	Read table.ReadState `dynamo:"-"`
}

var memberDef = table.Def[member]{
	Type: "Member",
	Keys: table.Template{PK: "MEMBER#{id}", SK: "PROFILE"},
	IndexKeys: map[table.Index]table.Template{
		table.GSI1: {PK: "STATUS#{status}", SK: "MEMBER#{id}"},
		table.GSI2: {PK: "TEAM#{team}", SK: "MEMBER#{id}"}, // sparse: no team, no GSI2 entry
	},
	Validate: func(m *member) error {
		if !strings.Contains(m.Email, "@") {
			return table.Invalid("email", "%q is not an email address", m.Email)
		}
		return nil
	},
	UniqueOn:   []string{"email"},
	UniqueFold: map[string]func(string) string{"email": strings.ToLower},
	TTL:        table.TTL{From: "expiresAt"},
	Touch: func(m *member, now time.Time, created bool) {
		if created {
			m.CreatedAt = now
		}
		m.UpdatedAt = now
	},
	Version: func(m *member) *int64 { return &m.Version },
}

// note is a second entity in the member's item collection, no uniques.
type note struct {
	MemberID string `dynamo:"memberId"`
	Seq      int    `dynamo:"seq"`
	Text     string `dynamo:"text"`
	Likes    int    `dynamo:"likes"`
}

var noteDef = table.Def[note]{
	Type: "Note",
	Keys: table.Template{PK: "MEMBER#{memberId}", SK: "NOTE#{seq:4}"},
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

type fixture struct {
	t       *table.Table
	members *table.Entity[member]
	notes   *table.Entity[note]
}

func newFixture(t *testing.T, opts ...func(*table.Options)) fixture {
	t.Helper()
	tb := tabletest.NewTable(t, table.NewSchema("core"), opts...)
	return fixture{t: tb, members: table.NewEntity(tb, memberDef), notes: table.NewEntity(tb, noteDef)}
}

// create creates m (failing the test if it cannot) and returns its key.
func (f fixture) create(t *testing.T, m member) table.Key {
	t.Helper()
	if err := f.members.Create(ctx(t), &m); err != nil {
		t.Fatal(err)
	}
	k, err := f.members.KeyOf(&m)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}

// putRaw writes an item of string attributes with the plain SDK, as another
// service would: no entity type, no version, no guards.
func putRaw(t *testing.T, tb *table.Table, attrs map[string]string) {
	t.Helper()
	item := make(map[string]types.AttributeValue, len(attrs))
	for k, v := range attrs {
		item[k] = &types.AttributeValueMemberS{Value: v}
	}
	if _, err := tb.Client().PutItem(ctx(t), &dynamodb.PutItemInput{TableName: aws.String(tb.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
}
