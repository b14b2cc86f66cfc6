package table

import "github.com/singletable/singletable/internal/expr"

// exprs accumulates expression placeholders; the write conditions every
// write on an existing key shares (existence, type binding, write tokens)
// are built by the table's connection (package internal/expr).
type exprs = expr.Exprs
