// Command singletable works on the tables of the applications this module
// ships, from the same definitions the tests create:
//
//	singletable schema -app ferryhook [-format json|cloudformation|terraform]
//	singletable plan   -app ferryhook [-table ferryhook-main] [-profile service] [-apply]
//	singletable adopt  -app ferryhook [-table ferryhook-main] [-dry-run] [-resume] [-segments 4] [-max-capacity 0]
//	singletable tail   -app listbackup [-table listbackup] [-from latest|trim-horizon] [-entity Job,User] [-library] [-values]
//
// plan, adopt and tail talk to the DynamoDB named by DYNAMODB_ENDPOINT (signing
// like the examples: DynamoDB Local's dummy credentials, or the standard
// AWS configuration with DYNAMODB_USE_AWS_CONFIG=1), or by -endpoint; with
// neither, to AWS itself through the standard AWS configuration. Secrets
// are sealed with the hex key in SINGLETABLE_SECRET_KEY. Every subcommand
// takes -help and exits non-zero on failure.
//
// tail follows the streams of the application's tables (a table.Consumer
// per table, positions in memory only: it never writes to a table) and
// prints one line per change as it happens, until Ctrl-C:
//
//	10:04:05.123 Job modified JOB#j1/JOB status,updatedAt
//
// the record's time, the entity, the event (created, modified, removed,
// expired), the key and the attributes that changed; a modification of
// nothing but the engine's bookkeeping says "(bookkeeping only)". The
// engine's own items (guards, counters, checkpoints) are hidden unless
// -library is given; a record of no declared entity prints as "unknown".
// -entity Job,User (or repeated) shows only those entities. -values adds
// the values (old->new), with every declared secret shown as [redacted];
// without -values no value is printed at all. -from trim-horizon starts at
// the oldest record the stream holds instead of now.
package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/internal/dynamolocal"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tableschema"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "singletable:", err)
		}
		os.Exit(exitCode(err))
	}
}

func exitCode(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if errors.Is(err, errUsage) {
		return 2
	}
	return 1
}

var errUsage = errors.New("usage")

const usage = `usage: singletable <command> [flags]

commands:
  schema   print an application's table definitions (CreateTable JSON, CloudFormation, Terraform)
  plan     compare a live table with the application's schema; -apply makes the in-place changes
  adopt    bring the items of a live table written by other services up to the library's invariants
  workbench export the design as an Amazon NoSQL Workbench data model (a facet per entity, from its declarations; items add examples)
  doc      print an application's access-pattern document (tables, entity key templates, methods by catalog ID, requests)
  model    print an application's design as JSON (tables, entity key and index templates, access patterns, requests)
  query    run one declared access pattern (by catalog ID or name, key fields as field=value) and print its typed items, secrets redacted; -list lists the patterns
  tail     follow a table's stream and print each change (time, entity, event, key, changed fields); Ctrl-C stops
  migrate  copy a ListBackup deployment (the documents' 13 + 6 legacy tables, or the 22 of ListBackup's own code) into the single table, then verify it; -create-legacy creates either layout to rehearse

run "singletable <command> -help" for a command's flags.
`

// run is the command line, testable: args without the program name.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return fmt.Errorf("%w: no command", errUsage)
		}
		return flag.ErrHelp
	}
	switch args[0] {
	case "schema":
		return cmdSchema(args[1:], stdout, stderr)
	case "plan":
		return cmdPlan(ctx, args[1:], stdout, stderr)
	case "adopt":
		return cmdAdopt(ctx, args[1:], stdout, stderr)
	case "workbench":
		return cmdWorkbench(ctx, args[1:], stdout, stderr)
	case "doc":
		return cmdDoc(ctx, args[1:], stdout, stderr)
	case "model":
		return cmdModel(ctx, args[1:], stdout, stderr)
	case "migrate":
		return cmdMigrate(ctx, args[1:], stdout, stderr)
	case "tail":
		return cmdTail(ctx, args[1:], stdout, stderr)
	case "query":
		return cmdQuery(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("%w: unknown command %q", errUsage, args[0])
}

// common are the flags every command shares.
type common struct {
	app, tableName, profile, endpoint string
}

func (c *common) register(fs *flag.FlagSet, withEndpoint bool) {
	fs.StringVar(&c.app, "app", "", "application: "+strings.Join(appNames(), ", ")+" (required)")
	fs.StringVar(&c.tableName, "table", "", "the main table's name (default: the application's)")
	fs.StringVar(&c.profile, "profile", "", `deployment profile: "" (the library's) or "service" (the running service's conventions; ferryhook)`)
	if withEndpoint {
		fs.StringVar(&c.endpoint, "endpoint", "", "DynamoDB endpoint URL (default: $DYNAMODB_ENDPOINT, else AWS)")
	}
}

// summaries are the commands' one-line descriptions, for their -help.
var summaries = map[string]string{}

func init() {
	for _, line := range strings.Split(usage, "\n") {
		if f := strings.Fields(line); len(f) > 1 && strings.HasPrefix(line, "  ") {
			summaries[f[0]] = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0]))
		}
	}
}

func parse(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	if err := parseWithArgs(fs, args, stderr); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	}
	return nil
}

// parseWithArgs is parse for a command that takes arguments after its
// flags (query).
func parseWithArgs(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: singletable %s -app NAME [flags]\n\n%s.\n\n", fs.Name(), summaries[fs.Name()])
		if fs.Lookup("endpoint") != nil {
			fmt.Fprint(stderr, "The endpoint is -endpoint, else $DYNAMODB_ENDPOINT, else AWS (the SDK's configuration:\nregion, credentials, profile).\n")
		} else {
			fmt.Fprint(stderr, "Sends no request.\n")
		}
		fmt.Fprint(stderr, "Exit status: 0 done, 1 failed, 2 usage error.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}

func (c *common) appDef() (*app, error) {
	a, ok := apps[c.app]
	if !ok {
		return nil, fmt.Errorf("%w: -app must be one of %s, not %q", errUsage, strings.Join(appNames(), ", "), c.app)
	}
	if c.profile != "" && !slices.Contains(a.profiles, c.profile) {
		return nil, fmt.Errorf("%w: %s has no profile %q", errUsage, c.app, c.profile)
	}
	return a, nil
}

func cmdSchema(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	var c common
	c.register(fs, false)
	format := fs.String("format", "json", "output format: json (CreateTable input), cloudformation, terraform")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	a, err := c.appDef()
	if err != nil {
		return err
	}
	for i, s := range a.schemas(c.tableName, c.profile) {
		var out []byte
		switch *format {
		case "json":
			out, err = tableschema.CreateTableJSON(s)
		case "cloudformation":
			out, err = tableschema.CloudFormation(s, logicalID(s.Name))
		case "terraform":
			out = tableschema.Terraform(s, strings.NewReplacer("-", "_", ".", "_").Replace(s.Name))
		default:
			return fmt.Errorf("%w: -format must be json, cloudformation or terraform", errUsage)
		}
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if _, err := stdout.Write(out); err != nil {
			return err
		}
		if len(out) > 0 && out[len(out)-1] != '\n' {
			fmt.Fprintln(stdout)
		}
	}
	return nil
}

func logicalID(name string) string {
	var b strings.Builder
	up := true
	for _, r := range name {
		if r == '-' || r == '_' || r == '.' {
			up = true
			continue
		}
		if up {
			r = []rune(strings.ToUpper(string(r)))[0]
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func cmdPlan(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	apply := fs.Bool("apply", false, "make the changes that can be made in place (create a missing table, enable TTL)")
	a, client, err := c.open(ctx, fs, args, stderr)
	if err != nil {
		return err
	}
	var errs []error
	for _, s := range a.schemas(c.tableName, c.profile) {
		tb := table.New(client, s, cmdTableOptions)
		p, err := tableschema.Compare(ctx, tb)
		if err != nil {
			return err
		}
		fmt.Fprint(stdout, p)
		if *apply && len(p.Changes) > 0 {
			if err := tableschema.Apply(ctx, tb, p); err != nil {
				errs = append(errs, err)
			} else {
				fmt.Fprintf(stdout, "applied to %s\n", s.Name)
			}
		}
	}
	return errors.Join(errs...)
}

func cmdAdopt(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("adopt", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	dry := fs.Bool("dry-run", false, "visit every item and report what would change, writing nothing")
	resume := fs.Bool("resume", false, "continue an interrupted run from its checkpoint")
	segments := fs.Int("segments", 4, "parallel scan segments")
	maxCap := fs.Float64("max-capacity", 0, "capacity units per second, reads and writes together (0: no cap)")
	quiet := fs.Bool("quiet", false, "no progress bar")
	a, client, err := c.open(ctx, fs, args, stderr)
	if err != nil {
		return err
	}
	opts, err := secretOptions()
	if err != nil {
		return err
	}
	var tables []*table.Table
	for _, s := range a.schemas(c.tableName, c.profile) {
		tables = append(tables, table.New(client, s, append(opts, cmdTableOptions)...))
	}
	a.open(tables, c.profile) // binds the application's entities to the tables
	var errs []error
	for _, tb := range tables {
		job := table.AdoptJob("adopt-"+c.app, tb.Entities()...)
		job.DryRun, job.Resume, job.Segments, job.MaxCapacity = *dry, *resume, *segments, *maxCap
		if !*quiet {
			bar := itemsBar(ctx, client, tb.Name(), stderr)
			job.Progress = func(r table.JobReport) { _ = bar.Set64(r.Scanned) }
			defer bar.Finish()
		}
		rep, err := tb.RunJob(ctx, job)
		mode := "adopted"
		if *dry {
			mode = "dry run"
		}
		fmt.Fprintf(stdout, "%s %s: %v\n", mode, tb.Name(), rep)
		for _, cf := range rep.Conflicts {
			fmt.Fprintf(stdout, "  conflict %s/%s: %s\n", cf.Key.PK, cf.Key.SK, cf.Reason)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w (run again with -resume to continue)", tb.Name(), err))
		}
	}
	return errors.Join(errs...)
}

// open parses the flags of a command that talks to DynamoDB and returns
// its application and client.
func (c *common) open(ctx context.Context, fs *flag.FlagSet, args []string, stderr io.Writer) (*app, *dynamodb.Client, error) {
	if err := parse(fs, args, stderr); err != nil {
		return nil, nil, err
	}
	a, err := c.appDef()
	if err != nil {
		return nil, nil, err
	}
	client, err := c.client(ctx)
	return a, client, err
}

// client returns the DynamoDB client the flags and environment name.
func (c *common) client(ctx context.Context) (*dynamodb.Client, error) {
	ep := c.endpoint
	if ep == "" {
		ep = os.Getenv(dynamolocal.EnvEndpoint)
	}
	if ep != "" {
		return dynamolocal.NewClient(ep), nil
	}
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, fmt.Errorf("no -endpoint or %s, and the AWS configuration does not load: %w", dynamolocal.EnvEndpoint, err)
	}
	return dynamodb.NewFromConfig(cfg), nil
}

func cmdWorkbench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("workbench", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	samples := fs.Int("samples", 5, "sample items per entity type")
	pages := fs.Int("pages", 10, "at most this many 1 MB Scan pages per table")
	name := fs.String("name", "", "model name (default: the application's name)")
	a, client, err := c.open(ctx, fs, args, stderr)
	if err != nil {
		return err
	}
	schemas := a.schemas(c.tableName, c.profile)
	tables := make([]*table.Table, len(schemas))
	for i, s := range schemas {
		tables[i] = table.New(client, s, cmdTableOptions)
	}
	a.open(tables, c.profile) // binds the entities, so declared key templates name the facets
	var model map[string]any
	for _, tb := range tables {
		raw, err := tableschema.Workbench(ctx, tb, or(*name, c.app), *samples, *pages)
		if err != nil {
			return err
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			return err
		}
		if model == nil {
			model = m
			continue
		}
		model["DataModel"] = append(model["DataModel"].([]any), m["DataModel"].([]any)...)
	}
	out, err := json.MarshalIndent(model, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, string(out))
	return err
}

// cmdTableOptions give the command's tables a cursor key of their own: the
// command pages nothing across processes, so the library's warning about
// a random key would only be noise here.
func cmdTableOptions(o *table.Options) {
	o.CursorKey = make([]byte, 32)
	_, _ = rand.Read(o.CursorKey)
}
