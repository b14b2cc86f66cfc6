// Package exampleenv gives the example programs a DynamoDB to talk to:
// the one named by DYNAMODB_ENDPOINT, kept afterwards so a person can
// browse what the example wrote, or else a throwaway DynamoDB Local
// started for the run.
package exampleenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/internal/dynamolocal"
	"github.com/singletable/singletable/table"
)

// Open returns a client of the DynamoDB the example should use.
//
// If DYNAMODB_ENDPOINT is set, the client talks to it and keep is true:
// the example should leave its tables and items in place. Otherwise Open
// starts a DynamoDB Local (see package dynamolocal) and keep is false;
// stop, which the caller must defer, shuts it down, and so does Ctrl-C or
// SIGTERM (the program then exits with status 130). Open reports on stderr
// which DynamoDB it uses and how long start-up took.
func Open(ctx context.Context) (client *dynamodb.Client, keep bool, stop func(), err error) {
	t0 := time.Now()
	inst, err := dynamolocal.Start(ctx)
	if err != nil {
		return nil, false, nil, err
	}
	client = dynamolocal.NewClient(inst.Endpoint())
	if inst.Backend() == dynamolocal.BackendEndpoint {
		fmt.Fprintf(os.Stderr, "using DynamoDB at %s (from %s); tables and items are kept\n",
			inst.Endpoint(), dynamolocal.EnvEndpoint)
		return client, true, func() {}, nil
	}
	fmt.Fprintf(os.Stderr, "started DynamoDB Local at %s (backend %s) in %v; it stops when the example ends (set %s to keep the data)\n",
		inst.Endpoint(), inst.Backend(), time.Since(t0).Round(time.Millisecond), dynamolocal.EnvEndpoint)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	var once sync.Once
	stop = func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
			if err := inst.Close(); err != nil {
				fmt.Fprintf(os.Stderr, "stop DynamoDB Local: %v\n", err)
			}
		})
	}
	go func() {
		select {
		case sig := <-sigs:
			fmt.Fprintf(os.Stderr, "%v: stopping DynamoDB Local\n", sig)
			stop()
			os.Exit(130)
		case <-done:
		}
	}()
	return client, false, stop, nil
}

// EnvDropTables, when set, makes [Table] drop its table at the end even on
// a kept DYNAMODB_ENDPOINT: the example tests set it, so running the
// tests against a DynamoDB Local you keep leaves no table behind.
const EnvDropTables = "SINGLETABLE_DROP_TABLES"

// EnvSecretKey names a hex-encoded 32-byte key for the examples' secret
// fields; without it each run makes a random key (so secrets written by
// one run cannot be read by the next).
const EnvSecretKey = "SINGLETABLE_SECRET_KEY"

// Cipher returns the AES-GCM cipher the examples encrypt secret fields
// with: the key from EnvSecretKey, or a random one. A service would take
// its key from a secret store or KMS.
func Cipher() (table.Cipher, error) {
	key := make([]byte, 32)
	if h := os.Getenv(EnvSecretKey); h != "" {
		k, err := hex.DecodeString(h)
		if err != nil || len(k) != 32 {
			return nil, fmt.Errorf("%s must be 64 hex digits (32 bytes)", EnvSecretKey)
		}
		key = k
	} else if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return table.NewAESGCM(key)
}

// Table creates an example's table of schema and returns it with drop,
// which deletes it unless keep (a DYNAMODB_ENDPOINT the person wants to
// browse). With keep, the name gets a per-run suffix (-20060102-150405) so
// runs never collide. Secret fields are encrypted with [Cipher]; opts are
// applied after that.
func Table(ctx context.Context, client *dynamodb.Client, keep bool, schema table.Schema, opts ...func(*table.Options)) (t *table.Table, drop func(), err error) {
	if os.Getenv(EnvDropTables) != "" {
		keep = false // the example tests: nothing left behind on a kept endpoint
	}
	if keep {
		schema.Name += "-" + time.Now().UTC().Format("20060102-150405")
	}
	cipher, err := Cipher()
	if err != nil {
		return nil, nil, err
	}
	what := "dropped when the example ends"
	if keep {
		what = "kept, to browse (see docs/local-development.md, \"See your data\")"
	}
	fmt.Fprintf(os.Stderr, "table %s: %s\n", schema.Name, what)
	if keep && os.Getenv(EnvSecretKey) == "" {
		fmt.Fprintf(os.Stderr, "table %s: secret fields are sealed with a random key for this run; set %s (64 hex digits) to read them in a later run\n", schema.Name, EnvSecretKey)
	}
	opts = append([]func(*table.Options){func(o *table.Options) { o.Cipher = cipher }}, opts...)
	t = table.New(client, schema, opts...)
	if err := t.Create(ctx); err != nil {
		return nil, nil, err
	}
	drop = func() {
		if !keep {
			_ = t.Delete(context.Background())
		}
	}
	return t, drop, nil
}
