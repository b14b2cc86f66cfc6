package table_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// crewID checks itself with the attribute's name, as a typed ID does.
type crewID string

func (id crewID) Validate(field string) error {
	if !strings.HasPrefix(string(id), "crw_") {
		return table.Invalid(field, "%q does not start with crw_", id)
	}
	return nil
}

// crewRole and crewMood are enumerations: NewEnum is all they declare.
type (
	crewRole string
	crewMood string
)

var (
	_ = table.NewEnum("role", crewRole("captain"), crewRole("mate"))
	_ = table.NewEnum("mood", crewMood("calm"), crewMood("stormy"))
)

type crewPrefs struct {
	Mood crewMood `dynamo:"mood"`
}

type crewMember struct {
	Name string   `dynamo:"name"`
	Role crewRole `dynamo:"role"`
}

// crew has no Validate method: every check below is its fields' own, or
// Def.Required.
type crew struct {
	ID      crewID       `dynamo:"id"`
	Name    string       `dynamo:"name"`
	Lead    crewID       `dynamo:"lead"`
	Prefs   crewPrefs    `dynamo:"prefs"`
	Extra   *crewPrefs   `dynamo:"extra"`
	Members []crewMember `dynamo:"members"`
	Role    crewRole     `dynamo:"role"`
}

func crewDef() table.Def[crew] {
	return table.Def[crew]{Type: "Crew", Keys: table.Template{PK: "CREW#{id}", SK: "CREW"}, Required: []string{"name", "role"}}
}

// fieldsOf lists the field and reason of every *ValidationError err joins.
func fieldsOf(err error) []string {
	var out []string
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		if ve, ok := err.(*table.ValidationError); ok {
			out = append(out, ve.Field+": "+ve.Reason)
		} else if u := errors.Unwrap(err); u != nil {
			walk(u) // an operation's wrapping
		} else if err != nil {
			out = append(out, "not a ValidationError: "+err.Error())
		}
	}
	walk(err)
	return out
}

// Issue 42: an item's fields check themselves on every write. A type with
// no Validate method has its typed IDs, enumerations (nested in a struct,
// behind a pointer, in a slice of structs, with dotted names) and
// Def.Required fields refused on Create, Put, CreateOp and Update,
// every failure joined in field order, before any request; the key field
// is checked even when empty; Entity.Validate gives exactly the write's
// error.
func TestFieldChecksOnEveryWrite(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("crews")).Schema())
	crews := table.NewEntity(tb, crewDef())
	c := ctx(t)

	bad := crew{ID: "crw_1", Name: "  ", Lead: "x1", Prefs: crewPrefs{Mood: "sunny"}, Extra: &crewPrefs{Mood: "grey"},
		Members: []crewMember{{Name: "a", Role: "mate"}, {Name: "b", Role: "cook"}}, Role: "captain"}
	want := []string{
		`name: required`,
		`lead: "x1" does not start with crw_`,
		`prefs.mood: unknown value "sunny" (want one of calm, stormy)`,
		`extra.mood: unknown value "grey" (want one of calm, stormy)`,
		`members.role: unknown value "cook" (want one of captain, mate)`,
	}
	rc.Reset()
	check := crews.Validate(&bad)
	if diff := cmp.Diff(want, fieldsOf(check)); diff != "" {
		t.Errorf("Entity.Validate (-want +got):\n%s", diff)
	}
	writes := map[string]func(*crew) error{
		"Create": func(x *crew) error { return crews.Create(c, x) },
		"Put":    func(x *crew) error { return crews.Put(c, x) },
		"CreateOp": func(x *crew) error {
			_, err := crews.CreateOp(x)
			return err
		},
	}
	for name, write := range writes {
		item := bad
		err := write(&item)
		if diff := cmp.Diff(want, fieldsOf(err)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
		if !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: %v, want ErrInvalidInput", name, err)
		}
	}
	// The key field is checked even when empty; a required enumeration
	// left empty is judged by its own check (as CheckEnum did by hand).
	keyless := crew{Name: "n"}
	if diff := cmp.Diff([]string{`id: "" does not start with crw_`, `role: unknown value "" (want one of captain, mate)`},
		fieldsOf(crews.Create(c, &keyless))); diff != "" {
		t.Errorf("Create with no id and no role (-want +got):\n%s", diff)
	}
	if rc.Total() != 0 {
		t.Errorf("bad items sent %v, want nothing", rc.Ops())
	}

	good := crew{ID: "crw_1", Name: "Argo", Prefs: crewPrefs{Mood: "calm"}, Members: []crewMember{{Name: "a", Role: "mate"}}, Role: "mate"}
	if err := crews.Validate(&good); err != nil {
		t.Fatalf("Entity.Validate of a good crew: %v", err)
	}
	if err := crews.Create(c, &good); err != nil {
		t.Fatal(err)
	}
	rc.Reset()
	k := crews.Key(good)
	_, err := crews.Update(c, k, func(x *crew) error { x.Members = append(x.Members, crewMember{Name: "b", Role: "cook"}); return nil })
	if diff := cmp.Diff([]string{`members.role: unknown value "cook" (want one of captain, mate)`}, fieldsOf(err)); diff != "" {
		t.Errorf("Update setting a bad role (-want +got):\n%s", diff)
	}
	if w := rc.Of("PutItem") + rc.Of("UpdateItem") + rc.Of("TransactWriteItems"); w != 0 {
		t.Errorf("a refused update wrote %v", rc.Ops())
	}
	if got, err := crews.Get(c, k); err != nil || len(got.Members) != 1 {
		t.Errorf("after the refused update: %+v, %v; want one member", got, err)
	}
}

// Strict writes, tolerant reads, with the engine's field checks: an item
// another writer stored with an enum value and an ID the entity refuses
// reads back; an Update of another field carries them through, an Update
// that sets such a value is refused; Import keeps the unknown enum value
// (reported as a KeptValue) where it refuses a bad ID.
func TestFieldChecksCarryLegacyValues(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("crewlegacy"))
	crews := table.NewEntity(tb, crewDef())
	c := ctx(t)
	row := func(id, mood, lead string) table.Item {
		return table.Item{"PK": &types.AttributeValueMemberS{Value: "CREW#" + id}, "SK": &types.AttributeValueMemberS{Value: "CREW"},
			"id": &types.AttributeValueMemberS{Value: id}, "name": &types.AttributeValueMemberS{Value: "old"},
			"role": &types.AttributeValueMemberS{Value: "mate"}, "lead": &types.AttributeValueMemberS{Value: lead},
			"prefs": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"mood": &types.AttributeValueMemberS{Value: mood}}}}
	}
	if _, err := tb.Client().PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(tb.Name()), Item: row("crw_old", "sunny", "legacy")}); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "CREW#crw_old", SK: "CREW"}
	got, err := crews.Update(c, k, func(x *crew) error { x.Name = "renamed"; return nil })
	if err != nil || got.Prefs.Mood != "sunny" || got.Lead != "legacy" || got.Name != "renamed" {
		t.Fatalf("Update of the name: %+v, %v; want the legacy mood and lead carried through", got, err)
	}
	_, err = crews.Update(c, k, func(x *crew) error { x.Prefs.Mood = "grey"; return nil })
	if diff := cmp.Diff([]string{`prefs.mood: unknown value "grey" (want one of calm, stormy)`}, fieldsOf(err)); diff != "" {
		t.Errorf("Update setting an unknown mood (-want +got):\n%s", diff)
	}
	_, err = crews.Update(c, k, func(x *crew) error { x.Lead = "other"; return nil })
	if diff := cmp.Diff([]string{`lead: "other" does not start with crw_`}, fieldsOf(err)); diff != "" {
		t.Errorf("Update setting a bad lead (-want +got):\n%s", diff)
	}

	var kept []table.KeptValue
	kc := table.WithKeptValues(c, func(kv table.KeptValue) { kept = append(kept, kv) })
	if o, err := crews.Import(kc, row("crw_imp", "sunny", "crw_2"), false); err != nil || o != table.Changed {
		t.Fatalf("Import with an unknown mood: %v, %v; want it written", o, err)
	}
	if len(kept) != 1 || kept[0].Field != "prefs.mood" || kept[0].Value != "sunny" {
		t.Errorf("kept %+v, want prefs.mood sunny", kept)
	}
	if got, err := crews.Get(c, table.Key{PK: "CREW#crw_imp", SK: "CREW"}); err != nil || got.Prefs.Mood != "sunny" {
		t.Errorf("imported: %+v, %v; want mood sunny", got, err)
	}
	if _, err := crews.Import(kc, row("crw_bad", "calm", "nope"), false); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("Import with a bad lead: %v, want ErrInvalidInput", err)
	}
}

// A name of Def.Required that is no attribute of the type is a
// declaration error, found at NewEntity like the others.
func TestFieldChecksRequiredUnknown(t *testing.T) {
	t.Parallel()
	tb := table.New(nil, table.NewSchema("crewdecl"))
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "table.NewEntity(Crew)") || !strings.Contains(s, "prefs.colour") {
			t.Errorf("NewEntity with Required prefs.colour: panic %v, want a declaration error naming it", r)
		}
	}()
	def := crewDef()
	def.Required = append(def.Required, "prefs.colour")
	table.NewEntity(tb, def)
}

// The type's own Validate runs after the field checks, and its error is
// joined after theirs.
func TestFieldChecksThenValidate(t *testing.T) {
	t.Parallel()
	def := crewDef()
	def.Validate = func(x *crew) error {
		if x.Lead == x.ID {
			return table.Invalid("lead", "the crew's own id")
		}
		return nil
	}
	crews := table.NewEntity(table.New(nil, table.NewSchema("crewown")), def)
	err := crews.Validate(&crew{ID: "crw_1", Name: "n", Role: "mate", Lead: "crw_1", Prefs: crewPrefs{Mood: "hot"}})
	want := []string{`prefs.mood: unknown value "hot" (want one of calm, stormy)`, `lead: the crew's own id`}
	if diff := cmp.Diff(want, fieldsOf(err)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if err := crews.Validate(&crew{ID: "crw_1", Name: "n", Role: "mate", Lead: "crw_1"}); fmt.Sprint(fieldsOf(err)) != "[lead: the crew's own id]" {
		t.Errorf("only the type's rule: %v", err)
	}
}
