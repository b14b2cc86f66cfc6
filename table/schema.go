package table

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/ddb"
)

// DefaultIndexCount is the number of overloaded GSIs in the generic schema.
const DefaultIndexCount = ddb.DefaultIndexCount

// Schema is the one generic table definition every application table uses:
// a string partition key and sort key, n overloaded GSIs (GSI1PK/GSI1SK ...
// GSInPK/GSInSK, projection ALL), an entity-type attribute, a numeric TTL
// attribute holding epoch seconds, a version attribute for optimistic
// concurrency, a write-token attribute, an optional stream, and on-demand
// billing. Attribute and index names are options ([SchemaOption]), so an
// existing deployment that uses other names can be opened without
// rewriting its data.
type Schema = ddb.Schema

// IndexSchema is one overloaded GSI of a [Schema].
type IndexSchema = ddb.IndexSchema

// Index identifies a GSI by its position: GSI1 is 1. Zero means the table
// itself.
type Index = ddb.Index

// The overloaded indexes of the generic schema.
const (
	Primary = ddb.Primary
	GSI1    = ddb.GSI1
	GSI2    = ddb.GSI2
	GSI3    = ddb.GSI3
	GSI4    = ddb.GSI4
	GSI5    = ddb.GSI5
)

// SchemaOption changes a [Schema] built by [NewSchema].
type SchemaOption = ddb.SchemaOption

// NewSchema returns the generic schema for a table called name, with
// [DefaultIndexCount] GSIs and the default attribute names, changed by opts.
func NewSchema(name string, opts ...SchemaOption) Schema { return ddb.NewSchema(name, opts...) }

// WithStream declares the table's stream with view type view
// (NEW_AND_OLD_IMAGES for a change feed, see [Schema.Stream]).
func WithStream(view types.StreamViewType) SchemaOption { return ddb.WithStream(view) }

// WithIndexCount keeps the first n GSIs (n between 0 and 20).
func WithIndexCount(n int) SchemaOption { return ddb.WithIndexCount(n) }

// WithLowercaseKeys names the key attributes pk, sk, gsiNpk, gsiNsk and the
// indexes gsiN.
func WithLowercaseKeys() SchemaOption { return ddb.WithLowercaseKeys() }

// WithTokenAttribute names the write-token attribute (see
// [Schema.TokenAttr]); "" disables write tokens.
func WithTokenAttribute(name string) SchemaOption { return ddb.WithTokenAttribute(name) }

// WithTTLAttribute names the TTL attribute.
func WithTTLAttribute(name string) SchemaOption { return ddb.WithTTLAttribute(name) }

// WithTypeAttribute names the entity-type attribute.
func WithTypeAttribute(name string) SchemaOption { return ddb.WithTypeAttribute(name) }

// WithVersionAttribute names the version attribute.
func WithVersionAttribute(name string) SchemaOption { return ddb.WithVersionAttribute(name) }
