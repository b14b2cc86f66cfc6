// Package keytmpl is the key template language, beside the key grammar of
// package keys: a template such as "POST#{at:ts}#{id}" parsed once
// ([Parse]) into literal segments and attribute references, each with its
// named transform from one registry ([Registry]: ":ts", ":esc", ":N",
// ":shardN", ...).
//
// Its contract: a template builds a key from an item's attribute values
// ([Template.Build]), or the prefix its leading attributes fix
// ([Template.Prefix]), and tells whether a key has its shape
// ([Template.Matches]); a value that would reach into another key (the
// delimiter, a control character) is refused with a
// *codec.ValidationError naming the attribute. Sharded partitions use
// [Shard] (FNV-1a mod N).
//
// It imports the codec layer and keys, nothing of table: the engine
// (package table) declares entities with it (table.Template is the
// declaration a user writes; this package is its grammar).
package keytmpl

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Item is a raw DynamoDB item (the same type as table.Item).
type Item = map[string]types.AttributeValue
