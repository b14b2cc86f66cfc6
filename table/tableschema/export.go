package tableschema

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/singletable/singletable/table"
)

// CreateTableJSON returns the CreateTable request for the schema as the
// JSON that `aws dynamodb create-table --cli-input-json` takes, followed by
// nothing else: enable TTL separately (see [TTLSpecificationJSON])
// or deploy with [CloudFormation], which carries both. A schema with a
// stream (Schema.Stream) gets its StreamSpecification; one without has
// none.
func CreateTableJSON(s table.Schema) ([]byte, error) {
	in := s.CreateTableInput()
	type attr struct {
		AttributeName string
		AttributeType string
	}
	type keyElem struct {
		AttributeName string
		KeyType       string
	}
	type gsi struct {
		IndexName  string
		KeySchema  []keyElem
		Projection struct{ ProjectionType string }
	}
	var out struct {
		TableName              string
		AttributeDefinitions   []attr
		KeySchema              []keyElem
		GlobalSecondaryIndexes []gsi `json:",omitempty"`
		BillingMode            string
		StreamSpecification    *struct {
			StreamEnabled  bool
			StreamViewType string
		} `json:",omitempty"`
	}
	out.TableName = *in.TableName
	out.BillingMode = string(in.BillingMode)
	for _, a := range in.AttributeDefinitions {
		out.AttributeDefinitions = append(out.AttributeDefinitions, attr{*a.AttributeName, string(a.AttributeType)})
	}
	for _, k := range in.KeySchema {
		out.KeySchema = append(out.KeySchema, keyElem{*k.AttributeName, string(k.KeyType)})
	}
	for _, g := range in.GlobalSecondaryIndexes {
		x := gsi{IndexName: *g.IndexName}
		for _, k := range g.KeySchema {
			x.KeySchema = append(x.KeySchema, keyElem{*k.AttributeName, string(k.KeyType)})
		}
		x.Projection.ProjectionType = string(g.Projection.ProjectionType)
		out.GlobalSecondaryIndexes = append(out.GlobalSecondaryIndexes, x)
	}
	if sp := in.StreamSpecification; sp != nil {
		out.StreamSpecification = &struct {
			StreamEnabled  bool
			StreamViewType string
		}{true, string(sp.StreamViewType)}
	}
	return json.MarshalIndent(out, "", "  ")
}

// TTLSpecificationJSON returns the `aws dynamodb update-time-to-live
// --cli-input-json` request that enables TTL on the schema's TTL attribute.
func TTLSpecificationJSON(s table.Schema) ([]byte, error) {
	if s.TTLAttr == "" {
		return nil, fmt.Errorf("%w: schema %s has no TTL attribute", table.ErrInvalidInput, s.Name)
	}
	return json.MarshalIndent(map[string]any{
		"TableName":               s.Name,
		"TimeToLiveSpecification": map[string]any{"AttributeName": s.TTLAttr, "Enabled": true},
	}, "", "  ")
}

// CloudFormation returns an AWS::DynamoDB::Table resource for the schema
// as a CloudFormation template (JSON) with one resource named logicalID:
// the same keys, GSIs, billing mode, TTL and stream (its StreamSpecification's
// StreamViewType, when the schema declares one) that [table.Table.Create]
// makes, plus point-in-time recovery.
func CloudFormation(s table.Schema, logicalID string) ([]byte, error) {
	in := s.CreateTableInput()
	var attrs []map[string]string
	for _, a := range in.AttributeDefinitions {
		attrs = append(attrs, map[string]string{"AttributeName": *a.AttributeName, "AttributeType": string(a.AttributeType)})
	}
	keySchema := func(name1, name2 string) []map[string]string {
		return []map[string]string{{"AttributeName": name1, "KeyType": "HASH"}, {"AttributeName": name2, "KeyType": "RANGE"}}
	}
	var gsis []map[string]any
	for _, ix := range s.Indexes {
		gsis = append(gsis, map[string]any{
			"IndexName":  ix.Name,
			"KeySchema":  keySchema(ix.PK, ix.SK),
			"Projection": map[string]string{"ProjectionType": "ALL"},
		})
	}
	props := map[string]any{
		"TableName":                        s.Name,
		"BillingMode":                      "PAY_PER_REQUEST",
		"AttributeDefinitions":             attrs,
		"KeySchema":                        keySchema(s.PK, s.SK),
		"PointInTimeRecoverySpecification": map[string]bool{"PointInTimeRecoveryEnabled": true},
	}
	if len(gsis) > 0 {
		props["GlobalSecondaryIndexes"] = gsis
	}
	if s.TTLAttr != "" {
		props["TimeToLiveSpecification"] = map[string]any{"AttributeName": s.TTLAttr, "Enabled": true}
	}
	if s.Stream != "" {
		props["StreamSpecification"] = map[string]any{"StreamViewType": string(s.Stream)}
	}
	tmpl := map[string]any{
		"AWSTemplateFormatVersion": "2010-09-09",
		"Resources": map[string]any{
			logicalID: map[string]any{"Type": "AWS::DynamoDB::Table", "Properties": props},
		},
	}
	return json.MarshalIndent(tmpl, "", "  ")
}

// Terraform returns an aws_dynamodb_table resource named resource for the
// schema, in Terraform's HCL: the same keys, GSIs, billing mode, TTL and
// stream (stream_enabled and stream_view_type, when the schema declares
// one) that [table.Table.Create] makes, plus point-in-time recovery and
// prevent_destroy (a table holds state).
func Terraform(s table.Schema, resource string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "resource \"aws_dynamodb_table\" %q {\n", resource)
	fmt.Fprintf(&b, "  name         = %q\n", s.Name)
	b.WriteString("  billing_mode = \"PAY_PER_REQUEST\"\n")
	fmt.Fprintf(&b, "  hash_key     = %q\n", s.PK)
	fmt.Fprintf(&b, "  range_key    = %q\n", s.SK)
	if s.Stream != "" {
		fmt.Fprintf(&b, "\n  stream_enabled   = true\n  stream_view_type = %q\n", string(s.Stream))
	}
	for _, a := range s.CreateTableInput().AttributeDefinitions {
		fmt.Fprintf(&b, "\n  attribute {\n    name = %q\n    type = %q\n  }\n", *a.AttributeName, string(a.AttributeType))
	}
	for _, ix := range s.Indexes {
		fmt.Fprintf(&b, "\n  global_secondary_index {\n    name            = %q\n    hash_key        = %q\n    range_key       = %q\n    projection_type = \"ALL\"\n  }\n", ix.Name, ix.PK, ix.SK)
	}
	if s.TTLAttr != "" {
		fmt.Fprintf(&b, "\n  ttl {\n    attribute_name = %q\n    enabled        = true\n  }\n", s.TTLAttr)
	}
	b.WriteString("\n  point_in_time_recovery {\n    enabled = true\n  }\n")
	b.WriteString("\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n")
	return []byte(b.String())
}
