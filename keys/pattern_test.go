package keys_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/singletable/singletable/keys"
)

// GSI1SK stands for a caller's own key type, such as a GSI sort key.
type GSI1SK string

var (
	userPK   = keys.NewPattern[keys.PK]("USER", "userId")
	eventSK  = keys.NewPattern[keys.SK]("EVT", "receivedAt", "eventId")
	orgPK    = keys.NewPattern[keys.PK]("ORG", "organizationId", "date")
	topicSK  = keys.NewPattern[keys.SK]("TOPIC", "topicId", "seq")
	profile  = keys.NewPattern[keys.SK]("PROFILE")
	platform = keys.NewPattern[keys.PK]("PLATFORM")
	attSK    = keys.NewPattern[keys.SK]("ATT", "n")
	globalPK = keys.NewPattern[keys.PK]("GLOBAL", "date")
	nested   = keys.NewPattern[keys.SK]("TENANT#ORG", "orgId")
	gsi      = keys.NewPattern[GSI1SK]("TAG", "tag").WithMaxBytes(keys.MaxSKBytes)
)

// TestCompatibleKeys checks keys byte for byte against existing documents.
func TestCompatibleKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		build func() (string, error)
		want  string
	}{
		{"user", str(userPK.Build("u_1")), "USER#u_1"},
		{"attachment", str(attSK.Build("3")), "ATT#3"},
		{"event", str(eventSK.Build("1700000000000", "evt_abc")), "EVT#1700000000000#evt_abc"},
		{"global", str(globalPK.Build("2024-01-31")), "GLOBAL#2024-01-31"},
		{"org", str(orgPK.Build("o1", "2024-01-31")), "ORG#o1#2024-01-31"},
		{"profile", str(profile.Build()), "PROFILE"},
		{"platform", str(platform.Build()), "PLATFORM"},
		{"nested literal", str(nested.Build("o1")), "TENANT#ORG#o1"},
		{"case kept", str(userPK.Build("AbC")), "USER#AbC"},
		{"unicode", str(userPK.Build("zoë-日本")), "USER#zoë-日本"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.build()
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Build (-want +got):\n%s", diff)
			}
		})
	}
}

// str adapts a typed Build result for a table of mixed key types.
func str[K ~string](k K, err error) func() (string, error) {
	return func() (string, error) { return string(k), err }
}

func TestBuildParseRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pattern keys.Pattern[keys.SK]
		values  []string
	}{
		{"constant", profile, []string{}},
		{"one", attSK, []string{"3"}},
		{"two", eventSK, []string{"1700000000000", "evt_abc"}},
		{"uint", topicSK, []string{keys.MustUint(42, 10), keys.MustUint(7, 4)}},
		{"int", topicSK, []string{keys.Int(-5), keys.Int(1 << 40)}},
		{"unix milli", eventSK, []string{keys.MustUnixMilli(mustTime("2024-01-31T09:30:00.123Z")), "e"}},
		{"date", eventSK, []string{keys.MustDate(mustTime("2024-02-29T23:00:00Z")), "e"}},
		{"timestamp", eventSK, []string{keys.MustTimestamp(mustTime("2024-01-31T09:30:00.000000001Z")), "e"}},
		{"escaped", topicSK, []string{keys.Escape("a#b"), keys.Escape("100%")}},
		{"multibyte", attSK, []string{"日本語"}},
		{"nested literal", nested, []string{"o1"}},
		{"max length", attSK, []string{strings.Repeat("x", keys.MaxSKBytes-len("ATT#"))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			key, err := tt.pattern.Build(tt.values...)
			if err != nil {
				t.Fatalf("Build(%q): %v", tt.values, err)
			}
			if !tt.pattern.Matches(key) {
				t.Errorf("Matches(%q) = false", key)
			}
			got, err := tt.pattern.Parse(key)
			if err != nil {
				t.Fatalf("Parse(%q): %v", key, err)
			}
			if diff := cmp.Diff(tt.values, got); diff != "" {
				t.Errorf("Parse(Build(v)) (-want +got):\n%s", diff)
			}
			for i, want := range tt.values {
				seg, err := tt.pattern.Segment(key, i)
				if err != nil || seg != want {
					t.Errorf("Segment(%q, %d) = %q, %v; want %q", key, i, seg, err, want)
				}
			}
		})
	}
}

func TestBuildInvalid(t *testing.T) {
	t.Parallel()
	long3 := strings.Repeat("語", 1000) // 1000 runes, 3000 bytes
	tests := []struct {
		name    string
		pattern keys.Pattern[keys.PK]
		values  []string
		segment string // the segment the SegmentError names; "" if another error
		wantErr any    // pointer to the expected error type
	}{
		{"empty", userPK, []string{""}, "userId", new(*keys.SegmentError)},
		{"invalid utf8", userPK, []string{"a\xffb"}, "userId", new(*keys.SegmentError)},
		{"truncated rune", userPK, []string{"\xe8\xaa"}, "userId", new(*keys.SegmentError)},
		{"newline", userPK, []string{"a\nb"}, "userId", new(*keys.SegmentError)},
		{"nul", userPK, []string{"\x00"}, "userId", new(*keys.SegmentError)},
		{"del", userPK, []string{"a\x7f"}, "userId", new(*keys.SegmentError)},
		{"c1 control", userPK, []string{"a\u0085"}, "userId", new(*keys.SegmentError)},
		{"delimiter", userPK, []string{"1#EVT"}, "userId", new(*keys.SegmentError)},
		{"second segment", orgPK, []string{"o1", "2024#01"}, "date", new(*keys.SegmentError)},
		{"too long in bytes", userPK, []string{long3}, "", new(*keys.LengthError)},
		{"too few values", orgPK, []string{"o1"}, "", new(*keys.KeyError)},
		{"too many values", userPK, []string{"a", "b"}, "", new(*keys.KeyError)},
		{"values for a constant", platform, []string{"a"}, "", new(*keys.KeyError)},
		{"zero pattern", keys.Pattern[keys.PK]{}, []string{"a"}, "", new(*keys.KeyError)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			key, err := tt.pattern.Build(tt.values...)
			if err == nil {
				t.Fatalf("Build(%q) = %q, want error", tt.values, key)
			}
			checkErr(t, err, tt.wantErr, tt.segment)
		})
	}
}

// checkErr checks that err matches ErrInvalidKey, is of the type wantType
// points to and, for a *SegmentError, names segment.
func checkErr(t *testing.T, err error, wantType any, segment string) {
	t.Helper()
	if !errors.Is(err, keys.ErrInvalidKey) {
		t.Errorf("errors.Is(%v, ErrInvalidKey) = false", err)
	}
	if !errors.As(err, wantType) {
		t.Errorf("error %T (%v) is not %T", err, err, wantType)
	}
	if segment == "" {
		return
	}
	var se *keys.SegmentError
	if errors.As(err, &se) {
		if se.Segment != segment {
			t.Errorf("SegmentError.Segment = %q, want %q", se.Segment, segment)
		}
		if !strings.Contains(err.Error(), segment) {
			t.Errorf("error %q does not name segment %q", err, segment)
		}
	}
}

func TestLengthLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		build func(v string) error
		max   int
	}{
		{"PK", func(v string) error { _, err := keys.NewPattern[keys.PK]("P", "v").Build(v); return err }, keys.MaxPKBytes},
		{"SK", func(v string) error { _, err := keys.NewPattern[keys.SK]("P", "v").Build(v); return err }, keys.MaxSKBytes},
		{"own type default", func(v string) error { _, err := keys.NewPattern[GSI1SK]("P", "v").Build(v); return err }, keys.MaxPKBytes},
		{"WithMaxBytes", func(v string) error {
			_, err := keys.NewPattern[GSI1SK]("P", "v").WithMaxBytes(100).Build(v)
			return err
		}, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fit := strings.Repeat("a", tt.max-len("P#"))
			if err := tt.build(fit); err != nil {
				t.Errorf("key of %d bytes: %v", tt.max, err)
			}
			err := tt.build(fit + "a")
			var le *keys.LengthError
			if !errors.As(err, &le) || le.Bytes != tt.max+1 || le.Max != tt.max {
				t.Errorf("key of %d bytes: err = %v, want LengthError{Bytes: %d, Max: %d}", tt.max+1, err, tt.max+1, tt.max)
			}
			checkErr(t, err, new(*keys.LengthError), "")
		})
	}
}

func TestParseInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pattern keys.Pattern[keys.SK]
		key     keys.SK
		segment string
		wantErr any
	}{
		{"foreign prefix", eventSK, "ORG#1#2", "", new(*keys.KeyError)},
		{"prefix of literal", eventSK, "EV#1#2", "", new(*keys.KeyError)},
		{"literal run on", eventSK, "EVTX#1#2", "", new(*keys.KeyError)},
		{"literal only", eventSK, "EVT", "", new(*keys.KeyError)},
		{"too few segments", eventSK, "EVT#1", "", new(*keys.KeyError)},
		{"too many segments", eventSK, "EVT#1#2#3", "", new(*keys.KeyError)},
		{"trailing delimiter", eventSK, "EVT#1#2#", "", new(*keys.KeyError)},
		{"prefix form", eventSK, "EVT#1#", "eventId", new(*keys.SegmentError)},
		{"empty first", eventSK, "EVT##2", "receivedAt", new(*keys.SegmentError)},
		{"control", eventSK, "EVT#1#a\tb", "eventId", new(*keys.SegmentError)},
		{"invalid utf8", eventSK, "EVT#\xc3#2", "receivedAt", new(*keys.SegmentError)},
		{"constant with segment", profile, "PROFILE#1", "", new(*keys.KeyError)},
		{"constant run on", profile, "PROFILES", "", new(*keys.KeyError)},
		{"empty key", profile, "", "", new(*keys.KeyError)},
		{"too long", attSK, keys.SK("ATT#" + strings.Repeat("x", keys.MaxSKBytes)), "", new(*keys.LengthError)},
		{"nested literal cut", nested, "TENANT#o1", "", new(*keys.KeyError)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.pattern.Parse(tt.key)
			if err == nil {
				t.Fatalf("Parse(%q) = %q, want error", tt.key, got)
			}
			checkErr(t, err, tt.wantErr, tt.segment)
			if tt.pattern.Matches(tt.key) {
				t.Errorf("Matches(%q) = true", tt.key)
			}
			if _, err := tt.pattern.Segment(tt.key, 0); err == nil && len(tt.pattern.Segments()) > 0 {
				t.Errorf("Segment(%q, 0) succeeded", tt.key)
			}
		})
	}
}

func TestSegmentOutOfRange(t *testing.T) {
	t.Parallel()
	key := eventSK.MustBuild("1", "2")
	for _, i := range []int{-1, 2} {
		_, err := eventSK.Segment(key, i)
		checkErr(t, err, new(*keys.KeyError), "")
	}
}

func TestPrefix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pattern keys.Pattern[keys.SK]
		values  []string
		want    keys.SK
	}{
		{"none", topicSK, nil, "TOPIC#"},
		{"first segment", topicSK, []string{"1"}, "TOPIC#1#"},
		{"nested literal", nested, nil, "TENANT#ORG#"},
		{"three segments", keys.NewPattern[keys.SK]("A", "x", "y", "z"), []string{"1", "2"}, "A#1#2#"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.pattern.Prefix(tt.values...)
			if err != nil {
				t.Fatalf("Prefix(%q): %v", tt.values, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Prefix (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPrefixBoundary: the prefix for topic 1 must not match topic 10.
func TestPrefixBoundary(t *testing.T) {
	t.Parallel()
	p1, err := topicSK.Prefix("1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key  keys.SK
		want bool
	}{
		{topicSK.MustBuild("1", "5"), true},
		{topicSK.MustBuild("10", "5"), false},
		{topicSK.MustBuild("1x", "5"), false},
		{topicSK.MustBuild("2", "5"), false},
	}
	for _, tt := range tests {
		if got := strings.HasPrefix(string(tt.key), string(p1)); got != tt.want {
			t.Errorf("begins_with(%q, %q) = %v, want %v", tt.key, p1, got, tt.want)
		}
	}
	all, _ := topicSK.Prefix()
	if !strings.HasPrefix(string(topicSK.MustBuild("10", "5")), string(all)) {
		t.Errorf("Prefix() = %q does not prefix TOPIC#10#5", all)
	}
	if strings.HasPrefix("TOPICS#1#2", string(all)) {
		t.Errorf("Prefix() = %q prefixes TOPICS#1#2", all)
	}
}

func TestPrefixInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pattern keys.Pattern[keys.SK]
		values  []string
		segment string
		wantErr any
	}{
		{"all segments", topicSK, []string{"1", "2"}, "", new(*keys.KeyError)},
		{"constant", profile, nil, "", new(*keys.KeyError)},
		{"empty", topicSK, []string{""}, "topicId", new(*keys.SegmentError)},
		{"delimiter", topicSK, []string{"1#"}, "topicId", new(*keys.SegmentError)},
		{"control", topicSK, []string{"\r"}, "topicId", new(*keys.SegmentError)},
		{"too long", topicSK, []string{strings.Repeat("é", 600)}, "", new(*keys.LengthError)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.pattern.Prefix(tt.values...)
			if err == nil {
				t.Fatalf("Prefix(%q) = %q, want error", tt.values, got)
			}
			checkErr(t, err, tt.wantErr, tt.segment)
		})
	}
}

func TestPatternAccessors(t *testing.T) {
	t.Parallel()
	if got := orgPK.Literal(); got != "ORG" {
		t.Errorf("Literal() = %q", got)
	}
	if got := orgPK.String(); got != "ORG#{organizationId}#{date}" {
		t.Errorf("String() = %q", got)
	}
	if diff := cmp.Diff([]string{"organizationId", "date"}, orgPK.Segments()); diff != "" {
		t.Errorf("Segments() (-want +got):\n%s", diff)
	}
	orgPK.Segments()[0] = "mutated"
	if orgPK.Segments()[0] != "organizationId" {
		t.Error("Segments() exposes the pattern's slice")
	}
	if got := gsi.MaxBytes(); got != keys.MaxSKBytes {
		t.Errorf("MaxBytes() = %d", got)
	}
	if got := keys.PK("USER#1").String(); got != "USER#1" {
		t.Errorf("PK.String() = %q", got)
	}
	if got := keys.SK("PROFILE").String(); got != "PROFILE" {
		t.Errorf("SK.String() = %q", got)
	}
}

func TestNewPatternPanics(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		prefix string
		names  []string
	}{
		{"empty prefix", "", nil},
		{"leading delimiter", "#USER", nil},
		{"trailing delimiter", "USER#", nil},
		{"double delimiter", "A##B", nil},
		{"control in prefix", "US\tER", nil},
		{"invalid utf8 prefix", "\xff", nil},
		{"empty name", "USER", []string{""}},
		{"delimiter in name", "USER", []string{"a#b"}},
		{"brace in name", "USER", []string{"{id}"}},
		{"repeated name", "USER", []string{"id", "id"}},
		{"prefix too long", strings.Repeat("x", keys.MaxPKBytes+1), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			defer func() {
				if recover() == nil {
					t.Errorf("NewPattern(%q, %q) did not panic", tt.prefix, tt.names)
				}
			}()
			keys.NewPattern[keys.PK](tt.prefix, tt.names...)
		})
	}
}

func TestWithMaxBytesPanics(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 2, keys.MaxPKBytes + 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("WithMaxBytes(%d) did not panic", n)
				}
			}()
			userPK.WithMaxBytes(n)
		}()
	}
}

func TestMustBuildPanics(t *testing.T) {
	t.Parallel()
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, keys.ErrInvalidKey) {
			t.Errorf("MustBuild panicked with %v, want ErrInvalidKey", err)
		}
	}()
	userPK.MustBuild("a#b")
}
