// Package decl is an entity's declaration, parsed: its key templates,
// index keys with their When conditions, unique values, TTL, key-only
// fields and secret paths, checked against the attributes of its Go type
// ([Parse]), and what the engine derives from them given an item's
// attributes: the primary key ([Decl.Primary]), the index keys
// ([Decl.IndexKeys]), the unique values ([Decl.Uniques]), the expiry
// ([Decl.Expiry]) and the index keys a patch moves ([Decl.MovableIndexes]).
//
// It imports the codec, the key template language (internal/keytmpl) and
// the requests' layer (internal/ddb, for Index and Unique), nothing of
// table: table.Def is the declaration a user writes, and table.Entity
// holds it parsed as one *Decl.
package decl
