package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/schollz/progressbar/v3"

	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
)

// secretOptions returns the table options that seal secrets with the key
// in SINGLETABLE_SECRET_KEY (64 hex digits), if it is set.
func secretOptions() ([]func(*table.Options), error) {
	k := os.Getenv("SINGLETABLE_SECRET_KEY")
	if k == "" {
		return nil, nil
	}
	key, err := hex.DecodeString(k)
	if err != nil {
		return nil, fmt.Errorf("SINGLETABLE_SECRET_KEY: %w", err)
	}
	ciph, err := table.NewAESGCM(key)
	if err != nil {
		return nil, fmt.Errorf("SINGLETABLE_SECRET_KEY: %w", err)
	}
	return []func(*table.Options){func(o *table.Options) { o.Cipher = ciph }}, nil
}

// cmdMigrate copies a ListBackup deployment from its legacy tables into
// the single table (listbackup.Store.Migrate), then verifies it.
func cmdMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	var c common
	c.register(fs, true)
	stack := fs.String("stack", "", "the legacy deployment's stack name: its tables are <stack>-users, <stack>-accounts, ... (required)")
	dry := fs.Bool("dry-run", false, "read, convert and validate every item; write nothing but checkpoints")
	resume := fs.Bool("resume", false, "continue an interrupted migration from its checkpoints")
	segments := fs.Int("segments", 4, "parallel scan segments per legacy table")
	create := fs.Bool("create", false, "create the single table first if it does not exist")
	verify := fs.Bool("verify", true, "after the copy, find every legacy item in the single table and compare it")
	quiet := fs.Bool("quiet", false, "no progress bars")
	a, client, err := c.open(ctx, fs, args, stderr)
	if err != nil {
		return err
	}
	if c.app != "listbackup" {
		return fmt.Errorf("%w: migrate knows ListBackup's legacy layout only (-app listbackup)", errUsage)
	}
	if *stack == "" {
		return fmt.Errorf("%w: -stack is required", errUsage)
	}
	opts, err := secretOptions()
	if err != nil {
		return err
	}
	if opts == nil && !*dry {
		return fmt.Errorf("%w: set SINGLETABLE_SECRET_KEY (64 hex digits) so the secrets of the legacy tables are sealed on the way in (a dry run needs none)", errUsage)
	}
	if opts == nil {
		opts = append(opts, func(o *table.Options) { o.Cipher = dryRunCipher{} })
	}
	tb := table.New(client, a.schemas(c.tableName, c.profile)[0], append(opts, cmdTableOptions)...)
	if *create {
		if err := tb.Create(ctx); err != nil {
			return err
		}
	}
	s := listbackup.New(tb)
	bars := map[string]*progressbar.ProgressBar{}
	var barsMu sync.Mutex // tables migrate in parallel
	o := listbackup.MigrateOptions{Stack: *stack, DryRun: *dry, Resume: *resume, Segments: *segments}
	if !*quiet {
		o.Progress = func(legacy string, r table.JobReport) {
			barsMu.Lock()
			defer barsMu.Unlock()
			bar := bars[legacy]
			if bar == nil {
				bar = itemsBar(ctx, client, legacy, stderr)
				bars[legacy] = bar
			}
			_ = bar.Set64(r.Scanned)
		}
	}
	start := time.Now()
	res, err := s.Migrate(ctx, o)
	for _, bar := range bars {
		_ = bar.Finish()
	}
	mode := "migrated"
	if *dry {
		mode = "dry run"
	}
	var items int64
	for _, r := range res {
		items += r.Report.Seen
		fmt.Fprintf(stdout, "%s %s -> %s: %v\n", mode, r.Legacy, r.Entity, r.Report)
		for _, cf := range r.Report.Conflicts {
			fmt.Fprintf(stdout, "  conflict %s %s: %s\n", cf.Key.PK, cf.Key.SK, cf.Reason)
		}
	}
	took := time.Since(start)
	fmt.Fprintf(stdout, "%s %d items in %v (%.0f items/s)\n", mode, items, took.Round(time.Millisecond), float64(items)/took.Seconds())
	if err != nil {
		return fmt.Errorf("%w (run again with -resume to continue)", err)
	}
	if !*verify || *dry {
		return nil
	}
	ver, err := s.VerifyMigration(ctx, *stack)
	if err != nil {
		return err
	}
	var bad []error
	for _, v := range ver {
		fmt.Fprintf(stdout, "verified %s: %d of %d found (%d past their TTL, not copied)\n", v.Legacy, v.Found, v.Scanned, v.Expired)
		for _, m := range v.Missing {
			fmt.Fprintf(stdout, "  missing %s\n", m)
		}
		for _, d := range v.Differences {
			fmt.Fprintf(stdout, "  differs %s\n", d)
		}
		if len(v.Missing) > 0 || len(v.Differences) > 0 {
			bad = append(bad, fmt.Errorf("%s: %d missing, %d differing", v.Legacy, len(v.Missing), len(v.Differences)))
		}
	}
	return errors.Join(bad...)
}

// dryRunCipher lets a dry run encode secrets without a key: a dry run
// writes nothing it seals.
type dryRunCipher struct{}

func (dryRunCipher) Encrypt(plaintext, _ []byte) ([]byte, error) { return plaintext, nil }
func (dryRunCipher) Decrypt(ciphertext, _ []byte) ([]byte, error) {
	return nil, errors.New("a dry run reads no sealed secret")
}

// itemsBar is a progress bar of the items of table name scanned, sized by
// the table's approximate item count (DescribeTable), if known.
func itemsBar(ctx context.Context, client *dynamodb.Client, name string, w io.Writer) *progressbar.ProgressBar {
	total := int64(-1)
	if d, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}); err == nil && d.Table.ItemCount != nil {
		total = *d.Table.ItemCount
	}
	return progressbar.NewOptions64(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(name),
		progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("items"), progressbar.OptionClearOnFinish())
}
