package capacity_test

import (
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

type shapeUser struct {
	UserID string `dynamo:"userId"`
	Email  string `dynamo:"email"`
	Status string `dynamo:"status"`
	Path   string `dynamo:"path"`
}

type shapeOrg struct {
	OrganizationID string `dynamo:"organizationId"`
	Status         string `dynamo:"status"`
	KeyHash        string `dynamo:"keyHash"`
}

// TestMeterShapeNamesPartitionsByDeclaration: Meter.Shape names a
// partition by the declared template it matches, keeping the transforms
// that make a segment something other than the value (a shard, a path's
// root), naming a unique value's guard by its attribute, and naming a key
// that two entities' templates match alike by both.
func TestMeterShapeNamesPartitionsByDeclaration(t *testing.T) {
	t.Parallel()
	tb := table.New(nil, table.NewSchema("shapes"))
	table.NewEntity(tb, table.Def[shapeUser]{Type: "User",
		Keys: table.Template{PK: "USER#{userId:esc}", SK: "PROFILE"},
		IndexKeys: map[table.Index]table.Template{
			table.GSI1: {PK: "STATUS#{status}#{userId:shard4}", SK: "USER#{userId}"},
			table.GSI2: {PK: "TREE#{path:root}", SK: "PATH#{path:esc}"},
		},
		UniqueOn: []string{"email"},
	})
	table.NewEntity(tb, table.Def[shapeOrg]{Type: "Org",
		Keys: table.Template{PK: "ORG#{organizationId}", SK: "PROFILE"},
		IndexKeys: map[table.Index]table.Template{
			table.GSI1: {PK: "STATUS#{status}#{organizationId:shard4}", SK: "ORG#{organizationId}"},
		},
		UniqueOn: []string{"keyhash=keyHash"},
	})
	m := capacity.NewMeter(nil)
	m.Learn(tb)
	for _, c := range []struct {
		p    capacity.Partition
		want string
	}{
		{capacity.Partition{Table: "shapes", Key: "USER#ada"}, "table USER#{userId}"},
		{capacity.Partition{Table: "shapes", Key: "ORG#acme"}, "table ORG#{organizationId}"},
		{capacity.Partition{Table: "shapes", Index: "GSI1", Key: "STATUS#active#3"}, "GSI1 STATUS#{status}#{organizationId/userId:shard4}"},
		{capacity.Partition{Table: "shapes", Index: "GSI2", Key: "TREE#acme"}, "GSI2 TREE#{path:root}"},
		{capacity.Partition{Table: "shapes", Key: "UNIQUE#email#ada@example.com"}, "table UNIQUE#email#{email}"},
		{capacity.Partition{Table: "shapes", Key: "UNIQUE#email#a#b"}, "table UNIQUE#email#{email}"},
		{capacity.Partition{Table: "shapes", Key: "UNIQUE#keyhash#9f86d081"}, "table UNIQUE#keyhash#{keyHash}"},
		{capacity.Partition{Table: "shapes", Key: "UNIQUE#tag#alice"}, "table UNIQUE#tag#{value}"},
		{capacity.Partition{Table: "shapes", Key: "OTHER#x1y2z3"}, "table OTHER#{id}"},
	} {
		if got := m.Shape(c.p); got != c.want {
			t.Errorf("Shape(%v) = %q, want %q", c.p, got, c.want)
		}
	}
}
