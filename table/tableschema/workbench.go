package tableschema

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
)

// Workbench returns the table as an Amazon NoSQL Workbench data model (its
// JSON import format): the key schema and GSIs, and one facet per entity:
// every entity bound to the table ([table.NewEntity]) gets its facet from
// its declarations, key aliases its templates ("TOPIC#{Topic:esc}" /
// "MSG#{SeqId:10}") and attributes its fields, with the item its
// declarations give for sample values ([table.Entity.Sample]) as its data, so the
// design can be reviewed before the table holds an item. Items the table
// holds add examples (up to perType of each type) and facets for the types
// no entity declares (the entity-type attribute; items without one are the
// facet "untyped"), keyed by their shapes ("TOPIC#{}"). It reads the table
// with Scan requests (at most maxPages pages of 1 MB): a tool for kept
// development or staging tables, never a request path. The model carries
// no stream: NoSQL Workbench's data model has no place for one, so a
// schema's stream (Schema.Stream) is deployed through [CreateTableJSON],
// [CloudFormation], [Terraform] or [Apply].
func Workbench(ctx context.Context, t *table.Table, modelName string, perType, maxPages int) ([]byte, error) {
	if perType < 1 || maxPages < 1 {
		return nil, &table.ValidationError{Field: "perType", Reason: "perType and maxPages must be positive"}
	}
	s := t.Schema()
	declared := map[string]table.AnyEntity{}
	for _, e := range t.Entities() {
		declared[e.Type()] = e
	}
	byType := map[string][]table.Item{}
	var order []string
	for typ := range declared {
		order = append(order, typ)
		byType[typ] = nil
	}
	var start map[string]types.AttributeValue
	for page := 0; page < maxPages; page++ {
		out, err := t.Client().Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(s.Name), ExclusiveStartKey: start})
		if err != nil {
			return nil, fmt.Errorf("workbench: scan %s: %w", s.Name, err)
		}
		for _, it := range out.Items {
			typ := "untyped"
			if v, ok := it[s.TypeAttr].(*types.AttributeValueMemberS); ok && s.TypeAttr != "" {
				typ = v.Value
			}
			if _, seen := byType[typ]; !seen {
				order = append(order, typ)
			}
			if len(byType[typ]) < perType {
				byType[typ] = append(byType[typ], it)
			}
		}
		if start = out.LastEvaluatedKey; len(start) == 0 {
			break
		}
	}
	slices.Sort(order)
	keyAttrs := map[string]bool{s.PK: true, s.SK: true}
	for _, ix := range s.Indexes {
		keyAttrs[ix.PK], keyAttrs[ix.SK] = true, true
	}
	attrType := map[string]string{}
	var facets []wbFacet
	var data []map[string]any
	for _, typ := range order {
		items := byType[typ]
		f := wbFacet{FacetName: typ, NonKeyAttributes: []string{}}
		if e, ok := declared[typ]; ok {
			m := e.Model()
			f.KeyAttributeAlias = wbAlias{PartitionKeyAlias: m.Keys.PK, SortKeyAlias: m.Keys.SK}
			if len(items) == 0 {
				// no item yet: the one the declarations give
				if smp, err := e.Sample(nil); err == nil {
					items = []table.Item{smp.Item}
				} else {
					f.NonKeyAttributes = m.Fields
				}
			}
		} else {
			f.KeyAttributeAlias = wbAlias{PartitionKeyAlias: keyShape(items[0][s.PK]), SortKeyAlias: keyShape(items[0][s.SK])}
		}
		seen := map[string]bool{}
		for _, it := range items {
			for name, v := range it {
				if name == s.PK || name == s.SK {
					continue
				}
				if _, ok := attrType[name]; !ok {
					attrType[name] = avType(v)
				}
				if !seen[name] {
					seen[name] = true
					f.NonKeyAttributes = append(f.NonKeyAttributes, name)
				}
			}
			data = append(data, avJSONItem(it))
		}
		slices.Sort(f.NonKeyAttributes)
		facets = append(facets, f)
	}
	var nonKey []wbAttr
	for name, typ := range attrType {
		if !keyAttrs[name] {
			nonKey = append(nonKey, wbAttr{AttributeName: name, AttributeType: typ})
		}
	}
	for _, ix := range s.Indexes {
		nonKey = append(nonKey, wbAttr{AttributeName: ix.PK, AttributeType: "S"}, wbAttr{AttributeName: ix.SK, AttributeType: "S"})
	}
	slices.SortFunc(nonKey, func(a, b wbAttr) int { return strings.Compare(a.AttributeName, b.AttributeName) })
	tbl := wbTable{
		TableName:        s.Name,
		KeyAttributes:    wbKeys{PartitionKey: wbAttr{s.PK, "S"}, SortKey: &wbAttr{s.SK, "S"}},
		NonKeyAttributes: nonKey,
		TableFacets:      facets,
		TableData:        data,
		DataAccess:       map[string]any{"MySql": map[string]any{}},
		BillingMode:      "PAY_PER_REQUEST",
	}
	for _, ix := range s.Indexes {
		tbl.GlobalSecondaryIndexes = append(tbl.GlobalSecondaryIndexes, wbIndex{IndexName: ix.Name,
			KeyAttributes: wbKeys{PartitionKey: wbAttr{ix.PK, "S"}, SortKey: &wbAttr{ix.SK, "S"}},
			Projection:    map[string]string{"ProjectionType": "ALL"}})
	}
	now := t.Now().UTC().Format(time.RFC3339)
	model := map[string]any{
		"ModelName": modelName,
		"ModelMetadata": map[string]any{"Author": "singletable", "DateCreated": now, "DateLastModified": now,
			"Description": "Exported from table " + s.Name + " by singletable", "AWSService": "Amazon DynamoDB", "Version": "3.0"},
		"DataModel": []wbTable{tbl},
	}
	return json.MarshalIndent(model, "", "  ")
}

type wbAttr struct {
	AttributeName string
	AttributeType string
}

type wbKeys struct {
	PartitionKey wbAttr
	SortKey      *wbAttr `json:",omitempty"`
}

type wbAlias struct {
	PartitionKeyAlias string
	SortKeyAlias      string `json:",omitempty"`
}

type wbFacet struct {
	FacetName         string
	KeyAttributeAlias wbAlias
	NonKeyAttributes  []string
}

type wbIndex struct {
	IndexName     string
	KeyAttributes wbKeys
	Projection    map[string]string
}

type wbTable struct {
	TableName              string
	KeyAttributes          wbKeys
	NonKeyAttributes       []wbAttr
	TableFacets            []wbFacet
	GlobalSecondaryIndexes []wbIndex `json:",omitempty"`
	TableData              []map[string]any
	DataAccess             map[string]any
	BillingMode            string
}

// keyShape turns a key value into its shape: literal upper-case segments
// kept, every other segment "{}" ("TOPIC#grpA" -> "TOPIC#{}").
func keyShape(v types.AttributeValue) string {
	s, ok := v.(*types.AttributeValueMemberS)
	if !ok {
		return "{}"
	}
	segs := strings.Split(s.Value, "#")
	for i, seg := range segs {
		literal := seg != ""
		for _, r := range seg {
			if !unicode.IsUpper(r) && r != '_' {
				literal = false
				break
			}
		}
		if !literal {
			segs[i] = "{}"
		}
	}
	return strings.Join(segs, "#")
}

// avType is an attribute value's DynamoDB type name.
func avType(v types.AttributeValue) string {
	switch v.(type) {
	case *types.AttributeValueMemberS:
		return "S"
	case *types.AttributeValueMemberN:
		return "N"
	case *types.AttributeValueMemberB:
		return "B"
	case *types.AttributeValueMemberBOOL:
		return "BOOL"
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberM:
		return "M"
	case *types.AttributeValueMemberL:
		return "L"
	case *types.AttributeValueMemberSS:
		return "SS"
	case *types.AttributeValueMemberNS:
		return "NS"
	case *types.AttributeValueMemberBS:
		return "BS"
	}
	return "S"
}

// avJSONItem is an item in DynamoDB's JSON form ({"S": "x"}, ...).
func avJSONItem(it table.Item) map[string]any {
	out := make(map[string]any, len(it))
	for k, v := range it {
		out[k] = avJSON(v)
	}
	return out
}

func avJSON(v types.AttributeValue) map[string]any {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": v.Value}
	case *types.AttributeValueMemberN:
		return map[string]any{"N": v.Value}
	case *types.AttributeValueMemberB:
		return map[string]any{"B": base64.StdEncoding.EncodeToString(v.Value)}
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": v.Value}
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": true}
	case *types.AttributeValueMemberM:
		return map[string]any{"M": avJSONItem(v.Value)}
	case *types.AttributeValueMemberL:
		l := make([]any, len(v.Value))
		for i, e := range v.Value {
			l[i] = avJSON(e)
		}
		return map[string]any{"L": l}
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": v.Value}
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": v.Value}
	case *types.AttributeValueMemberBS:
		bs := make([]string, len(v.Value))
		for i, b := range v.Value {
			bs[i] = base64.StdEncoding.EncodeToString(b)
		}
		return map[string]any{"BS": bs}
	}
	return map[string]any{"NULL": true}
}
