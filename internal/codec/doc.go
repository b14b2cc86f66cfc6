// Package codec is the engine's lowest layer: Go values to DynamoDB
// attribute values and back, with nothing of a table in it.
//
// Its contract:
//
//   - One walk of a Go type's `dynamo` tags per type, cached
//     ([FieldsOf]): the names every other layer checks attributes against.
//   - Encoding is guregu/dynamo's, with the fixes that keep what the caller
//     gave ([KeepEmptyMapStrings]: empty map entries at any depth) and what
//     was stored ([KeepStored]: an attribute part a change did not touch
//     keeps its stored form).
//   - Decoding is tolerant ([DecodeItem]): a decoder plan per type, exact
//     attribute names, attributes the type does not model skipped; types
//     that decode themselves go to guregu whole.
//   - The catch-alls: [Extra] (the attributes a type does not model, kept
//     as stored) at the top of an item and nested in its maps
//     ([FillNested], [AddNested]).
//   - Value checks and sizes as DynamoDB counts them ([Check], [Size]).
//
// It imports nothing of this module: the engine (package table) imports
// it, never the other way.
package codec

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Item is a raw DynamoDB item (the same type as table.Item).
type Item = map[string]types.AttributeValue
