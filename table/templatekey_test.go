package table_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// TestTemplateKeyRoundTrip: every transform a key builder meets builds the
// key the template says and parses back to the same values, and
// Key(Parse(k)) is k byte for byte.
func TestTemplateKeyRoundTrip(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		tmpl   table.Template
		values map[string]string
		want   table.Key
		parsed map[string]string // nil: values
	}{
		{"constant sort key", table.Template{PK: "USER#{userId}", SK: "PROFILE"},
			map[string]string{"userId": "u1"}, table.Key{PK: "USER#u1", SK: "PROFILE"}, nil},
		{"two references", table.Template{PK: "ANALYTICS", SK: "ORG#{organizationId}#{date}"},
			map[string]string{"organizationId": "o1", "date": "2024-01-02"}, table.Key{PK: "ANALYTICS", SK: "ORG#o1#2024-01-02"}, nil},
		{"escaped", table.Template{PK: "TOPIC#{Topic:esc}", SK: "SUB#{User:esc}"},
			map[string]string{"Topic": "grp#1", "User": "us%r"}, table.Key{PK: "TOPIC#grp%231", SK: "SUB#us%25r"}, nil},
		{"width", table.Template{PK: "TOPIC#{Topic:esc}", SK: "MSG#{SeqId:10}"},
			map[string]string{"Topic": "t", "SeqId": "42"}, table.Key{PK: "TOPIC#t", SK: "MSG#0000000042"}, nil},
		{"milliseconds", table.Template{PK: "SRC#{sourceId}", SK: "EVT#{receivedAt:ms}#{eventId}"},
			map[string]string{"sourceId": "s", "receivedAt": "1700000000123", "eventId": "e"}, table.Key{PK: "SRC#s", SK: "EVT#1700000000123#e"}, nil},
		{"timestamp", table.Template{PK: "ACTIVITY#{accountId}", SK: "EVT#{createdAt:ts}#{eventId}"},
			map[string]string{"accountId": "a", "createdAt": "2024-01-02T03:04:05.5Z", "eventId": "e"},
			table.Key{PK: "ACTIVITY#a", SK: "EVT#" + mustTS(t, "2024-01-02T03:04:05.5Z") + "#e"}, nil},
		{"split", table.Template{PK: "AUTH#{unique:split}", SK: "AUTH"},
			map[string]string{"unique": "basic:al#ice"}, table.Key{PK: "AUTH#basic#al%23ice", SK: "AUTH"}, nil},
		{"optional, absent", table.Template{PK: "S#{status:opt}", SK: "X#{id}"},
			map[string]string{"status": "", "id": "1"}, table.Key{PK: "S#-", SK: "X#1"}, map[string]string{"id": "1"}},
		{"shard kept out of the values", table.Template{PK: "USERS#{userId:shard4}", SK: "USER#{userId}"},
			map[string]string{"userId": "u1"}, table.Key{PK: "USERS#" + itoa(table.Shard("u1", 4)), SK: "USER#u1"}, nil},
		{"one shard is no segment", table.Template{PK: "USERS#{userId:shard}", SK: "USER#{userId}"}.WithShards(1),
			map[string]string{"userId": "u1"}, table.Key{PK: "USERS", SK: "USER#u1"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := c.tmpl.Key(c.values)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("Key = %v, want %v", got, c.want)
			}
			back, err := c.tmpl.Parse(got)
			if err != nil {
				t.Fatal(err)
			}
			want := c.parsed
			if want == nil {
				want = c.values
			}
			if diff := cmp.Diff(want, back); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
			again, err := c.tmpl.Key(back)
			if err != nil {
				t.Fatal(err)
			}
			if again != got {
				t.Errorf("Key(Parse(%v)) = %v", got, again)
			}
			if !c.tmpl.Matches(got) {
				t.Errorf("Matches(%v) = false", got)
			}
		})
	}
}

// TestTemplateKeyIsTheEngines: the key builder gives the key the engine
// writes the item under.
func TestTemplateKeyIsTheEngines(t *testing.T) {
	t.Parallel()
	type post struct {
		Topic string    `dynamo:"topic"`
		Seq   int       `dynamo:"seq"`
		At    time.Time `dynamo:"at"`
	}
	def := table.Def[post]{Type: "Post", Keys: table.Template{PK: "TOPIC#{topic:esc}", SK: "AT#{at:ts}#{seq:10}"}}
	e := table.NewEntity(table.New(nil, table.NewSchema("unused")), def)
	p := post{Topic: "a#b", Seq: 7, At: time.Date(2024, 1, 2, 3, 4, 5, 6, time.FixedZone("x", 3600))}
	want, err := e.KeyOf(&p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := def.Keys.Key(map[string]string{"topic": p.Topic, "seq": "7", "at": p.At.Format(time.RFC3339Nano)})
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("Template.Key = %v, the engine's key %v", got, want)
	}
}

func TestTemplateKeyRefuses(t *testing.T) {
	t.Parallel()
	tmpl := table.Template{PK: "USER#{userId}", SK: "CRED#{method:esc}#{value:esc}"}
	var ve *table.ValidationError
	for name, f := range map[string]func() error{
		"missing value": func() error { _, err := tmpl.Key(map[string]string{"userId": "u"}); return err },
		"typo": func() error {
			_, err := tmpl.Key(map[string]string{"userID": "u", "method": "m", "value": "v"})
			return err
		},
		"delimiter": func() error {
			_, err := tmpl.Key(map[string]string{"userId": "a#b", "method": "m", "value": "v"})
			return err
		},
		"other shape":   func() error { _, err := tmpl.Parse(table.Key{PK: "USER#u", SK: "CRED#m"}); return err },
		"other literal": func() error { _, err := tmpl.Parse(table.Key{PK: "USR#u", SK: "CRED#m#v"}); return err },
		"whole prefix":  func() error { _, err := tmpl.SortPrefix(map[string]string{"method": "m", "value": "v"}); return err },
		"unresolved shard": func() error {
			_, err := table.Template{PK: "USERS#{userId:shard}", SK: "X"}.Key(map[string]string{"userId": "u"})
			if !errors.Is(err, table.ErrInvalidInput) {
				return nil
			}
			return &table.ValidationError{}
		},
	} {
		if err := f(); !errors.As(err, &ve) {
			t.Errorf("%s: err = %v, want a *table.ValidationError", name, err)
		}
	}
	for _, c := range []struct {
		v    map[string]string
		want string
	}{
		{nil, "CRED#"},
		{map[string]string{"method": "e#mail"}, "CRED#e%23mail#"},
	} {
		got, err := tmpl.SortPrefix(c.v)
		if err != nil || got != c.want {
			t.Errorf("SortPrefix(%v) = %q, %v; want %q", c.v, got, err, c.want)
		}
	}
	// A sort key that begins with a reference has no prefix but the ones
	// its values give.
	byTime := table.Template{PK: "ACTUSER#{userId}", SK: "{createdAt:ts}#{eventId}"}
	if got, err := byTime.SortPrefix(nil); err != nil || got != "" {
		t.Errorf("SortPrefix(nil) of %q = %q, %v; want \"\"", byTime.SK, got, err)
	}
	if got, err := byTime.SortPrefix(map[string]string{"createdAt": "2025-01-02T03:04:05.000000006Z"}); err != nil || got != "2025-01-02T03:04:05.000000006Z#" {
		t.Errorf("SortPrefix(createdAt) of %q = %q, %v", byTime.SK, got, err)
	}
	if got, err := (table.Template{PK: "ROLE#{role}#{userId:shard}", SK: "USER#{userId}"}).WithShards(8).Partition(map[string]string{"role": "admin"}); err != nil || got != "ROLE#admin" {
		t.Errorf("Partition = %q, %v; want ROLE#admin", got, err)
	}
}

func mustTS(t *testing.T, s string) string {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	k, err := keys.Timestamp(tm)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
