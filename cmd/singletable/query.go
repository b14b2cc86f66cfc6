package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/singletable/singletable/table"
)

// cmdQuery runs one declared access pattern of an application against a
// table and prints the typed items it returns, one JSON object a line,
// secrets redacted (Options.RedactSecrets: nothing is decrypted). It
// writes nothing.
//
//	singletable query -app podcastflow PF-2 userId=u-1
//	singletable query -app listbackup -limit 5 LB-12 accountId=a-1
//	singletable query -app podcastflow PF-10 from.date=2026-01-01 to.date=2026-01-31
func cmdQuery(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	limit := fs.Int("limit", 25, "print at most this many items (0: every item)")
	list := fs.Bool("list", false, "list the application's declared patterns (ID, name, request) instead of running one")
	if err := parseWithArgs(fs, args, stderr); err != nil {
		return err
	}
	a, err := c.appDef()
	if err != nil {
		return err
	}
	client, err := c.client(ctx)
	if err != nil {
		return err
	}
	var tables []*table.Table
	for _, s := range a.schemas(c.tableName, c.profile) {
		tables = append(tables, table.New(client, s, cmdTableOptions, func(o *table.Options) { o.RedactSecrets = true }))
	}
	a.open(tables, c.profile) // declares the application's patterns on its tables
	if *list {
		for _, tb := range tables {
			for _, p := range tb.Patterns() {
				for _, m := range p.Methods {
					fmt.Fprintf(stdout, "%-7s %-50s %-10s %s\n", p.ID, p.Name, m.Name, m.Request)
				}
			}
		}
		return nil
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: query needs a pattern ID or name, then its key fields as field=value (-list lists the patterns)", errUsage)
	}
	req := table.RunRequest{Pattern: fs.Arg(0), Fields: map[string]string{}, Limit: *limit}
	for _, kv := range fs.Args()[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return fmt.Errorf("%w: %q is not field=value", errUsage, kv)
		}
		req.Fields[k] = v
	}
	// The pattern is declared on one of the application's tables.
	var tb *table.Table
	for _, t := range tables {
		for _, p := range t.Patterns() {
			if p.ID == req.Pattern || p.Name == req.Pattern {
				tb = t
			}
		}
	}
	if tb == nil {
		return fmt.Errorf("%w: %s declares no pattern %q (-list lists them)", errUsage, c.app, req.Pattern)
	}
	enc := json.NewEncoder(stdout)
	n := 0
	for it, err := range tb.RunPattern(ctx, req) {
		if err != nil {
			if errors.Is(err, table.ErrNotFound) && n == 0 {
				fmt.Fprintln(stderr, "not found")
				return err
			}
			return err
		}
		n++
		if err := enc.Encode(struct {
			Type string    `json:"type"`
			Key  table.Key `json:"key"`
			Item any       `json:"item"`
		}{it.Type, it.Key, it.Value}); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "%d item(s)\n", n)
	return nil
}
