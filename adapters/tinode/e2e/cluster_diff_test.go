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
	"sync"
	"testing"
	"time"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// clusterNodes are the names of the cluster's nodes (Tinode's own
// run-cluster.sh names them so).
var clusterNodes = []string{"one", "two", "three"}

// clusterScaleKeys are the adapter's scale keys the cluster runs with
// (README "Scale"): messages in 4 partitions per topic, per-message
// writes coalesced for up to a second per topic and node.
var clusterScaleKeys = map[string]any{"message_shards": 4, "coalesce_ms": 1000}

// TestTinodeClusterDifferential runs cluster.mjs, Tinode's own client
// driving a three-node Tinode cluster (Tinode's cluster mode: its
// cluster_config, every node on this machine, one store), on two
// backends at once: Tinode's own PostgreSQL adapter over a real
// PostgreSQL, and adapters/tinode with the scale keys (clusterScaleKeys)
// over one DynamoDB Local table. The scenario attaches the members of a
// group to different nodes, sends messages through every node, reads 'me'
// and 'fnd' on nodes that do not host the group (the test's status
// endpoint tells where each topic is hosted), stops the group's node so
// the group moves to a running node, and starts it again so the group
// moves back. The two transcripts are compared step by step as in
// TestTinodeDifferential; every step must be equal, except the documented
// differences between Tinode's own SQL adapters (sqlDifferences). Each
// stop and start must make every other node rehash exactly once (no
// spurious failover).
//
// CLUSTER_ADAPTER_CONFIG (JSON) replaces the adapter's scale keys;
// DIFF_KEEP=<dir> keeps both transcripts; CLUSTER_KEEP=<dir> the nodes'
// logs.
func TestTinodeClusterDifferential(t *testing.T) {
	start := time.Now()
	here, build := setUp(t)
	endpoint := tabletest.Endpoint(t)
	dyn := tabletest.TableName("tinode", "cluster")
	t.Cleanup(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = table.New(tabletest.NewClient(t), table.NewSchema(dyn)).Delete(c)
	})
	dynCfg := map[string]any{"table": dyn, "endpoint": endpoint, "region": "us-east-1", "create_table": true}
	scale := clusterScaleKeys
	if extra := os.Getenv("CLUSTER_ADAPTER_CONFIG"); extra != "" {
		scale = map[string]any{}
		if err := json.Unmarshal([]byte(extra), &scale); err != nil {
			t.Fatalf("CLUSTER_ADAPTER_CONFIG: %v", err)
		}
	}
	for k, v := range scale {
		dynCfg[k] = v
	}
	t.Logf("adapter config: %v", dynCfg)

	backends := []struct{ name, adapter string }{{"postgres", "postgres"}, {"dynamodb", "dynamodb"}}
	var transcripts [2]transcript
	var times [2]time.Duration
	t.Run("cluster", func(t *testing.T) {
		for i, b := range backends {
			t.Run(b.name, func(t *testing.T) {
				t.Parallel()
				t0 := time.Now()
				cfg := dynCfg
				if b.adapter == "postgres" {
					cfg = map[string]any{"dsn": startPostgres(t, here)}
				}
				transcripts[i] = runClusterScenario(t, build, here, b.name, b.adapter, cfg)
				times[i] = time.Since(t0).Round(time.Millisecond)
			})
		}
	})
	if t.Failed() {
		return
	}
	equal, withDoc := compareTranscripts(t, transcripts[0], transcripts[1])
	t.Logf("cluster of %d nodes: %d steps compared: %d equal, %d with documented SQL-adapter differences; postgres %v, dynamodb %v (in parallel); whole test %v",
		len(clusterNodes), len(transcripts[0].Steps), equal, withDoc, times[0], times[1], time.Since(start).Round(time.Second))
}

// runClusterScenario initialises the store with tinode-db, starts the
// cluster on it, and runs cluster.mjs against it, serving the scenario's
// control endpoint: /where?topic= (which nodes host the topic or proxy
// it), /stop?node= and /start?node= (which return once the cluster has
// rehashed). It returns the transcript.
func runClusterScenario(t *testing.T, build, here, name, adapter string, adapterCfg map[string]any) transcript {
	t.Helper()
	dir := t.TempDir()
	conf := serverConfig(freePort(t), adapter, adapterCfg)
	cf := writeConfig(t, dir, conf)
	t0 := time.Now()
	runCmd(t, filepath.Join(build, "chat", "tinode-db"), filepath.Join(build, "bin", "tinode-db"), "-config", cf)
	t.Logf("%s: tinode-db initialised the store in %v", name, time.Since(t0).Round(time.Millisecond))
	c := startCluster(t, build, dir, conf, clusterNodes...)

	// The control endpoint. A failure here fails the test (Errorf is
	// safe from the handler's goroutine) as well as the scenario's step.
	var mu sync.Mutex
	wantRehashes := c.Rehashes() // a node late at the start may have been dropped and taken back
	fail := func(w http.ResponseWriter, err error) {
		t.Errorf("%s: %v", name, err)
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/where", func(w http.ResponseWriter, r *http.Request) {
		master, proxies, err := c.Where(r.URL.Query().Get("topic"))
		if err != nil {
			fail(w, err)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string][]string{"master": master, "proxies": proxies})
	})
	change := func(stop bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			node := r.URL.Query().Get("node")
			t0 := time.Now()
			var err error
			if stop {
				wantRehashes += len(c.running()) - 1
				err = c.Stop(node)
			} else {
				wantRehashes += len(c.running())
				err = c.Start(node)
			}
			what := map[bool]string{true: "stopped", false: "started"}[stop]
			if err != nil {
				fail(w, fmt.Errorf("node %s %s: %w", node, what, err))
				return
			}
			t.Logf("%s: node %s %s, the cluster rehashed, in %v", name, node, what, time.Since(t0).Round(time.Millisecond))
			_ = json.NewEncoder(w).Encode(map[string]bool{what: true})
		}
	}
	mux.Handle("/stop", change(true))
	mux.Handle("/start", change(false))
	ctl := &http.Server{Handler: mux}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go ctl.Serve(l)
	defer ctl.Close()

	var nodes []map[string]string
	for _, n := range c.Nodes {
		nodes = append(nodes, map[string]string{"name": n.Name, "host": n.Host()})
	}
	nodesJSON, _ := json.Marshal(nodes)
	outPath := filepath.Join(dir, "transcript.json")
	scenario := exec.Command("node", "cluster.mjs")
	scenario.Dir = here
	scenario.Env = append(os.Environ(),
		"CLUSTER_NODES="+string(nodesJSON),
		"CONTROL_URL=http://"+l.Addr().String(),
		"DIFF_OUT="+outPath)
	var buf bytes.Buffer
	scenario.Stdout, scenario.Stderr = &buf, &buf
	t1 := time.Now()
	err = scenario.Run()
	fmt.Printf("== %s cluster (%v)\n%s", name, time.Since(t1).Round(time.Millisecond), buf.String())
	if err != nil {
		t.Fatalf("%s: scenario: %v", name, err)
	}
	mu.Lock()
	if got := c.Rehashes(); got != wantRehashes {
		t.Errorf("%s: %d rehashes in the nodes' logs, want %d (one per other node and stop or start)", name, got, wantRehashes)
	}
	mu.Unlock()
	return readTranscript(t, outPath, name+"-cluster.json")
}
