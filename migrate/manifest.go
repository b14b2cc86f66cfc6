package migrate

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
)

// A Manifest describes a legacy layout as data: its tables, their key
// attributes and indexes, the entity each table's items become, and how
// an item is made ready for it (attributes renamed, values mapped,
// defaults for what the layout never stored, a composite attribute split).
// Read one with [ReadManifest]; [Run], [Verify], [CreateLayout], [Survey]
// and [Detect] take one.
type Manifest struct {
	// Name names the layout ("documents", "listbackup-code").
	Name string `json:"name"`
	// Description says where the layout comes from.
	Description string `json:"description,omitempty"`
	// Tables are the layout's tables, named <stack>-<table>.
	Tables []Table `json:"tables"`
}

// Index is a GSI of a legacy table.
type Index struct {
	// Name is the index's name.
	Name string `json:"name"`
	// PK and SK are its key attributes (SK "" for none).
	PK string `json:"pk"`
	SK string `json:"sk,omitempty"`
	// Numeric names the key attributes typed Number (Unix timestamps); the
	// others are strings.
	Numeric []string `json:"numeric,omitempty"`
}

// TTL says where a legacy table's items keep their expiry.
type TTL struct {
	// Attribute holds the expiry as a Unix time (a Number) or an RFC 3339
	// string.
	Attribute string `json:"attribute"`
	// Unit is "s", "ms" or "auto" (the default: a number above 1e11 is
	// milliseconds, since seconds that large are past the year 5000).
	Unit string `json:"unit,omitempty"`
}

// Table is one table of a legacy layout and the entity its items become.
type Table struct {
	// Suffix is the table's name after "<stack>-" ("users", "api_keys").
	Suffix string `json:"table"`
	// Doc is where the table is defined (a document, a source file).
	Doc string `json:"source,omitempty"`
	// PK and SK are its key attributes (SK "" for none).
	PK string `json:"pk"`
	SK string `json:"sk,omitempty"`
	// Numeric names the key attributes typed Number; the others are strings.
	Numeric []string `json:"numeric,omitempty"`
	// Indexes are its GSIs.
	Indexes []Index `json:"indexes,omitempty"`
	// TTL is where its items keep their expiry, if they do.
	TTL *TTL `json:"ttl,omitempty"`
	// Entity names the [Target] its items become ("" when Skip says why
	// they are not migrated).
	Entity string `json:"entity,omitempty"`
	// Skip, when set, says why the table's items are not migrated (a
	// transient table, say); the run reports the table with this reason.
	Skip string `json:"skip,omitempty"`
	// ExpectEmpty says a skipped table should hold nothing (no code writes
	// it): a run that finds an item in it fails, naming the table, rather
	// than leave the item behind unseen.
	ExpectEmpty bool `json:"expectEmpty,omitempty"`
	// Required says a deployment without this table is incomplete; a missing
	// table is reported either way, never fatal.
	Required bool `json:"required,omitempty"`
	// Renames maps a legacy attribute name to the entity's; a dotted name
	// renames a member of a map ("credentials.access_token" to
	// "credentials.accessToken").
	Renames map[string]string `json:"renames,omitempty"`
	// Values maps, per attribute (its entity name, after Renames), a legacy
	// value to the entity's (roles "Owner" to "owner", ...). Values not
	// listed are kept as stored.
	Values map[string]map[string]string `json:"values,omitempty"`
	// Defaults are set on an item that lacks the attribute (entity names):
	// what the entity requires and the layout never stored.
	Defaults map[string]string `json:"defaults,omitempty"`
	// Split fills attributes from a composite attribute ("a#b" holding
	// "x#y" gives a=x), when the item lacks them.
	Split map[string][]string `json:"split,omitempty"`
	// Compose sets attributes (entity names) from the legacy item's string
	// attributes, before renames: "{type}.{action}" (every attribute named
	// must be there, or nothing is set).
	Compose map[string]string `json:"compose,omitempty"`
	// Times converts a Unix time attribute (legacy name; seconds or
	// milliseconds, detected per item) into an RFC 3339 time at the named
	// entity attribute, and keeps the original in seconds.
	Times map[string]string `json:"times,omitempty"`
	// Suffixes appends the given string to a string attribute (entity
	// name) that does not end with it ("/" closing an account path).
	Suffixes map[string]string `json:"suffix,omitempty"`
	// Drop names legacy attributes not carried over, each with why (a
	// composite key whose parts are attributes of their own, say).
	Drop map[string]string `json:"drop,omitempty"`
	// Tree rebuilds a path attribute from the parent chain (see [Tree]).
	Tree *Tree `json:"tree,omitempty"`
	// Note is any further remark shown by the plan.
	Note string `json:"note,omitempty"`
}

// Tree says that a table's items form a tree whose path attribute the
// migration rebuilds from the parent chain, not trusting the stored path:
// an item's path is its parent's path, then its segment (its ID without
// TrimPrefix), then '/'; a root's (no parent) is '/', its segment, '/'.
// Where the chain is broken (the parent is not in the table, or the chain
// loops), the item keeps its stored path (after the table's other rules)
// and its descendants build on it. The names are the entity's (after
// Renames). The table is read once more, before the copy and before the
// verification, to learn the chain (three strings per item held in
// memory).
type Tree struct {
	// Path, ID and Parent name the path, the item's ID and its parent's ID.
	Path   string `json:"path"`
	ID     string `json:"id"`
	Parent string `json:"parent"`
	// TrimPrefix is cut from an ID to make its path segment.
	TrimPrefix string `json:"trimPrefix,omitempty"`
}

// ReadManifest reads a manifest (JSON, unknown fields refused) and checks
// it: a name, every table named once, with a key, and either an entity or
// a reason to skip it; a *table.ValidationError names the field. Which
// entity names exist is the [Targets]' to say ([Targets.Check]).
func ReadManifest(r io.Reader) (*Manifest, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: manifest: %v", table.ErrInvalidInput, err)
	}
	if m.Name == "" {
		return nil, &table.ValidationError{Field: "name", Reason: "required"}
	}
	seen := map[string]bool{}
	for i, lt := range m.Tables {
		field := func(f string) string { return fmt.Sprintf("tables[%d].%s", i, f) }
		switch {
		case lt.Suffix == "":
			return nil, &table.ValidationError{Field: field("table"), Reason: "required"}
		case seen[lt.Suffix]:
			return nil, &table.ValidationError{Field: field("table"), Reason: fmt.Sprintf("%q listed twice", lt.Suffix)}
		case lt.PK == "":
			return nil, &table.ValidationError{Field: field("pk"), Reason: "required"}
		case lt.Entity == "" && lt.Skip == "":
			return nil, &table.ValidationError{Field: field("entity"), Reason: "required (or skip, saying why)"}
		}
		if lt.Tree != nil && (lt.Tree.Path == "" || lt.Tree.ID == "" || lt.Tree.Parent == "") {
			return nil, &table.ValidationError{Field: field("tree"), Reason: "path, id and parent are required"}
		}
		if lt.TTL != nil && !slices.Contains([]string{"", "s", "ms", "auto"}, lt.TTL.Unit) {
			return nil, &table.ValidationError{Field: field("ttl.unit"), Reason: fmt.Sprintf("%q: want s, ms or auto", lt.TTL.Unit)}
		}
		seen[lt.Suffix] = true
	}
	return &m, nil
}

// Table returns the manifest's table named suffix.
func (m *Manifest) Table(suffix string) (Table, bool) {
	for _, lt := range m.Tables {
		if lt.Suffix == suffix {
			return lt, true
		}
	}
	return Table{}, false
}

// keyAttrs returns the table's key attributes.
func (lt Table) keyAttrs() []string {
	if lt.SK == "" {
		return []string{lt.PK}
	}
	return []string{lt.PK, lt.SK}
}

// ready makes a legacy item ready to be read as an item of the table's
// entity: NULLs and empty strings dropped (absent, for the documents and
// for the code's marshaller alike), composite attributes split, attributes
// renamed, values mapped, defaults set. It never changes raw.
func (lt Table) ready(raw table.Item) table.Item {
	out := make(table.Item, len(raw))
	for k, v := range raw {
		switch v := v.(type) {
		case *types.AttributeValueMemberNULL:
			continue
		case *types.AttributeValueMemberS:
			if v.Value == "" {
				continue
			}
		}
		out[k] = v
	}
	for from, parts := range lt.Split {
		v, ok := out[from].(*types.AttributeValueMemberS)
		if !ok {
			continue
		}
		vals := strings.Split(v.Value, "#")
		for i, p := range parts {
			if i < len(vals) && out[p] == nil && vals[i] != "" {
				out[p] = &types.AttributeValueMemberS{Value: vals[i]}
			}
		}
	}
	for attr := range lt.Drop {
		delete(out, attr)
	}
	for attr, tmpl := range lt.Compose {
		if v, ok := compose(tmpl, out); ok && out[attr] == nil {
			out[attr] = &types.AttributeValueMemberS{Value: v}
		}
	}
	for from, to := range lt.Times {
		n, ok := out[from].(*types.AttributeValueMemberN)
		if !ok {
			continue
		}
		secs, frac, ok := epoch(n.Value, "auto")
		if !ok {
			continue
		}
		if out[to] == nil {
			out[to] = &types.AttributeValueMemberS{Value: time.Unix(secs, frac).UTC().Format(time.RFC3339Nano)}
		}
		out[from] = &types.AttributeValueMemberN{Value: strconv.FormatInt(secs, 10)}
	}
	for _, from := range slices.Sorted(maps.Keys(lt.Renames)) {
		rename(out, strings.Split(from, "."), strings.Split(lt.Renames[from], "."))
	}
	for attr, vm := range lt.Values {
		if v, ok := out[attr].(*types.AttributeValueMemberS); ok {
			if to, ok := vm[v.Value]; ok {
				out[attr] = &types.AttributeValueMemberS{Value: to}
			}
		}
	}
	for attr, suf := range lt.Suffixes {
		if v, ok := out[attr].(*types.AttributeValueMemberS); ok && !strings.HasSuffix(v.Value, suf) {
			out[attr] = &types.AttributeValueMemberS{Value: v.Value + suf}
		}
	}
	for attr, v := range lt.Defaults {
		if out[attr] == nil {
			out[attr] = &types.AttributeValueMemberS{Value: v}
		}
	}
	return out
}

// rename moves the attribute at path from to path to (within one item,
// maps copied, never changed in place).
func rename(item table.Item, from, to []string) {
	if len(from) == 1 {
		if v, ok := item[from[0]]; ok && len(to) == 1 {
			delete(item, from[0])
			item[to[0]] = v
		}
		return
	}
	m, ok := item[from[0]].(*types.AttributeValueMemberM)
	if !ok || len(to) < 2 || to[0] != from[0] {
		return
	}
	inner := maps.Clone(m.Value)
	rename(inner, from[1:], to[1:])
	item[from[0]] = &types.AttributeValueMemberM{Value: inner}
}

// compose fills tmpl's {attr} placeholders from item's string attributes.
func compose(tmpl string, item table.Item) (string, bool) {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String(), true
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			return "", false
		}
		v, ok := item[tmpl[i+1:i+j]].(*types.AttributeValueMemberS)
		if !ok {
			return "", false
		}
		b.WriteString(tmpl[:i])
		b.WriteString(v.Value)
		tmpl = tmpl[i+j+1:]
	}
}

// epoch reads a Unix time in unit ("s", "ms", or "auto": above 1e11 is
// milliseconds, since seconds that large are past the year 5000).
func epoch(v, unit string) (secs, nanos int64, ok bool) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, 0, false
	}
	n := int64(f)
	if unit == "ms" || (unit != "s" && n > 100_000_000_000) {
		return n / 1000, (n % 1000) * int64(time.Millisecond), true
	}
	return n, 0, true
}

// ttlSeconds returns the item's expiry in Unix seconds, read from the
// table's TTL attribute in the unit it holds (a Number in seconds or
// milliseconds, or an RFC 3339 string; ok false when the item has none).
func (lt Table) ttlSeconds(raw table.Item) (int64, bool) {
	if lt.TTL == nil {
		return 0, false
	}
	switch v := raw[lt.TTL.Attribute].(type) {
	case *types.AttributeValueMemberN:
		secs, _, ok := epoch(v.Value, lt.TTL.Unit)
		return secs, ok && secs > 0
	case *types.AttributeValueMemberS:
		t, err := time.Parse(time.RFC3339Nano, v.Value)
		return t.Unix(), err == nil
	}
	return 0, false
}
