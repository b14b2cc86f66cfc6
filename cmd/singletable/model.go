package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/singletable/singletable/internal/patterndoc"
	"github.com/singletable/singletable/table"
)

// appModel is an application's design as data: its tables, its entities
// (key templates, index templates, unique attributes) and its access
// patterns (catalog IDs, method, measured requests).
type appModel struct {
	App      string         `json:"app"`
	Tables   []tableModel   `json:"tables"`
	Entities []entityModel  `json:"entities"`
	Patterns []patternModel `json:"patterns"`
}

type tableModel struct {
	Name    string       `json:"name"`
	PK      string       `json:"pk"`
	SK      string       `json:"sk"`
	Indexes []indexModel `json:"indexes,omitempty"`
	TTL     string       `json:"ttl,omitempty"`
}

type indexModel struct {
	Name string `json:"name"`
	PK   string `json:"pk"`
	SK   string `json:"sk"`
}

type entityModel struct {
	Type    string                    `json:"type"`
	Table   string                    `json:"table"`
	Keys    *templateModel            `json:"keys,omitempty"`
	Indexes map[string]*templateModel `json:"indexes,omitempty"`
	Unique  []string                  `json:"unique,omitempty"`
	TTL     *ttlModel                 `json:"ttl,omitempty"`
	// CustomUniques names the attributes the entity's custom unique values
	// derive from (table.CustomUniques).
	CustomUniques []string `json:"customUniques,omitempty"`
}

type ttlModel struct {
	From  string `json:"from"`
	After string `json:"after,omitempty"`
}

type templateModel struct {
	PK   string   `json:"pk"`
	SK   string   `json:"sk"`
	When []string `json:"when,omitempty"`
}

type patternModel struct {
	IDs      []string       `json:"ids"`
	Method   string         `json:"method"`
	Summary  string         `json:"summary"`
	Requests *int           `json:"requests,omitempty"`
	Ops      map[string]int `json:"ops,omitempty"`
	RCU      *float64       `json:"rcu,omitempty"`
	WCU      *float64       `json:"wcu,omitempty"`
}

func cmdModel(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("model", flag.ContinueOnError)
	var c common
	c.register(fs, false)
	src := fs.String("src", ".", "the module's root directory, for the access patterns (a clone of this repository)")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	a, err := c.appDef()
	if err != nil {
		return err
	}
	m, err := buildModel(c.app, a, *src)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(m)
}

// openApp binds the application's entities to tables that send nothing.
func openApp(a *app) []*table.Table {
	var tables []*table.Table
	for _, s := range a.schemas("", "") {
		tables = append(tables, table.New(nil, s, cmdTableOptions))
	}
	a.open(tables, "")
	return tables
}

func buildModel(name string, a *app, root string) (*appModel, error) {
	m := &appModel{App: name}
	tables := openApp(a)
	for _, t := range tables {
		s := t.Schema()
		tm := tableModel{Name: s.Name, PK: s.PK, SK: s.SK, TTL: s.TTLAttr}
		for _, ix := range s.Indexes {
			tm.Indexes = append(tm.Indexes, indexModel{Name: ix.Name, PK: ix.PK, SK: ix.SK})
		}
		m.Tables = append(m.Tables, tm)
		for _, e := range t.Entities() {
			em := e.Model()
			out := entityModel{Type: em.Type, Table: s.Name, Unique: em.Unique, CustomUniques: em.CustomUniques,
				Keys: &templateModel{PK: em.Keys.PK, SK: em.Keys.SK}}
			if em.TTL.From != "" {
				out.TTL = &ttlModel{From: em.TTL.From}
				if em.TTL.After != 0 {
					out.TTL.After = em.TTL.After.String()
				}
			}
			for ix, tp := range em.Indexes {
				if out.Indexes == nil {
					out.Indexes = map[string]*templateModel{}
				}
				out.Indexes[ix] = &templateModel{PK: tp.PK, SK: tp.SK, When: tp.When}
			}
			m.Entities = append(m.Entities, out)
		}
	}
	_, methods, err := patterndoc.Patterns(filepath.Join(root, appPackages[name]), tables...)
	if err != nil {
		return nil, fmt.Errorf("model: read %s (run from the repository's root or set -src): %w", appPackages[name], err)
	}
	costs, err := patterndoc.ReadCosts(patterndoc.File(root, name))
	if err != nil {
		return nil, err
	}
	for _, pm := range methods {
		p := patternModel{IDs: slices.Clone(pm.IDs), Method: pm.Name, Summary: pm.Synopsis}
		if c, ok := costs[pm.Name]; ok {
			p.Requests, p.Ops, p.RCU, p.WCU = &c.Requests, c.Ops, &c.Read, &c.Write
		}
		m.Patterns = append(m.Patterns, p)
	}
	return m, nil
}
