package main

import (
	"slices"
	"strings"

	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
)

// app is one application the command knows: its tables, as its package
// defines them, and how to bind its entities to them.
type app struct {
	profiles []string
	// schemas returns the application's table schemas; main names the
	// first (main) table, "" for the default.
	schemas func(main, profile string) []table.Schema
	// open binds the application's store (and so its entities) to tables,
	// in the order of schemas.
	open func(tables []*table.Table, profile string)
}

var apps = map[string]*app{
	"ferryhook": {
		profiles: []string{"service"},
		schemas: func(main, profile string) []table.Schema {
			events := ferryhook.DefaultEventsTable
			if main == "" {
				main = ferryhook.DefaultMainTable
			} else if i := strings.LastIndex(main, "-main"); i >= 0 {
				// "x-main" -> "x-events", "ferryhook-main-20261122-1200" (an
				// example's kept table) -> "ferryhook-events-20261122-1200"
				events = main[:i] + "-events" + main[i+len("-main"):]
			}
			var opts []table.SchemaOption
			if profile == "service" {
				opts = append(opts, table.WithLowercaseKeys())
			}
			return []table.Schema{ferryhook.MainSchema(main, opts...), ferryhook.EventsSchema(events, opts...)}
		},
		open: func(ts []*table.Table, profile string) {
			var opts []func(*ferryhook.Options)
			if profile == "service" {
				opts = append(opts, ferryhook.ServiceProfile())
			}
			ferryhook.New(ts[0], ts[1], opts...)
		},
	},
	"podcastflow": {
		schemas: func(main, _ string) []table.Schema {
			return []table.Schema{podcastflow.Schema(or(main, podcastflow.TableName))}
		},
		open: func(ts []*table.Table, _ string) { podcastflow.New(ts[0]) },
	},
	"tinode": {
		schemas: func(main, _ string) []table.Schema {
			return []table.Schema{table.NewSchema(or(main, "tinode"))}
		},
		open: func(ts []*table.Table, _ string) { tinode.New(ts[0]) },
	},
	"listbackup": {
		schemas: func(main, _ string) []table.Schema {
			return []table.Schema{listbackup.Schema(or(main, listbackup.TableName))}
		},
		open: func(ts []*table.Table, _ string) { listbackup.New(ts[0]) },
	},
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func appNames() []string {
	var names []string
	for n := range apps {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
