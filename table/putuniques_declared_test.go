package table_test

import (
	"slices"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestDeclaredPutRefusesUniques: a declared Put or BatchPut, which
// replace items unconditionally, on an entity with unique values (whose
// guards only Create and Update keep exact) is a declaration error: it
// panics at declaration naming the write and the way out, registers
// nothing and sends no request. The same declarations on an entity
// without unique values are accepted.
func TestDeclaredPutRefusesUniques(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("putuniques")).Schema())
	users := table.NewEntity(tb, userDef) // UniqueOn email
	for _, c := range []struct {
		kind    string
		declare func(table.WriteDef[User])
	}{
		{"Put", func(d table.WriteDef[User]) { table.Put(users, d) }},
		{"BatchPut", func(d table.WriteDef[User]) { table.BatchPut(users, d) }},
	} {
		name := "example.Users." + c.kind
		func() {
			defer func() {
				if r, _ := recover().(string); !containsAll(r, c.kind, name, "unique values", "Create") {
					t.Errorf("declaring a %s on an entity with unique values: panic %q, want one naming the write, its unique values and Create", c.kind, r)
				}
			}()
			c.declare(table.WriteDef[User]{ID: "EX-9", Name: name, Doc: "Stores a user."})
		}()
		if ops := tb.Ops(); slices.ContainsFunc(ops, func(o table.OpInfo) bool { return o.Name == name }) {
			t.Errorf("Ops after a refused %s = %+v, want no %s", c.kind, ops, name)
		}
	}
	if w := tb.Writes(); len(w) != 0 {
		t.Errorf("Writes after refused declarations = %+v, want none", w)
	}

	plain := userDef
	plain.Type, plain.UniqueOn = "PlainUser", nil
	plainUsers := table.NewEntity(tb, plain)
	table.Put(plainUsers, table.WriteDef[User]{ID: "EX-9", Name: "example.PlainUsers.Put", Doc: "Stores a user."})
	table.BatchPut(plainUsers, table.WriteDef[User]{ID: "EX-9", Name: "example.PlainUsers.BatchPut", Doc: "Stores users."})
	if w := tb.Writes(); len(w) != 2 || w[0].Kind != "Put" || w[1].Kind != "BatchPut" {
		t.Errorf("Writes after accepted declarations = %+v, want the Put and the BatchPut", w)
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("declarations sent %d requests, want none", n)
	}
}
