package decl

import (
	"fmt"
	"strings"

	"github.com/singletable/singletable/internal/keytmpl"
)

// Shape is what a declared access pattern's request texts derive from:
// the index it reads (0 the table), that index's templates as written and
// parsed, the reads it declares and how it narrows its sort key.
type Shape struct {
	Index                int
	PKText, SKText       string
	PK, SK               keytmpl.Template
	One, Page, Range     bool
	FilterOn, FilterHas  []string
	SortFrom, SortPrefix bool
	WholeWhenUnset       bool
	WholeKeyBegins       bool
	WholePartition       bool
	RangeOn              string
}

// Method is one read of a pattern and the request it sends, in words.
type Method struct{ Name, Request string }

// Describe returns the pattern's reads, in order (Get; List, All;
// Between, AllBetween: those it declares), each with its request:
// "GetItem PK = USER#{userId}, SK = PROFILE", "Query GSI1 PK = ORG#{id}",
// a sharded partition adding "(each shard)".
func Describe(s Shape) []Method {
	var out []Method
	add := func(request string, names ...string) {
		for _, n := range names {
			out = append(out, Method{n, request})
		}
	}
	pk := s.PKText
	if len(s.PK.WithoutShard()) != len(s.PK) {
		pk += " (each shard)"
	}
	query := "Query"
	if s.Index != 0 {
		query += fmt.Sprintf(" GSI%d", s.Index)
	}
	if s.One {
		add(fmt.Sprintf("GetItem PK = %s, SK = %s", s.PKText, s.SKText), "Get")
	}
	filter := ""
	if len(s.FilterOn) > 0 {
		filter = ", filter " + strings.Join(s.FilterOn, " = , ") + " ="
	}
	for _, a := range s.FilterHas {
		filter += ", filter contains(" + a + ")"
	}
	if s.Page {
		c := fmt.Sprintf("%s PK = %s", query, pk)
		if pre, whole, err := s.SK.Prefix(nil); s.SortFrom {
			c += ", SK BETWEEN " + s.SKText + " up to its first field not set (from) AND the end of " + pre
		} else if s.SortPrefix {
			c += ", SK begins_with " + s.SKText + " up to its first field not set"
			if s.WholeWhenUnset {
				c += " (none when no field is set)"
			}
			if s.WholeKeyBegins {
				c += " (or whole)"
			}
		} else if !s.WholePartition && err == nil && pre != "" {
			c += map[bool]string{true: ", SK = ", false: ", SK begins_with "}[whole] + pre
		}
		add(c+filter, "List", "All")
	}
	if s.Range {
		c := fmt.Sprintf("%s PK = %s, SK BETWEEN %s (from) AND %s (to)", query, pk, s.SKText, s.SKText)
		if s.RangeOn != "" {
			c = fmt.Sprintf("%s PK = %s, SK BETWEEN %s up to {%s} (from) AND after it (to), either open", query, pk, s.SKText, s.RangeOn)
		}
		add(c+filter, "Between", "AllBetween")
	}
	return out
}
