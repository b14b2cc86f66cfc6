package tableschema

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
)

// Difference is one difference between a live table and its [table.Schema].
type Difference struct {
	// What names the difference: "table", "key", "attribute", "index",
	// "ttl", "stream" or "billing".
	What string
	// Name is the index or attribute concerned, if any.
	Name string
	// Live and Want describe the two sides ("" when absent).
	Live, Want string
	// Apply is true when [Apply] can make the change without
	// touching data (create a missing table, enable TTL, enable the
	// stream the schema declares on a table that has none). A missing GSI is
	// reported for the operator to add (UpdateTable backfills it from the
	// whole table; DynamoDB Local's online index creation is broken, so the
	// library does not do it for you); key schema differences need a new
	// table and a migration. A stream of another view type is reported,
	// not applied: changing it means disabling the stream and enabling a
	// new one, whose readers start over (the old stream's records stay
	// readable for 24 hours, its consumers' checkpoints do not carry over).
	Apply bool
}

// String describes the change on one line.
func (c Difference) String() string {
	name := c.What
	if c.Name != "" {
		name += " " + c.Name
	}
	how := "cannot be applied in place"
	if c.Apply {
		how = "Apply makes it"
	}
	switch {
	case c.Live == "":
		return fmt.Sprintf("+ %s: %s (%s)", name, c.Want, how)
	case c.Want == "":
		return fmt.Sprintf("- %s: %s (not in the schema; left as is)", name, c.Live)
	}
	return fmt.Sprintf("~ %s: live %s, schema %s (%s)", name, c.Live, c.Want, how)
}

// Plan is the list of differences between the live table and the schema:
// empty when they agree. It changes nothing.
type Plan struct {
	Table   string
	Changes []Difference
}

// String prints the plan, one change per line.
func (p Plan) String() string {
	if len(p.Changes) == 0 {
		return fmt.Sprintf("table %s matches its schema: nothing to do\n", p.Table)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "table %s: %d difference(s)\n", p.Table, len(p.Changes))
	for _, c := range p.Changes {
		b.WriteString("  " + c.String() + "\n")
	}
	return b.String()
}

// Compare compares the live table with its schema (DescribeTable and
// DescribeTimeToLive) and returns the differences as a [Plan]: keys,
// attribute types, GSIs, TTL and the stream (a schema's stream missing or
// of another view type; a live stream the schema does not declare is
// listed and left as is). It writes
// nothing: use it on a deployment before [Apply], which never runs by
// itself.
func Compare(ctx context.Context, t *table.Table) (Plan, error) {
	schema, client := t.Schema(), t.Client()
	p := Plan{Table: schema.Name}
	want := schema.CreateTableInput()
	out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(schema.Name)})
	var nf *types.ResourceNotFoundException
	if errors.As(err, &nf) {
		p.Changes = append(p.Changes, Difference{What: "table", Want: fmt.Sprintf("create with %d GSIs", len(want.GlobalSecondaryIndexes)), Apply: true})
		return p, nil
	}
	if err != nil {
		return p, fmt.Errorf("plan %s: %w", schema.Name, err)
	}
	live := out.Table
	if a, b := keySchema(live.KeySchema), keySchema(want.KeySchema); a != b {
		p.Changes = append(p.Changes, Difference{What: "key", Live: a, Want: b})
	}
	liveTypes := map[string]types.ScalarAttributeType{}
	for _, a := range live.AttributeDefinitions {
		liveTypes[aws.ToString(a.AttributeName)] = a.AttributeType
	}
	for _, a := range want.AttributeDefinitions {
		if lt, ok := liveTypes[aws.ToString(a.AttributeName)]; ok && lt != a.AttributeType {
			p.Changes = append(p.Changes, Difference{What: "attribute", Name: aws.ToString(a.AttributeName), Live: string(lt), Want: string(a.AttributeType)})
		}
	}
	liveIx := map[string]types.GlobalSecondaryIndexDescription{}
	for _, ix := range live.GlobalSecondaryIndexes {
		liveIx[aws.ToString(ix.IndexName)] = ix
	}
	wantIx := map[string]bool{}
	for _, ix := range want.GlobalSecondaryIndexes {
		name := aws.ToString(ix.IndexName)
		wantIx[name] = true
		l, ok := liveIx[name]
		if !ok {
			// Adding a GSI backfills it from the whole table: left to the
			// operator (UpdateTable, or the CloudFormation/Terraform export).
			p.Changes = append(p.Changes, Difference{What: "index", Name: name, Want: keySchema(ix.KeySchema)})
			continue
		}
		if a, b := keySchema(l.KeySchema), keySchema(ix.KeySchema); a != b {
			p.Changes = append(p.Changes, Difference{What: "index", Name: name, Live: a, Want: b})
		}
		if l.Projection != nil && l.Projection.ProjectionType != ix.Projection.ProjectionType {
			p.Changes = append(p.Changes, Difference{What: "index projection", Name: name, Live: string(l.Projection.ProjectionType), Want: string(ix.Projection.ProjectionType)})
		}
	}
	for _, ix := range live.GlobalSecondaryIndexes {
		if name := aws.ToString(ix.IndexName); !wantIx[name] {
			p.Changes = append(p.Changes, Difference{What: "index", Name: name, Live: keySchema(ix.KeySchema)})
		}
	}
	if d, ok := compareStream(live.StreamSpecification, schema.Stream); ok {
		p.Changes = append(p.Changes, d)
	}
	if schema.TTLAttr != "" {
		ttl, err := client.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(schema.Name)})
		if err != nil {
			return p, fmt.Errorf("plan %s: %w", schema.Name, err)
		}
		var attr, status string
		if d := ttl.TimeToLiveDescription; d != nil {
			attr, status = aws.ToString(d.AttributeName), string(d.TimeToLiveStatus)
		}
		switch {
		case status == string(types.TimeToLiveStatusEnabled) || status == string(types.TimeToLiveStatusEnabling):
			if attr != schema.TTLAttr {
				p.Changes = append(p.Changes, Difference{What: "ttl", Live: attr, Want: schema.TTLAttr})
			}
		default:
			p.Changes = append(p.Changes, Difference{What: "ttl", Want: schema.TTLAttr + " enabled", Apply: true})
		}
	}
	return p, nil
}

// compareStream returns the difference between the live table's stream
// and the schema's, if any.
func compareStream(live *types.StreamSpecification, want types.StreamViewType) (Difference, bool) {
	var have types.StreamViewType
	if live != nil && aws.ToBool(live.StreamEnabled) {
		have = live.StreamViewType
	}
	switch {
	case have == want:
		return Difference{}, false
	case have == "":
		return Difference{What: "stream", Want: string(want), Apply: true}, true
	}
	return Difference{What: "stream", Live: string(have), Want: string(want)}, true
}

func keySchema(ks []types.KeySchemaElement) string {
	var parts []string
	for _, k := range ks {
		parts = append(parts, aws.ToString(k.AttributeName)+" "+string(k.KeyType))
	}
	return strings.Join(parts, ", ")
}

// Apply makes the changes of p that can be made in place (Difference.Apply):
// it creates a missing table, enables TTL, and enables the schema's stream
// on a table without one (UpdateTable with its StreamSpecification). Other
// differences (a missing GSI, a key schema, a stream of another view type)
// are left for a human; Apply makes what it can and then reports them in
// its error.
func Apply(ctx context.Context, t *table.Table, p Plan) error {
	var manual []string
	for _, c := range p.Changes {
		if !c.Apply {
			if c.Want != "" {
				manual = append(manual, c.String())
			}
			continue
		}
		var err error
		switch c.What {
		case "table":
			err = t.CreateNew(ctx)
		case "ttl":
			err = t.EnableTTL(ctx)
		case "stream":
			err = enableStream(ctx, t)
		}
		if err != nil {
			return fmt.Errorf("apply %s: %w", c, err)
		}
	}
	if len(manual) > 0 {
		return fmt.Errorf("apply %s: %d change(s) need a new table or a human: %s", p.Table, len(manual), strings.Join(manual, "; "))
	}
	return nil
}

// enableStream enables the stream the schema of t declares.
func enableStream(ctx context.Context, t *table.Table) error {
	s := t.Schema()
	_, err := t.Client().UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName:           aws.String(s.Name),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: s.Stream},
	})
	return err
}
