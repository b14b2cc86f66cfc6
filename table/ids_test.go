package table_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// parcelID and courierID are typed IDs with no method of their own:
// NewIDs is all they declare, and the engine knows their formats by
// their types. A parcel ID is minted here ("pcl_" and 10 random
// characters); a courier ID comes from elsewhere and is one key segment
// of at most 8 bytes.
type (
	parcelID  string
	courierID string
)

var (
	parcelIDs  = table.NewIDs[parcelID]("parcelId", table.IDFormat{Prefix: "pcl_", Random: 10})
	courierIDs = table.NewIDs[courierID]("courierId", table.IDFormat{Segment: table.Segment{MaxBytes: 8}})
)

// A parcel is keyed by its ID and listed by courier (GSI1).
type parcel struct {
	ID      parcelID  `dynamo:"id"`
	Courier courierID `dynamo:"courier"`
	Note    string    `dynamo:"note"`
}

// Issue 42: a typed ID is declared once (NewIDs) and written nowhere
// else. With no Validate method on its type, its format holds where the
// engine meets the type: a write that sets the field, a key of
// CheckedKey, a key field of a declared read, a patch that sets the
// field. Each refusal is a *ValidationError naming the attribute with
// the reason a hand-written Validate gave, before any request; minted IDs
// write and read on DynamoDB Local.
func TestIDsKnownByType(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("parcels")).Schema())
	parcels := table.NewEntity(tb, table.Def[parcel]{Type: "Parcel",
		Keys:      table.Template{PK: "PARCEL#{id}", SK: "PARCEL"},
		IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "COURIER#{courier}", SK: "PARCEL#{id}"}},
	})
	byCourier := table.NewPattern(parcels, table.PatternDef[parcel]{ID: "T-41", Name: "parcels.Parcels.ByCourier",
		Index: table.GSI1, Reads: table.ReadPage})
	c := ctx(t)

	want := func(what string, err error, field, reason string) {
		t.Helper()
		var ve *table.ValidationError
		if !errors.As(err, &ve) || ve.Field != field || ve.Reason != reason || !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: %v, want a ValidationError on %s: %s", what, err, field, reason)
		}
	}
	rc.Reset()
	want("Create with a short parcel ID", parcels.Create(c, &parcel{ID: "pcl_short", Courier: "c1"}),
		"id", `"pcl_short" is not pcl_ followed by 10 characters`)
	want("Create with a bad courier ID", parcels.Create(c, &parcel{ID: parcelIDs.New(), Courier: "c#1"}),
		"courier", "contains the key delimiter '#'")
	_, err := parcels.CheckedKey(parcel{ID: "pcl_abcdefghi!"})
	want("CheckedKey with a character outside the alphabet", err, "id", `"pcl_abcdefghi!" holds '!', outside A-Za-z0-9_-`)
	k, _ := parcels.CheckedKey(parcel{ID: "usr_abcdefghij"})
	_, err = parcels.Get(c, k)
	want("Get by a refused key", err, "id", `"usr_abcdefghij" is not pcl_ followed by 10 characters`)
	_, err = byCourier.List(c, parcel{Courier: "courier-9"})
	want("List by a courier ID too long", err, "courier", "longer than 8 bytes")
	want("courierIDs.Check", courierIDs.Check(""), "courierId", "empty")
	if rc.Total() != 0 {
		t.Errorf("bad input sent %v, want nothing", rc.Ops())
	}

	p := parcel{ID: parcelIDs.New(), Courier: "c1", Note: "fragile"}
	if err := parcels.Create(c, &p); err != nil {
		t.Fatal(err)
	}
	page, err := byCourier.List(c, parcel{Courier: "c1"})
	if err != nil || len(page.Items) != 1 || page.Items[0] != p {
		t.Fatalf("List c1 = %+v, %v; want %+v", page.Items, err, p)
	}
	rc.Reset()
	_, err = parcels.Patch(c, parcels.Key(p), table.Patch{Set: map[string]any{"note": "x", "courier": "courier-9"}})
	want("Patch a courier ID too long", err, "courier", "longer than 8 bytes")
	if rc.Total() != 0 {
		t.Errorf("a bad patch sent %v, want nothing", rc.Ops())
	}
	if got, err := parcels.Get(c, parcels.Key(p)); err != nil || got != p {
		t.Errorf("after the refused patch: %+v, %v; want %+v", got, err, p)
	}
}

// Minted IDs parse, are distinct and draw every character of the
// alphabet; a Parse names the declared field; one format per type.
func TestIDsMint(t *testing.T) {
	t.Parallel()
	seen := map[parcelID]bool{}
	chars := map[rune]bool{}
	for range 2000 {
		id := parcelIDs.New()
		if got, err := parcelIDs.Parse(string(id)); err != nil || got != id || !parcelIDs.Valid(id) || seen[id] {
			t.Fatalf("minted %q: Parse %q, %v; valid %v; seen %v", id, got, err, parcelIDs.Valid(id), seen[id])
		}
		seen[id] = true
		for _, r := range id[4:] {
			chars[r] = true
		}
	}
	if len(chars) != 64 {
		t.Errorf("minted IDs drew %d distinct characters, want 64", len(chars))
	}
	_, err := parcelIDs.Parse("pcl_")
	var ve *table.ValidationError
	if !errors.As(err, &ve) || ve.Field != "parcelId" || ve.Key {
		t.Errorf("Parse(pcl_) = %v, want a ValidationError on parcelId", err)
	}
	if err := courierIDs.CheckField("from", "c\n"); err == nil || err.Error() != "singletable: invalid from: contains a control character" {
		t.Errorf("CheckField(from, c\\n) = %v", err)
	}
	if parcelIDs.Field() != "parcelId" || parcelIDs.Format().Prefix != "pcl_" {
		t.Errorf("Field, Format = %q, %+v", parcelIDs.Field(), parcelIDs.Format())
	}

	table.NewIDs[parcelID]("parcelId", parcelIDs.Format()) // the same format again is fine
	for name, declare := range map[string]func(){
		"another format":     func() { table.NewIDs[parcelID]("parcelId", table.IDFormat{Prefix: "pcl_", Random: 12}) },
		"a prefix alone":     func() { table.NewIDs[courierID]("courierId", table.IDFormat{Prefix: "c_"}) },
		"New with no random": func() { courierIDs.New() },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "table: ") {
					t.Errorf("%s: panic %v, want one", name, r)
				}
			}()
			declare()
		}()
	}
}
