package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
)

// listFlag is a flag that may be repeated, each value a comma list.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// cmdTail follows the streams of an application's tables and prints each
// change, one line each, until ctx ends (Ctrl-C). It writes nothing to the
// tables: its consumers keep their positions in memory (NoCheckpoint).
func cmdTail(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tail", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	from := fs.String("from", "latest", "where to start: latest (changes from now on) or trim-horizon (everything the stream still holds, 24 h on AWS)")
	var entities listFlag
	fs.Var(&entities, "entity", "show only these entity types (repeatable, or a comma list; default all)")
	library := fs.Bool("library", false, "show the engine's own items too (unique guards, counter shards, job and feed checkpoints)")
	values := fs.Bool("values", false, "print the changed attributes' values (secrets show as [redacted])")
	poll := fs.Duration("poll", time.Second, "wait between reads of a shard with nothing new")
	a, client, err := c.open(ctx, fs, args, stderr)
	if err != nil {
		return err
	}
	var start feed.Start
	switch *from {
	case "latest":
		start = feed.Latest
	case "trim-horizon":
		start = feed.TrimHorizon
	default:
		return fmt.Errorf("%w: -from must be latest or trim-horizon, not %q", errUsage, *from)
	}
	opts, err := secretOptions()
	if err != nil {
		return err
	}
	var tables []*table.Table
	for _, s := range a.schemas(c.tableName, c.profile) {
		tables = append(tables, table.New(client, s, append(opts, cmdTableOptions)...))
	}
	a.open(tables, c.profile) // binds the entities: records are classified by their declarations
	show, err := entityFilter(tables, entities)
	if err != nil {
		return err
	}
	p := &tailPrinter{w: stdout, show: show, library: *library, values: *values}

	var followed []*table.Table
	for _, tb := range tables {
		d, err := tb.Describe(ctx)
		if err != nil {
			return err
		}
		if d.StreamSpecification == nil || !aws.ToBool(d.StreamSpecification.StreamEnabled) {
			fmt.Fprintf(stderr, "singletable tail: table %s has no stream enabled; not followed\n", tb.Name())
			continue
		}
		followed = append(followed, tb)
	}
	if len(followed) == 0 {
		return fmt.Errorf("no table of %s has a stream enabled (declare one with table.WithStream and run singletable plan -apply, or enable it on the table)", c.app)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, len(followed))
	for _, tb := range followed {
		cons := &feed.Consumer{Table: tb, Name: "tail", NoCheckpoint: true, Start: start, Poll: *poll,
			Handler: feed.BatchFunc(func(_ context.Context, b feed.Batch) (int, error) {
				p.batch(tb, b.Records)
				return len(b.Records), nil
			})}
		go func() { errs <- cons.Run(ctx) }()
	}
	var all []error
	for range followed {
		if err := <-errs; err != nil {
			all = append(all, err)
			cancel()
		}
	}
	return errors.Join(all...)
}

// entityFilter returns the entity types to show (nil: all), checked
// against the application's declarations.
func entityFilter(tables []*table.Table, names []string) (map[string]bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	known := map[string]string{} // lower case -> declared
	for _, tb := range tables {
		for _, e := range tb.Entities() {
			known[strings.ToLower(e.Type())] = e.Type()
		}
	}
	show := map[string]bool{}
	for _, n := range names {
		typ, ok := known[strings.ToLower(n)]
		if !ok {
			var all []string
			for _, t := range known {
				all = append(all, t)
			}
			sort.Strings(all)
			return nil, fmt.Errorf("%w: -entity %q is no entity of the application (%s)", errUsage, n, strings.Join(all, ", "))
		}
		show[typ] = true
	}
	return show, nil
}

// tailPrinter prints changes, one line each, from any number of shards.
type tailPrinter struct {
	mu      sync.Mutex
	w       io.Writer
	show    map[string]bool // entity types to show; nil: all
	library bool
	values  bool
}

func (p *tailPrinter) batch(tb *table.Table, recs []table.Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range recs {
		if line, ok := p.line(tb, r); ok {
			fmt.Fprintln(p.w, line)
		}
	}
}

// line formats one record: time, entity, event, key, changed attributes
// (with -values, name=value, secrets redacted). ok is false for a record
// the filters hide.
func (p *tailPrinter) line(tb *table.Table, r table.Record) (string, bool) {
	s, err := tb.SummarizeChange(r)
	cl := s.Class
	who := "unknown"
	switch cl.Kind {
	case table.KindEntity:
		who = cl.Entity.Type()
		if p.show != nil && !p.show[who] {
			return "", false
		}
	case table.KindLibrary:
		who = cl.Library
		if !p.library {
			return "", false
		}
	default:
		if p.show != nil {
			return "", false
		}
	}
	at := r.At
	if at.IsZero() {
		at = time.Now()
	}
	var b strings.Builder
	b.WriteString(at.Local().Format("15:04:05.000"))
	b.WriteString(" " + who)
	if err != nil {
		k := tb.KeyOf(r.Keys)
		fmt.Fprintf(&b, " %s %s/%s ! cannot decode: %v", strings.ToLower(r.Op), k.PK, k.SK, err)
		return b.String(), true
	}
	fmt.Fprintf(&b, " %s %s/%s", s.Event, s.Key.PK, s.Key.SK)
	if s.BookkeepingOnly {
		b.WriteString(" (bookkeeping only)")
		return b.String(), true
	}
	if len(s.Changed) == 0 {
		return b.String(), true
	}
	if !p.values {
		b.WriteString(" " + strings.Join(s.Changed, ","))
		return b.String(), true
	}
	for _, name := range s.Changed {
		b.WriteString(" " + name + "=")
		if slices.Contains(s.Secrets, name) {
			b.WriteString("[redacted]")
			continue
		}
		old, neu := r.Old[name], r.New[name]
		switch {
		case s.Event == table.Modified && old != nil && neu != nil:
			b.WriteString(showValue(old) + "->" + showValue(neu))
		case neu != nil:
			b.WriteString(showValue(neu))
		case old != nil && s.Event == table.Modified:
			b.WriteString(showValue(old) + "->(removed)")
		default:
			b.WriteString(showValue(old))
		}
	}
	return b.String(), true
}

// showValue renders a stored value compactly: strings quoted, numbers as
// stored, binary by its length, lists and maps JSON-like; long renderings
// are cut at 80 characters.
func showValue(av types.AttributeValue) string {
	s := renderValue(av)
	if utf8.RuneCountInString(s) > 80 {
		s = string([]rune(s)[:77]) + "..."
	}
	return s
}

func renderValue(av types.AttributeValue) string {
	switch v := av.(type) {
	case nil:
		return "(none)"
	case *types.AttributeValueMemberS:
		return strconv.Quote(v.Value)
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(v.Value)
	case *types.AttributeValueMemberNULL:
		return "null"
	case *types.AttributeValueMemberB:
		return fmt.Sprintf("<%d bytes>", len(v.Value))
	case *types.AttributeValueMemberSS:
		q := make([]string, len(v.Value))
		for i, s := range v.Value {
			q[i] = strconv.Quote(s)
		}
		return "<<" + strings.Join(q, ",") + ">>"
	case *types.AttributeValueMemberNS:
		return "<<" + strings.Join(v.Value, ",") + ">>"
	case *types.AttributeValueMemberBS:
		return fmt.Sprintf("<<%d binary values>>", len(v.Value))
	case *types.AttributeValueMemberL:
		parts := make([]string, len(v.Value))
		for i, e := range v.Value {
			parts[i] = renderValue(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case *types.AttributeValueMemberM:
		keys := make([]string, 0, len(v.Value))
		for k := range v.Value {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ":" + renderValue(v.Value[k])
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return fmt.Sprintf("%T", av)
}
