package ferryhook_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

func TestMain(m *testing.M) { tabletest.Main(m) }

// fixture is a store on two fresh tables of its own.
type fixture struct {
	store        *ferryhook.Store
	main, events *table.Table
}

// newFixture creates both tables (schema options apply to both) and a
// store with opts.
func newFixture(t *testing.T, schemaOpts []table.SchemaOption, opts ...func(*ferryhook.Options)) fixture {
	t.Helper()
	return newFixtureWith(t, schemaOpts, nil, opts...)
}

// newFixtureWith is newFixture with table options.
func newFixtureWith(t *testing.T, schemaOpts []table.SchemaOption, topts []func(*table.Options), opts ...func(*ferryhook.Options)) fixture {
	t.Helper()
	main := tabletest.NewTable(t, ferryhook.MainSchema(ferryhook.DefaultMainTable, schemaOpts...), topts...)
	events := tabletest.NewTable(t, ferryhook.EventsSchema(ferryhook.DefaultEventsTable, schemaOpts...), topts...)
	return fixture{store: ferryhook.New(main, events, opts...), main: main, events: events}
}

func newStore(t *testing.T) *ferryhook.Store {
	t.Helper()
	return newFixture(t, nil).store
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}

var bcryptHash = "$2b$10$" + strings.Repeat("a", 53)

func mustUser(t *testing.T, s *ferryhook.Store, email string) fh.User {
	t.Helper()
	u, err := s.Users.Create(ctx(t), ferryhook.CreateUserInput{Email: email, Name: "Ada", PasswordHash: bcryptHash})
	if err != nil {
		t.Fatalf("create user: %v", err)
	}
	return u
}

func mustSource(t *testing.T, s *ferryhook.Store, user fh.UserID, name string) fh.Source {
	t.Helper()
	src, err := s.Sources.Create(ctx(t), user, ferryhook.CreateSourceInput{Name: name, Provider: fh.ProviderStripe, SigningSecret: "whsec_test"})
	if err != nil {
		t.Fatalf("create source: %v", err)
	}
	return src
}

// wantInvalid fails t unless err is a *table.ValidationError naming field.
func wantInvalid(t *testing.T, err error, field string) {
	t.Helper()
	var ve *table.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want a *table.ValidationError for %s", err, field)
	}
	if ve.Field != field {
		t.Fatalf("validation error names %q (%v), want %q", ve.Field, err, field)
	}
	if !errors.Is(err, table.ErrInvalidInput) {
		t.Fatalf("err = %v does not match table.ErrInvalidInput", err)
	}
}

func wantIs(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("err = %v, want %v", err, target)
	}
}
