package ddb

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
)

// DefaultIndexCount is the number of overloaded GSIs in the generic schema.
// Three is the most any catalog application needs on one table; every
// design in the catalog stays within five.
const DefaultIndexCount = 5

// Schema is the one generic table definition every application table uses:
// a string partition key and sort key, n overloaded GSIs (GSI1PK/GSI1SK ...
// GSInPK/GSInSK, projection ALL), an entity-type attribute, a numeric TTL
// attribute holding epoch seconds, a version attribute for optimistic
// concurrency, and on-demand billing.
//
// Attribute and index names are options, so an existing deployment that
// uses other names (a service that writes pk, sk, gsi1pk ... and
// indexes gsi1 ...) can be opened without rewriting its data.
type Schema struct {
	// Name is the table name.
	Name string
	// PK and SK are the key attribute names ("PK", "SK").
	PK, SK string
	// Indexes are the overloaded GSIs, GSI1 first.
	Indexes []IndexSchema
	// TypeAttr names the entity-type attribute ("_type").
	TypeAttr string
	// TTLAttr names the numeric TTL attribute, epoch seconds ("ttl").
	TTLAttr string
	// VersionAttr names the optimistic-concurrency version attribute ("_v").
	VersionAttr string
	// TokenAttr names the write-token attribute ("_wt"): a string set of
	// the random tokens of the item's recent library writes, which lets a
	// write whose response was lost recognise itself when the SDK retries
	// it (see the package doc, "Under faults"). Empty disables tokens: a
	// retried Create may then report ErrAlreadyExists for its own write.
	TokenAttr string
	// Stream is the view type of the table's DynamoDB stream
	// (types.StreamViewTypeNewAndOldImages for a change feed that tells
	// what changed; see package table/feed); empty: no stream. Create
	// enables it on a table it creates, and the schema exports
	// (package table/tableschema) carry it.
	Stream types.StreamViewType
}

// WithStream declares the table's stream with view type view
// (NEW_AND_OLD_IMAGES for a change feed, see [Schema.Stream]).
func WithStream(view types.StreamViewType) SchemaOption {
	return func(s *Schema) { s.Stream = view }
}

// IndexSchema is one overloaded GSI of a [Schema].
type IndexSchema struct {
	// Name is the index name ("GSI1").
	Name string
	// PK and SK are its key attribute names ("GSI1PK", "GSI1SK").
	PK, SK string
}

// Index identifies a GSI by its position: GSI1 is 1. Zero means the table
// itself.
type Index int

// The overloaded indexes of the generic schema.
const (
	Primary Index = iota
	GSI1
	GSI2
	GSI3
	GSI4
	GSI5
)

// SchemaOption changes a [Schema] built by [NewSchema].
type SchemaOption func(*Schema)

// NewSchema returns the generic schema for a table called name, with
// [DefaultIndexCount] GSIs and the default attribute names, changed by opts.
func NewSchema(name string, opts ...SchemaOption) Schema {
	s := Schema{Name: name, PK: "PK", SK: "SK", TypeAttr: "_type", TTLAttr: "ttl", VersionAttr: "_v", TokenAttr: "_wt"}
	for i := 1; i <= DefaultIndexCount; i++ {
		s.Indexes = append(s.Indexes, IndexSchema{
			Name: fmt.Sprintf("GSI%d", i),
			PK:   fmt.Sprintf("GSI%dPK", i),
			SK:   fmt.Sprintf("GSI%dSK", i),
		})
	}
	for _, o := range opts {
		o(&s)
	}
	return s
}

// WithIndexCount keeps the first n GSIs (n between 0 and 20).
func WithIndexCount(n int) SchemaOption {
	return func(s *Schema) {
		for len(s.Indexes) < n {
			i := len(s.Indexes) + 1
			s.Indexes = append(s.Indexes, IndexSchema{
				Name: fmt.Sprintf("GSI%d", i), PK: fmt.Sprintf("GSI%dPK", i), SK: fmt.Sprintf("GSI%dSK", i),
			})
		}
		s.Indexes = s.Indexes[:n]
	}
}

// WithLowercaseKeys names the key attributes pk, sk, gsiNpk, gsiNsk and the
// indexes gsiN, as some services' own data layers do.
func WithLowercaseKeys() SchemaOption {
	return func(s *Schema) {
		s.PK, s.SK = "pk", "sk"
		for i := range s.Indexes {
			n := i + 1
			s.Indexes[i] = IndexSchema{
				Name: fmt.Sprintf("gsi%d", n), PK: fmt.Sprintf("gsi%dpk", n), SK: fmt.Sprintf("gsi%dsk", n),
			}
		}
	}
}

// WithTokenAttribute names the write-token attribute (see
// [Schema.TokenAttr]); "" disables write tokens.
func WithTokenAttribute(name string) SchemaOption { return func(s *Schema) { s.TokenAttr = name } }

// WithTTLAttribute names the TTL attribute (such as "expiresAt").
func WithTTLAttribute(name string) SchemaOption { return func(s *Schema) { s.TTLAttr = name } }

// WithTypeAttribute names the entity-type attribute.
func WithTypeAttribute(name string) SchemaOption { return func(s *Schema) { s.TypeAttr = name } }

// WithVersionAttribute names the version attribute.
func WithVersionAttribute(name string) SchemaOption {
	return func(s *Schema) { s.VersionAttr = name }
}

// GSI returns the schema of GSI i, or an error naming it.
func (s Schema) GSI(i Index) (IndexSchema, error) {
	if i < 1 || int(i) > len(s.Indexes) {
		return IndexSchema{}, fmt.Errorf("%w: table %s has no GSI%d", codec.ErrInvalidInput, s.Name, i)
	}
	return s.Indexes[i-1], nil
}

// KeyAttrs returns the partition and sort key attribute names of index i
// (Primary for the table).
func (s Schema) KeyAttrs(i Index) (pk, sk string, name *string, err error) {
	if i == Primary {
		return s.PK, s.SK, nil, nil
	}
	ix, err := s.GSI(i)
	if err != nil {
		return "", "", nil, err
	}
	return ix.PK, ix.SK, aws.String(ix.Name), nil
}

// CreateTableInput returns the CreateTable request for this schema: the
// exact definition tests run against and deployments use.
func (s Schema) CreateTableInput() *dynamodb.CreateTableInput {
	attrs := []types.AttributeDefinition{
		{AttributeName: aws.String(s.PK), AttributeType: types.ScalarAttributeTypeS},
		{AttributeName: aws.String(s.SK), AttributeType: types.ScalarAttributeTypeS},
	}
	var gsis []types.GlobalSecondaryIndex
	for _, ix := range s.Indexes {
		attrs = append(attrs,
			types.AttributeDefinition{AttributeName: aws.String(ix.PK), AttributeType: types.ScalarAttributeTypeS},
			types.AttributeDefinition{AttributeName: aws.String(ix.SK), AttributeType: types.ScalarAttributeTypeS})
		gsis = append(gsis, types.GlobalSecondaryIndex{
			IndexName: aws.String(ix.Name),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(ix.PK), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String(ix.SK), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		})
	}
	return &dynamodb.CreateTableInput{
		TableName:            aws.String(s.Name),
		AttributeDefinitions: attrs,
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(s.PK), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(s.SK), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: gsis,
		BillingMode:            types.BillingModePayPerRequest,
		StreamSpecification:    s.streamSpec(),
	}
}

// streamSpec returns the stream's specification, nil when the schema
// declares none.
func (s Schema) streamSpec() *types.StreamSpecification {
	if s.Stream == "" {
		return nil
	}
	return &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: s.Stream}
}

// Validate checks the schema before any request: a table name of 3 to 255
// characters of a-z, A-Z, 0-9, '_', '-' and '.', distinct non-empty
// attribute names, and at most 20 GSIs.
func (s Schema) Validate() error {
	if n := len(s.Name); n < 3 || n > 255 {
		return &codec.ValidationError{Field: "table name", Reason: fmt.Sprintf("%q has %d characters, want 3 to 255", s.Name, n)}
	}
	for _, r := range s.Name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return &codec.ValidationError{Field: "table name", Reason: fmt.Sprintf("%q holds %q; allowed are a-z, A-Z, 0-9, '_', '-', '.'", s.Name, r)}
		}
	}
	switch s.Stream {
	case "", types.StreamViewTypeNewAndOldImages, types.StreamViewTypeNewImage, types.StreamViewTypeOldImage, types.StreamViewTypeKeysOnly:
	default:
		return &codec.ValidationError{Field: "stream", Reason: fmt.Sprintf("view type %q; want NEW_AND_OLD_IMAGES, NEW_IMAGE, OLD_IMAGE or KEYS_ONLY", s.Stream)}
	}
	if len(s.Indexes) > 20 {
		return &codec.ValidationError{Field: "indexes", Reason: fmt.Sprintf("%d GSIs, the limit is 20", len(s.Indexes))}
	}
	seen := map[string]string{}
	attrs := [][2]string{{"PK", s.PK}, {"SK", s.SK}}
	for i, ix := range s.Indexes {
		attrs = append(attrs, [2]string{fmt.Sprintf("GSI%d PK", i+1), ix.PK}, [2]string{fmt.Sprintf("GSI%d SK", i+1), ix.SK})
		if ix.Name == "" {
			return &codec.ValidationError{Field: fmt.Sprintf("GSI%d name", i+1), Reason: "empty"}
		}
	}
	for _, a := range attrs {
		if a[1] == "" {
			return &codec.ValidationError{Field: a[0] + " attribute", Reason: "empty"}
		}
		if other, dup := seen[a[1]]; dup {
			return &codec.ValidationError{Field: a[0] + " attribute", Reason: fmt.Sprintf("%q is also the %s attribute", a[1], other)}
		}
		seen[a[1]] = a[0]
	}
	return nil
}
