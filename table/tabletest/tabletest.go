package tabletest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/internal/dynamolocal"
	"github.com/singletable/singletable/table"
)

// startTimeout bounds starting DynamoDB Local, a first download included.
const startTimeout = 5 * time.Minute

// local is the DynamoDB Local of this test binary.
var local struct {
	once     sync.Once
	inst     *dynamolocal.Instance
	client   *dynamodb.Client
	err      error
	took     time.Duration
	logged   sync.Once
	closeMu  sync.Mutex
	isClosed bool
}

// start starts the binary's DynamoDB Local on first use, or fails t.
func start(t testing.TB) *dynamolocal.Instance {
	t.Helper()
	local.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		defer cancel()
		t0 := time.Now()
		local.inst, local.err = dynamolocal.Start(ctx)
		local.took = time.Since(t0)
		if local.err == nil {
			local.client = dynamolocal.NewClient(local.inst.Endpoint())
			fmt.Fprintf(os.Stderr, "tabletest: %s\n", describe())
		}
	})
	if local.err != nil {
		t.Fatalf("tabletest: %v", local.err)
	}
	local.closeMu.Lock()
	closed := local.isClosed
	local.closeMu.Unlock()
	if closed {
		t.Fatalf("tabletest: DynamoDB Local used after Main closed it")
	}
	local.logged.Do(func() { t.Logf("tabletest: %s", describe()) })
	return local.inst
}

func describe() string {
	return fmt.Sprintf("DynamoDB Local at %s (backend %s, ready in %v)",
		local.inst.Endpoint(), local.inst.Backend(), local.took.Round(time.Millisecond))
}

// Main runs the tests of m, stops the DynamoDB Local if one was started,
// and exits with m's code. Call it from TestMain. It is optional: the
// instance dies with the test binary anyway.
func Main(m *testing.M) {
	code := m.Run()
	local.closeMu.Lock()
	local.isClosed = true
	local.closeMu.Unlock()
	if local.inst != nil {
		if err := local.inst.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "tabletest: stop DynamoDB Local: %v\n", err)
		}
	}
	os.Exit(code)
}

// Endpoint returns the URL of the test binary's DynamoDB Local, starting
// it on first use. It fails t if DynamoDB Local cannot run.
func Endpoint(t testing.TB) string {
	t.Helper()
	return start(t).Endpoint()
}

// Client returns the client shared by the tests of the binary, connected
// to its DynamoDB Local. It fails t if DynamoDB Local cannot run.
func Client(t testing.TB) *dynamodb.Client {
	t.Helper()
	start(t)
	return local.client
}

// NewClient returns a new client of the binary's DynamoDB Local, with the
// shared dummy credentials and region, changed by optFns: give it an
// HTTPClient or APIOptions middleware to inject faults in front of the
// real service.
func NewClient(t testing.TB, optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	t.Helper()
	return dynamolocal.NewClient(Endpoint(t), optFns...)
}

// NewTable creates a table of schema in the binary's DynamoDB Local and
// deletes it when t ends. The table's name is schema.Name followed by the
// test's name and a random suffix, so each call gets its own table and
// tests may run in parallel. opts are passed to [table.New], after a
// default that sets Options.Cipher to [Cipher], so entities with secret
// fields work (encrypted) in tests.
func NewTable(t testing.TB, schema table.Schema, opts ...func(*table.Options)) *table.Table {
	t.Helper()
	client := Client(t)
	schema.Name = TableName(schema.Name, t.Name())
	opts = append([]func(*table.Options){func(o *table.Options) { o.Cipher, o.CursorKey = Cipher(), cursorKey }}, opts...)
	tbl := table.New(client, schema, opts...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := tbl.Create(ctx); err != nil {
		t.Fatalf("tabletest: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := tbl.Delete(ctx); err != nil {
			t.Errorf("tabletest: %v", err)
		}
	})
	return tbl
}

// cursorKey seals the cursors of the kit's tables (a fixed test key, so
// that tables over the same DynamoDB table share their cursors).
var cursorKey = []byte("tabletest cursor key, 32 bytes!!")

// maxNameLen is DynamoDB's limit on table names.
const maxNameLen = 255

// TableName returns a fresh table name made of prefix, the test name and a
// random suffix: at most 255 characters of [a-zA-Z0-9_.-], as DynamoDB
// requires. [NewTable] names its tables with it.
func TableName(prefix, testName string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	suffix := "-" + hex.EncodeToString(b[:])
	name := sanitize(prefix)
	if tn := sanitize(testName); tn != "" {
		if name != "" {
			name += "-"
		}
		name += tn
	}
	if name == "" {
		name = "t"
	}
	if len(name) > maxNameLen-len(suffix) {
		name = name[:maxNameLen-len(suffix)]
	}
	return name + suffix
}

// sanitize replaces what a table name may not hold with '_'.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '_', r == '.', r == '-':
			return r
		}
		return '_'
	}, s)
}

var (
	cipherOnce sync.Once
	testCipher table.Cipher
)

// Cipher returns the AES-GCM cipher the test binary's tables use for
// secret fields, with a random key made once per binary.
func Cipher() table.Cipher {
	cipherOnce.Do(func() {
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			panic(err)
		}
		c, err := table.NewAESGCM(key)
		if err != nil {
			panic(err)
		}
		testCipher = c
	})
	return testCipher
}
