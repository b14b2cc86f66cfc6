//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	rh "github.com/tinode/chat/server/ringhash"
)

// A Tinode cluster on this machine, as Tinode's own server/run-cluster.sh
// starts one: every node runs the same binary with the same configuration
// (its "cluster_config" lists every node by name and cluster address),
// told which node it is by -cluster_self and where to serve clients by
// -listen; all nodes share one store.
//
// Tinode hosts each topic on one node, the one a consistent hash ring of
// the live nodes' names gives for the topic's name (cluster.go
// nodeForTopic; a new group is named so that the creating session's node
// hosts it); a session on another node reaches it through a proxy topic.
// With failover on, a leader (elected among the nodes) sends a health
// check every heartbeat; a node that fails node_fail_after of them is
// dropped from the ring (the leader logs "cluster: initiating failover
// rehash for nodes [...]", each follower "cluster: rehashing at a request
// of ... [...]" at the second health check carrying the new ring), so its
// topics move to the other nodes; when it answers again the ring takes it
// back and its topics move back. Sessions attached to a moved topic get
// {pres what="term"} and must subscribe again.

// clusterFailover is the failover block of the cluster's configuration:
// a heartbeat of 100 ms, a new leader elected after 8 missed heartbeats
// and a node dropped after 10 failed ones (Tinode's defaults are 100 ms,
// 8 and 16), so a stopped node's topics move within about 2 s. A health
// check fails only when the node cannot be reached (an RPC to a slow node
// waits), so a loaded machine does not drop a running node.
var clusterFailover = map[string]any{"enabled": true, "heartbeat": 100, "vote_after": 8, "node_fail_after": 10}

// clusterNode is one node of a tinodeCluster.
type clusterNode struct {
	Name        string
	Port        int    // clients' port (WebSocket, HTTP)
	ClusterAddr string // the port the other nodes connect to
	log         string // the node's log (every start appends)

	mu      sync.Mutex
	cmd     *exec.Cmd
	logf    *os.File
	started int64 // size of the log when the running process started
}

// Host is the node's address for clients (host:port).
func (n *clusterNode) Host() string { return fmt.Sprintf("127.0.0.1:%d", n.Port) }

// tinodeCluster is a Tinode cluster started by startCluster.
type tinodeCluster struct {
	Nodes []*clusterNode
	build string
	dir   string
	conf  string // the configuration file every node runs with

	probes [][2]string // probe users made (login, user ID): reconnected
}

// startCluster starts a Tinode cluster of the named nodes (in parallel),
// running the build in build (build.sh), in dir, with the server
// configuration conf (serverConfig's, plus the caller's keys; its listen
// address is overridden per node). It adds the cluster configuration
// (every node on a free port of this machine, clusterFailover) and the
// server status page (/status, which Where reads), waits until every node
// serves clients and the nodes agree on a leader and on a ring of all of
// them, and stops the nodes when the test ends (their logs are printed
// when it failed; CLUSTER_KEEP=<dir> keeps them).
func startCluster(t *testing.T, build, dir string, conf map[string]any, names ...string) *tinodeCluster {
	t.Helper()
	c := &tinodeCluster{build: build, dir: dir}
	var nodes []any
	for _, name := range names {
		n := &clusterNode{
			Name:        name,
			Port:        freePort(t),
			ClusterAddr: fmt.Sprintf("127.0.0.1:%d", freePort(t)),
			log:         filepath.Join(dir, "node-"+name+".log"),
		}
		c.Nodes = append(c.Nodes, n)
		nodes = append(nodes, map[string]any{"name": n.Name, "addr": n.ClusterAddr})
	}
	conf["cluster_config"] = map[string]any{"self": "", "nodes": nodes, "failover": clusterFailover}
	conf["server_status"] = "/status"
	c.conf = writeConfig(t, dir, conf)
	t.Cleanup(func() {
		var wg sync.WaitGroup
		for _, n := range c.Nodes {
			wg.Add(1)
			go func() { defer wg.Done(); n.stop() }()
		}
		wg.Wait()
		keep := os.Getenv("CLUSTER_KEEP")
		for _, n := range c.Nodes {
			out, _ := os.ReadFile(n.log)
			if keep != "" {
				_ = os.WriteFile(filepath.Join(keep, strings.ReplaceAll(t.Name(), "/", "-")+"-"+n.Name+".log"), out, 0o644)
			}
			if t.Failed() {
				if len(out) > 12000 {
					out = out[len(out)-12000:]
				}
				t.Logf("node %s log (tail):\n%s", n.Name, out)
			}
		}
	})
	t0 := time.Now()
	for _, n := range c.Nodes {
		if err := c.start(n); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.settle(names, nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("cluster of %d nodes up in %v", len(names), time.Since(t0).Round(time.Millisecond))
	return c
}

// Node returns the node named name, or nil.
func (c *tinodeCluster) Node(name string) *clusterNode {
	for _, n := range c.Nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}

// running returns the names of the nodes whose process runs.
func (c *tinodeCluster) running() []string {
	var out []string
	for _, n := range c.Nodes {
		n.mu.Lock()
		if n.cmd != nil {
			out = append(out, n.Name)
		}
		n.mu.Unlock()
	}
	return out
}

// Stop stops node name as an operator does (SIGINT; Tinode shuts down
// its topics and closes the store) and waits until each other node has
// dropped it from its ring (rehashed once), so its topics are hosted
// elsewhere.
func (c *tinodeCluster) Stop(name string) error {
	n := c.Node(name)
	if n == nil {
		return fmt.Errorf("no node %q", name)
	}
	marks := c.marks()
	n.stop()
	delete(marks, name)
	return c.settle(c.running(), marks)
}

// Start starts node name again and waits until it serves clients, each
// other node has taken it back into its ring (rehashed once), so it hosts
// its topics again, and each other node has connected to it again
// (reconnected).
func (c *tinodeCluster) Start(name string) error {
	n := c.Node(name)
	if n == nil {
		return fmt.Errorf("no node %q", name)
	}
	marks := c.marks()
	if err := c.start(n); err != nil {
		return err
	}
	if err := c.settle(c.running(), marks); err != nil {
		return err
	}
	return c.reconnected(name, marks)
}

// reconnected makes sure every other running node has connected again to
// node name since its mark. A node notices that its connection to a
// stopped node broke only when a request over it fails: the leader's
// next health check does, but another node keeps the broken connection
// until it sends something to the node, and the first thing it sends
// (say, the reply of a topic it hosts to a session attached there) is
// lost. Such a node is made to send first: probe.mjs, attached to it,
// subscribes to the 'me' or 'fnd' of a probe user that the ring gives to
// node name, until it has connected.
func (c *tinodeCluster) reconnected(name string, marks map[string]int64) error {
	ring := rh.New(20, nil) // Tinode's clusterHashReplicas
	ring.Add(c.running()...)
	connected := func(n *clusterNode) bool {
		for _, l := range n.logSince(marks[n.Name]) {
			if strings.Contains(l.text, "cluster: connected to "+name) {
				return true
			}
		}
		return false
	}
	for _, other := range c.running() {
		n := c.Node(other)
		if other == name || connected(n) {
			continue
		}
		login, topic, err := c.probeFor(ring, name, n.Host())
		if err != nil {
			return err
		}
		probe := c.probe(n.Host(), login, topic)
		var out bytes.Buffer
		probe.Stdout, probe.Stderr = &out, &out
		if err := probe.Start(); err != nil {
			return err
		}
		deadline := time.Now().Add(20 * time.Second)
		for !connected(n) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		_ = probe.Process.Kill()
		_ = probe.Wait()
		if !connected(n) {
			return fmt.Errorf("node %s did not connect again to node %s (probe %s %s: %s)", other, name, login, topic, out.String())
		}
	}
	return nil
}

// probeFor returns a probe user whose 'me' or 'fnd' (topic) the ring
// gives to node target, making probe users (probe1, probe2, ...) through
// host until one fits.
func (c *tinodeCluster) probeFor(ring *rh.Ring, target, host string) (login, topic string, err error) {
	for i := 0; i < 20; i++ {
		if i == len(c.probes) {
			login := fmt.Sprintf("probe%d", i+1)
			out, err := c.probe(host, login, "").CombinedOutput()
			uid, ok := strings.CutPrefix(strings.TrimSpace(string(out)), "uid ")
			if err != nil || !ok {
				return "", "", fmt.Errorf("probe user %s: %v: %s", login, err, out)
			}
			c.probes = append(c.probes, [2]string{login, uid})
		}
		p := c.probes[i]
		switch target {
		case ring.Get(p[1]):
			return p[0], "me", nil
		case ring.Get("fnd" + strings.TrimPrefix(p[1], "usr")):
			return p[0], "fnd", nil
		}
	}
	return "", "", fmt.Errorf("no probe user's 'me' or 'fnd' is on node %s", target)
}

// probe returns the command running probe.mjs on host as login.
func (c *tinodeCluster) probe(host, login, topic string) *exec.Cmd {
	here, _ := os.Getwd()
	cmd := exec.Command("node", "probe.mjs")
	cmd.Dir = here
	cmd.Env = append(os.Environ(), "PROBE_HOST="+host, "PROBE_LOGIN="+login, "PROBE_TOPIC="+topic)
	return cmd
}

// marks returns the size of each running node's log: what it logs after
// a change is past its mark.
func (c *tinodeCluster) marks() map[string]int64 {
	m := map[string]int64{}
	for _, name := range c.running() {
		if fi, err := os.Stat(c.Node(name).log); err == nil {
			m[name] = fi.Size()
		}
	}
	return m
}

func (c *tinodeCluster) start(n *clusterNode) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cmd != nil {
		return fmt.Errorf("node %s already runs", n.Name)
	}
	logf, err := os.OpenFile(n.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	fi, _ := logf.Stat()
	cmd := serverCmd(c.build, c.dir, c.conf)
	cmd.Args = append(cmd.Args, "-cluster_self", n.Name, "-listen", n.Host())
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("node %s: %w", n.Name, err)
	}
	n.cmd, n.logf, n.started = cmd, logf, fi.Size()
	return nil
}

// stop stops the node's process: SIGINT, then SIGKILL after 15 s.
func (n *clusterNode) stop() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cmd == nil {
		return
	}
	stopProcess(n.cmd.Process, 15*time.Second)
	n.logf.Close()
	n.cmd, n.logf = nil, nil
}

var (
	leaderRe = regexp.MustCompile(`elected self as a new leader|cluster: leader '[^']*' elected|cluster: leader set to`)
	rehashRe = regexp.MustCompile(`cluster: (?:initiating failover rehash for nodes|rehashing at a request of \S+) \[([^\]]*)\]`)
)

// logLine is a line of a node's log and its offset in the file.
type logLine struct {
	off  int64
	text string
}

// logSince returns the lines of the node's log from offset off.
func (n *clusterNode) logSince(off int64) []logLine {
	f, err := os.Open(n.log)
	if err != nil {
		return nil
	}
	defer f.Close()
	if _, err := f.Seek(off, 0); err != nil {
		return nil
	}
	var lines []logLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines = append(lines, logLine{off, sc.Text()})
		off += int64(len(sc.Bytes())) + 1
	}
	return lines
}

// ring returns the node's ring as its running process's log tells it:
// the nodes of its last rehash, or every node when it has not rehashed
// (Tinode starts with a ring of every configured node); whether it has
// heard of a leader; and how many times it rehashed after offset mark.
func (c *tinodeCluster) ring(n *clusterNode, mark int64) (ring []string, leader bool, rehashes int) {
	for _, n := range c.Nodes {
		ring = append(ring, n.Name)
	}
	n.mu.Lock()
	started := n.started
	n.mu.Unlock()
	for _, l := range n.logSince(started) {
		if leaderRe.MatchString(l.text) {
			leader = true
		}
		if m := rehashRe.FindStringSubmatch(l.text); m != nil {
			ring = strings.Fields(m[1])
			if l.off >= mark {
				rehashes++
			}
		}
	}
	sort.Strings(ring)
	return ring, leader, rehashes
}

// settle waits (at most 60 s) until the nodes named live serve clients,
// each has heard of a leader, and each one's ring is exactly live; a node
// with a mark (it ran before the change) must have rehashed once after
// it, and not more (a ring of every node is also the ring of a node that
// has not yet noticed that one came back). Then it waits three heartbeats
// and checks that nothing changed.
func (c *tinodeCluster) settle(live []string, marks map[string]int64) error {
	want := slices.Clone(live)
	sort.Strings(want)
	deadline := time.Now().Add(60 * time.Second)
	for _, name := range live {
		if err := waitPort(c.Node(name).Port, time.Until(deadline)); err != nil {
			return fmt.Errorf("node %s: %w", name, err)
		}
	}
	check := func() error {
		for _, name := range live {
			mark, changed := marks[name]
			ring, leader, rehashes := c.ring(c.Node(name), mark)
			switch {
			case !leader:
				return fmt.Errorf("node %s has no leader", name)
			case !slices.Equal(ring, want):
				return fmt.Errorf("node %s's ring is %v, not %v", name, ring, want)
			case changed && rehashes == 0:
				return fmt.Errorf("node %s has not rehashed", name)
			case changed && rehashes > 1:
				return fmt.Errorf("node %s rehashed %d times", name, rehashes)
			}
		}
		return nil
	}
	for {
		err := check()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cluster not settled after 60 s: %w", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	before := c.Rehashes()
	time.Sleep(300 * time.Millisecond)
	if err := check(); err != nil {
		return fmt.Errorf("cluster changed after settling: %w", err)
	}
	if after := c.Rehashes(); after != before {
		return fmt.Errorf("a node rehashed after the cluster settled (%d rehashes, then %d)", before, after)
	}
	return nil
}

// Rehashes counts the rehash lines in every node's whole log (every
// process it ran): how often a node changed its ring.
func (c *tinodeCluster) Rehashes() int {
	count := 0
	for _, n := range c.Nodes {
		out, _ := os.ReadFile(n.log)
		count += len(rehashRe.FindAll(out, -1))
	}
	return count
}

// Where tells which running nodes have topic (Tinode's expanded name:
// grp..., usr... for a user's 'me', fnd... for its 'fnd') loaded: the
// node hosting it (master) and the nodes holding a proxy of it, from each
// node's status page.
func (c *tinodeCluster) Where(topic string) (master, proxies []string, err error) {
	for _, name := range c.running() {
		n := c.Node(name)
		res, err := http.Get("http://" + n.Host() + "/status")
		if err != nil {
			return nil, nil, fmt.Errorf("node %s status: %w", name, err)
		}
		var st struct {
			Topics []struct {
				Topic   string `json:"topic"`
				IsProxy bool   `json:"is_proxy"`
			} `json:"topics"`
		}
		err = json.NewDecoder(res.Body).Decode(&st)
		res.Body.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("node %s status: %w", name, err)
		}
		for _, tp := range st.Topics {
			if tp.Topic != topic {
				continue
			}
			if tp.IsProxy {
				proxies = append(proxies, name)
			} else {
				master = append(master, name)
			}
		}
	}
	return master, proxies, nil
}

// waitPort waits until something listens on port, at most max.
func waitPort(port int, max time.Duration) error {
	deadline := time.Now().Add(max)
	for {
		res, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/status", port))
		if err == nil {
			res.Body.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("not serving: " + err.Error())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
