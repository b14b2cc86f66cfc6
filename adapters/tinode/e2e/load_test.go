//go:build e2e && load

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/singletable/singletable/adapters/tinode/e2e/tinodemeter"
	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// The load test (issue 43 part 4): real load through Tinode's real server.
// Go websocket clients (wsclient_test.go) create LOAD_SUBSCRIBERS accounts
// (100), each with a live session attached to one group topic, and
// LOAD_SENDERS of those sessions (10) publish into the topic for
// LOAD_SECONDS (20) as fast as the server takes it: each sender waits for
// its {ctrl 202} before the next {pub}, and no sender runs more than
// LOAD_WINDOW (64) messages ahead of the slowest subscriber, so that
// Tinode's per-session send queue (128) never overflows (Tinode would
// drop the session). Every session counts the {data} it receives.
//
// The server is bin/tinode-metered (build.sh with TINODE_METERED=1): the
// adapter, on the DynamoDB client it sends with inside Tinode's process,
// carries a capacity.Meter and counts its calls (package tinodemeter).
// The meters are reset after the set-up, so they hold the load alone.
//
// Checks: the acknowledged SeqIds are 1..N, each once; the table holds
// exactly messages 1..N (read back through query/tinode), each with the
// content its {ctrl} acknowledged, and the topic's SeqId reaches N; every
// session received each SeqId once, with that content. Measured: messages/s,
// the adapter's calls per message, and every key's and item's units per
// message scaled to 1,000 messages/s, which must stay under 800 WCU/s and
// 2,400 RCU/s (SCALE.md).
//
// The adapter runs its defaults (message_shards 4, coalesce_ms 1000) with
// write_through_per_s 0: the topic is coalesced from the first message,
// as a topic above its write-through budget (100 messages/s by default)
// is, so the run measures the path a topic at 1,000 messages/s takes,
// at the rate this machine reaches. LOAD_ADAPTER_CONFIG (JSON) replaces
// that block ('{}': the adapter's defaults, which write a topic below
// its budget through).
//
// Scaling to 1,000 messages/s: a message's own write (its item, SK
// MSG#..., in TOPIC#{name}#{n}) scales with the messages; the coalesced
// writes (the topic item, the senders' subscriptions, their GSI1 entries,
// the layout read) come once per coalesce_ms period for the topic and for
// each sender that sent in it, whatever the rate. So a key's load at
// 1,000 messages/s is its message units per message x 1,000, plus its
// other units per second as measured, times f = (distinct senders per
// period at 1,000 messages/s) / (distinct senders per period measured):
// min(senders, 1,000 x period) / measured, at least 1 (f errs high: it
// also multiplies the topic item's one write a period). With the default
// 10 senders each sends in every period here, and f = 1. A run written
// through (write_through_per_s above the rate) is per message throughout:
// its figures hold at the rate reached, and the 1,000 messages/s check is
// the coalesced run's.
//
// LOAD_METER=0 leaves the capacity meter off (calls are still counted and
// timed) to see the rate without its before-image reads.
//
// LOAD_BACKEND=postgres runs TestLoad_Cluster on Tinode's own PostgreSQL
// adapter (startPostgres) instead: deliveries are checked and logged, nothing
// is metered or read back. LOAD_PG_DELAY_MS holds each chunk Tinode sends
// to PostgreSQL that long (delayedPostgres), for a store about as slow as
// DynamoDB Local on a loaded machine.
//
// Run by hand (README "Load"):
//
//	cd adapters/tinode && nice go test -tags 'e2e load' -count=1 -run TestLoad -timeout 20m -v ./e2e

// loadParams are the knobs of a load run.
type loadParams struct {
	subscribers, senders, window int
	seconds                      float64
	adapterCfg                   map[string]any
	// subParallel is how many sessions subscribe to the topic at once
	// (LOAD_SUB_PARALLEL, 8).
	subParallel int
	// capacity is false with LOAD_METER=0: the adapter's calls are still
	// counted and timed, but no capacity.Meter reads each write's
	// before-image (a request more per write, on the adapter's time).
	capacity bool
	// backend is the store TestLoad_Cluster runs on (LOAD_BACKEND):
	// "dynamodb" (the metered adapter) or "postgres" (Tinode's own
	// PostgreSQL adapter on startPostgres, to tell Tinode's behaviour from
	// the adapter's: deliveries only, no meter, no read-back of the table).
	backend string
	// onTopic, when set, is told the topic's name once it exists.
	onTopic func(topic string)
}

func loadParamsFromEnv(t *testing.T) loadParams {
	t.Helper()
	p := loadParams{subscribers: 100, senders: 10, window: 64, seconds: 20, subParallel: 8,
		adapterCfg: map[string]any{"write_through_per_s": 0}, capacity: os.Getenv("LOAD_METER") != "0", backend: "dynamodb"}
	switch b := os.Getenv("LOAD_BACKEND"); b {
	case "", "dynamodb":
	case "postgres":
		p.backend = b
	default:
		t.Fatalf("LOAD_BACKEND=%q: want dynamodb or postgres", b)
	}
	num := func(env string, dst *int) {
		if v := os.Getenv(env); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				t.Fatalf("%s=%q: want a positive integer", env, v)
			}
			*dst = n
		}
	}
	num("LOAD_SUBSCRIBERS", &p.subscribers)
	num("LOAD_SENDERS", &p.senders)
	num("LOAD_WINDOW", &p.window)
	num("LOAD_SUB_PARALLEL", &p.subParallel)
	if v := os.Getenv("LOAD_SECONDS"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 {
			t.Fatalf("LOAD_SECONDS=%q: want a positive number", v)
		}
		p.seconds = f
	}
	if v := os.Getenv("LOAD_ADAPTER_CONFIG"); v != "" {
		p.adapterCfg = map[string]any{}
		if err := json.Unmarshal([]byte(v), &p.adapterCfg); err != nil {
			t.Fatalf("LOAD_ADAPTER_CONFIG: %v", err)
		}
	}
	if p.senders > p.subscribers {
		t.Fatalf("%d senders, but only %d subscribers", p.senders, p.subscribers)
	}
	return p
}

// loadSetUp builds Tinode with the metered adapter (build.sh,
// TINODE_METERED=1) and returns a build directory whose bin/tinode is the
// metered server (for serverCmd and startCluster) and the real build.
func loadSetUp(t *testing.T) (meteredBuild, build string) {
	t.Helper()
	t.Setenv("TINODE_METERED", "1")
	here, build := setUp(t)
	fresh := func() bool {
		m, err1 := os.Stat(filepath.Join(build, "bin", "tinode-metered"))
		s, err2 := os.Stat(filepath.Join(build, "bin", "tinode"))
		return err1 == nil && err2 == nil && !m.ModTime().Before(s.ModTime())
	}
	if !fresh() { // another test of this binary built first, without the metered server
		runCmd(t, here, "./build.sh")
	}
	meteredBuild = t.TempDir()
	if err := os.MkdirAll(filepath.Join(meteredBuild, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(build, "bin", "tinode-metered"), filepath.Join(meteredBuild, "bin", "tinode")); err != nil {
		t.Fatal(err)
	}
	return meteredBuild, build
}

// loadTable initialises the table name with tinode-db (the plain
// adapter) and returns the adapter block the metered server runs with
// and a store reading the table directly.
func loadTable(t *testing.T, build, dir, name string, p loadParams) (map[string]any, *tinode.Store) {
	t.Helper()
	endpoint := tabletest.Endpoint(t)
	cfg := map[string]any{"table": name, "endpoint": endpoint, "region": "us-east-1", "create_table": true}
	for k, v := range p.adapterCfg {
		cfg[k] = v
	}
	if !p.capacity {
		cfg["no_capacity"] = true
	}
	tbl := table.New(tabletest.NewClient(t), table.NewSchema(name))
	t.Cleanup(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = tbl.Delete(c)
	})
	dbDir := filepath.Join(dir, "db")
	if err := os.MkdirAll(dbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	cf := writeConfig(t, dbDir, serverConfig(freePort(t), "dynamodb", cfg))
	runCmd(t, filepath.Join(build, "chat", "tinode-db"), filepath.Join(build, "bin", "tinode-db"), "-config", cf)
	return cfg, tinode.New(tbl, func(o *tinode.Options) { o.SharedTags = true; o.MessageShards = 1; o.ServerNumbered = true })
}

// waitQuiet waits until none of the logs has grown for quiet (at most
// max) and returns how long it waited.
func waitQuiet(logs []string, quiet, max time.Duration) time.Duration {
	t0 := time.Now()
	size := func() int64 {
		var n int64
		for _, l := range logs {
			if fi, err := os.Stat(l); err == nil {
				n += fi.Size()
			}
		}
		return n
	}
	last, since := size(), time.Now()
	for time.Since(since) < quiet && time.Since(t0) < max {
		time.Sleep(100 * time.Millisecond)
		if n := size(); n != last {
			last, since = n, time.Now()
		}
	}
	return time.Since(t0)
}

// meterRe finds the metered adapter's address in a server's log.
var meterRe = regexp.MustCompile(`dynamodb_metered: meter on (http://\S+)`)

// meterURLs waits for the meter address in each log (one per server
// process started) and returns them.
func meterURLs(t *testing.T, logs ...string) []string {
	t.Helper()
	var urls []string
	deadline := time.Now().Add(60 * time.Second)
	for _, l := range logs {
		for {
			b, _ := os.ReadFile(l)
			if m := meterRe.FindAllSubmatch(b, -1); len(m) > 0 {
				urls = append(urls, string(m[len(m)-1][1]))
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no meter address in %s after 60 s", l)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return urls
}

func meterReset(t *testing.T, urls []string) {
	t.Helper()
	for _, u := range urls {
		res, err := http.Post(u+"/reset", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
}

// meterReports returns each server's report.
func meterReports(t *testing.T, urls []string) []tinodemeter.Report {
	t.Helper()
	var out []tinodemeter.Report
	for _, u := range urls {
		res, err := http.Get(u + "/meter")
		if err != nil {
			t.Fatal(err)
		}
		var r tinodemeter.Report
		err = json.NewDecoder(res.Body).Decode(&r)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// subscriber is one account's session attached to the topic, and what it
// received.
type subscriber struct {
	sess     *tnSession
	node     int // the server its session is on
	mu       sync.Mutex
	got      []int32        // got[seq]: how many times seq was received
	content  map[int]string // seq -> content, as received first
	bad      []string       // data of another topic
	received atomic.Int64   // {data} messages received
	lastAt   atomic.Int64   // when the last {data} arrived (UnixNano)
	retried  int            // {sub} answered 503 and sent again
}

// onData records d, a {data} the session received; topic is the load's.
func (s *subscriber) onData(topic string, d tnData) {
	s.mu.Lock()
	if d.Topic != topic {
		s.bad = append(s.bad, fmt.Sprintf("%s:%d", d.Topic, d.SeqID))
		s.mu.Unlock()
		return
	}
	for len(s.got) <= d.SeqID {
		s.got = append(s.got, 0)
	}
	s.got[d.SeqID]++
	if _, ok := s.content[d.SeqID]; !ok {
		s.content[d.SeqID] = d.Content
	}
	s.mu.Unlock()
	s.received.Add(1)
	s.lastAt.Store(time.Now().UnixNano())
}

// lagging describes the sessions that received the fewest messages: how
// many, on which servers, and how many of them had their {sub} retried.
func lagging(subs []*subscriber) string {
	low := int64(math.MaxInt64)
	for _, s := range subs {
		low = min(low, s.received.Load())
	}
	byNode, retried, idx := map[int]int{}, 0, []int{}
	for i, s := range subs {
		if s.received.Load() == low {
			byNode[s.node]++
			idx = append(idx, i)
			if s.retried > 0 {
				retried++
			}
		}
	}
	return fmt.Sprintf("%d sessions at %d received (by server %v; %d of them subscribed after a 503; sessions %v)", len(idx), low, byNode, retried, idx)
}

// ack is one acknowledged message: its sender and when.
type ack struct {
	sender int
	at     time.Time
}

// loadRun is one run's outcome.
type loadRun struct {
	n        int           // messages acknowledged
	elapsed  time.Duration // first {pub} to last {ctrl}
	deliver  time.Duration // first {pub} to the last {data} received
	byAck    map[int]string
	acks     []ack // every acknowledgement, in the order received
	topic    string
	reports  []tinodemeter.Report
	subs     []*subscriber
	setup    time.Duration
	maxAhead int64
	start    time.Time
	// serverCPU and testCPU are the CPU time the servers and this test
	// process (the clients and DynamoDB Local's clients) took during the
	// load; loadAvg the machine's load average before and after it.
	serverCPU, testCPU time.Duration
	loadAvg            [2]string
}

// procCPU returns the CPU time (user and system) the processes pids took
// so far, from /proc (0 where it cannot be read).
func procCPU(pids []int) time.Duration {
	var ticks int64
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
		if len(f) > 12 {
			u, _ := strconv.ParseInt(f[11], 10, 64)
			s, _ := strconv.ParseInt(f[12], 10, 64)
			ticks += u + s
		}
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}

// loadAvg returns the machine's 1-minute load average.
func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "?"
}

// runLoad creates the accounts on the servers at hosts (session i on
// hosts[i % len(hosts)]), the topic (created by subscriber 0) and its
// subscriptions, resets the meters at urls, sends for p.seconds and waits
// for every delivery, then reads the meters.
func runLoad(t *testing.T, hosts, urls []string, pids []int, logs []string, p loadParams, settle time.Duration) *loadRun {
	t.Helper()
	t0 := time.Now()
	run := strconv.FormatInt(time.Now().UnixNano()%1e9, 36)
	r := &loadRun{byAck: map[int]string{}}
	r.subs = make([]*subscriber, p.subscribers)
	var topic atomic.Value
	topic.Store("")
	parallel := func(n, width int, fn func(i int) error) {
		t.Helper()
		var wg sync.WaitGroup
		errs := make(chan error, n)
		sem := make(chan struct{}, width)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				if err := fn(i); err != nil {
					errs <- fmt.Errorf("session %d: %w", i, err)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
	// The accounts, each logged in on its own session.
	parallel(p.subscribers, 8, func(i int) error {
		s := &subscriber{content: map[int]string{}, node: i % len(hosts)}
		sess, err := openSession(hosts[s.node], func(d tnData) { s.onData(topic.Load().(string), d) })
		if err != nil {
			return err
		}
		t.Cleanup(sess.close)
		s.sess = sess
		r.subs[i] = s
		return sess.createAccount(fmt.Sprintf("load%s%03d", run, i), "secret123", fmt.Sprintf("Load %d", i))
	})
	// The topic, created by subscriber 0; everyone may read and write.
	c, err := r.subs[0].sess.call("sub", map[string]any{"topic": "new", "set": map[string]any{
		"desc": map[string]any{"defacs": map[string]any{"auth": "JRWPS", "anon": "N"}, "public": map[string]any{"fn": "load " + run}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	r.topic = c.Topic
	topic.Store(c.Topic)
	if p.onTopic != nil {
		p.onTopic(c.Topic)
	}
	parallel(p.subscribers-1, p.subParallel, func(i int) error {
		// On a cluster a node answers 503 "locked" while the proxy of the
		// topic it is starting is not ready: a client subscribes again.
		for try := 0; ; try++ {
			c, err := r.subs[i+1].sess.call("sub", map[string]any{"topic": r.topic})
			if err == nil || c.Code != 503 || try == 20 {
				return err
			}
			r.subs[i+1].retried++
			time.Sleep(250 * time.Millisecond)
		}
	})
	r.setup = time.Since(t0)
	t.Logf("%d accounts on %d server(s), each session attached to %s, in %v", p.subscribers, len(hosts), r.topic, r.setup.Round(time.Millisecond))
	// The servers finish the set-up (a cluster's master works through the
	// proxies' joins for seconds after the last {ctrl}: a {pub} routed to
	// it while its queue is full is dropped unanswered, hub.go "topic's
	// broadcast queue is full"); what coalesce_ms kept lands before the reset.
	quiet := waitQuiet(logs, 3*time.Second, 90*time.Second)
	time.Sleep(settle)
	t.Logf("servers quiet %v after the set-up", quiet.Round(time.Millisecond))
	meterReset(t, urls)

	// The load.
	load0, cpu0, self0 := loadAvg(), procCPU(pids), tabletest.SelfCPU()
	pad := strings.Repeat("x", 600)
	minReceived := func() int64 {
		m := int64(math.MaxInt64)
		for _, s := range r.subs {
			m = min(m, s.received.Load())
		}
		return m
	}
	var sent atomic.Int64
	var mu sync.Mutex
	var sendErr error
	start := time.Now()
	stop := start.Add(time.Duration(p.seconds * float64(time.Second)))
	var lastAck atomic.Int64
	var aborted atomic.Bool
	fail := func(err error) {
		mu.Lock()
		if sendErr == nil {
			sendErr = err
		}
		mu.Unlock()
		aborted.Store(true)
	}
	var wg sync.WaitGroup
	for k := range p.senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := r.subs[k*p.subscribers/p.senders] // senders spread over the sessions (and nodes)
			for j := 0; time.Now().Before(stop) && !aborted.Load(); j++ {
				blocked := time.Now()
				for sent.Load()-minReceived() >= int64(p.window) {
					if aborted.Load() {
						return
					}
					if time.Since(blocked) > time.Minute {
						fail(fmt.Errorf("sender %d: the slowest session received nothing for a minute (%d sent, %d received): %s", k, sent.Load(), minReceived(), lagging(r.subs)))
						return
					}
					time.Sleep(200 * time.Microsecond)
				}
				ahead := sent.Add(1) - minReceived()
				mu.Lock()
				r.maxAhead = max(r.maxAhead, ahead)
				mu.Unlock()
				content := fmt.Sprintf("s%03d-%06d %s", k, j, pad)
				c, err := s.sess.call("pub", map[string]any{"topic": r.topic, "content": content})
				if err == nil && c.Code != 202 {
					err = fmt.Errorf("{pub}: %d %s", c.Code, c.Text)
				}
				seq := 0
				if err == nil {
					f, _ := c.Params["seq"].(float64)
					seq = int(f)
					if seq <= 0 {
						err = fmt.Errorf("{pub}: no seq in %+v", c)
					}
				}
				if err != nil {
					fail(fmt.Errorf("sender %d message %d: %w", k, j, err))
					return
				}
				mu.Lock()
				if prev, dup := r.byAck[seq]; dup {
					sendErr = fmt.Errorf("SeqId %d acknowledged twice: %q and %q", seq, prev[:12], content[:12])
				}
				r.byAck[seq] = content
				r.acks = append(r.acks, ack{k, time.Now()})
				mu.Unlock()
				lastAck.Store(time.Now().UnixNano())
			}
		}()
	}
	wg.Wait()
	if sendErr != nil {
		t.Fatal(sendErr)
	}
	r.n = len(r.byAck)
	r.elapsed = time.Unix(0, lastAck.Load()).Sub(start)
	r.start = start
	// Every session receives every message.
	want := int64(r.n)
	deadline := time.Now().Add(60 * time.Second)
	for minReceived() < want && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	var last int64
	for _, s := range r.subs {
		last = max(last, s.lastAt.Load())
	}
	r.deliver = time.Unix(0, last).Sub(start)
	r.serverCPU, r.testCPU = procCPU(pids)-cpu0, tabletest.SelfCPU()-self0
	r.loadAvg = [2]string{load0, loadAvg()}
	time.Sleep(settle) // the last coalesced writes land
	r.reports = meterReports(t, urls)
	return r
}

// checkLoad holds the run to its checks and logs what it measured.
func checkLoad(t *testing.T, name string, st *tinode.Store, r *loadRun, p loadParams) {
	t.Helper()
	n := r.n
	if n == 0 {
		t.Fatal("no message acknowledged")
	}
	// Acknowledged: SeqIds 1..n, each once (duplicates fail in runLoad).
	for seq := 1; seq <= n; seq++ {
		if _, ok := r.byAck[seq]; !ok {
			t.Fatalf("SeqId %d was never acknowledged (%d acknowledged, up to %d)", seq, n, slices.Max(mapKeys(r.byAck)))
		}
	}
	if st != nil {
		checkStored(t, st, r)
	}
	checkDelivered(t, name, r, p)
}

// checkStored checks the table: exactly messages 1..n, each with its
// acknowledged content, and the topic's SeqId at n.
func checkStored(t *testing.T, st *tinode.Store, r *loadRun) {
	t.Helper()
	ctx := context.Background()
	n := r.n
	// Stored: exactly 1..n in order, each with its acknowledged content.
	want, dupContent := 1, map[string]int{}
	for m, err := range table.Every(ctx, st.Messages.History, tinode.HistoryFilter{Topic: tn.TopicName(r.topic), IncludeDeleted: true}, table.Asc(), table.Limit(1000)) {
		if err != nil {
			t.Fatal(err)
		}
		if m.SeqId != want {
			t.Fatalf("stored SeqId %d where %d was due (ascending, gapless, once each)", m.SeqId, want)
		}
		var content string
		if err := json.Unmarshal(m.Content, &content); err != nil || content != r.byAck[m.SeqId] {
			t.Fatalf("stored SeqId %d holds %.20q, its {ctrl} acknowledged %.20q (%v)", m.SeqId, m.Content, r.byAck[m.SeqId], err)
		}
		if prev, ok := dupContent[content]; ok {
			t.Fatalf("message %.12q stored twice: SeqIds %d and %d", content, prev, m.SeqId)
		}
		dupContent[content] = m.SeqId
		want++
	}
	if want-1 != n {
		t.Fatalf("%d messages stored, %d acknowledged", want-1, n)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		tp, err := st.Topics.ByName.Get(ctx, tn.Topic{Id: tn.TopicName(r.topic)})
		if err == nil && tp.SeqId == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stored topic SeqId %d (%v) 30 s after the load; %d messages", tp.SeqId, err, n)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// checkDelivered checks that every session received each SeqId once, with
// its content, and logs what the run measured.
func checkDelivered(t *testing.T, name string, r *loadRun, p loadParams) {
	t.Helper()
	n := r.n
	// Delivered: every session each SeqId once, with its content.
	missing, dups := 0, 0
	for i, s := range r.subs {
		s.mu.Lock()
		if len(s.bad) > 0 {
			t.Errorf("session %d received data of other topics: %v", i, s.bad)
		}
		for seq := 1; seq <= n; seq++ {
			c := int32(0)
			if seq < len(s.got) {
				c = s.got[seq]
			}
			switch {
			case c == 0:
				missing++
				if missing <= 5 {
					t.Errorf("session %d never received SeqId %d", i, seq)
				}
			case c > 1:
				dups++
				if dups <= 5 {
					t.Errorf("session %d received SeqId %d %d times", i, seq, c)
				}
			case s.content[seq] != r.byAck[seq]:
				t.Errorf("session %d received SeqId %d as %.12q, stored %.12q", i, seq, s.content[seq], r.byAck[seq])
			}
		}
		if len(s.got) > n+1 {
			t.Errorf("session %d received SeqIds up to %d, only %d were sent", i, len(s.got)-1, n)
		}
		s.mu.Unlock()
	}

	// Measured.
	calls, callTime := map[string]int{}, map[string]time.Duration{}
	requests := 0
	keys := map[capacity.Partition]capacity.Usage{}
	shapes := map[capacity.Partition]string{}
	msgUnits := map[string]capacity.Usage{} // message items' units by table partition key
	items := map[capacity.ItemRef]capacity.Usage{}
	for _, rep := range r.reports {
		requests += rep.Requests
		for op, c := range rep.Calls {
			calls[op] += c
			callTime[op] += rep.CallTime[op]
		}
		for _, k := range rep.Keys {
			keys[k.Partition] = add(keys[k.Partition], k.Usage)
			shapes[k.Partition] = k.Shape
		}
		for _, it := range rep.Items {
			items[it.Item] = add(items[it.Item], it.Usage)
		}
	}
	msgSK, _, _ := strings.Cut(tn.MessageKeys.SK, "{") // "MSG#": a message's declared sort key
	for it, u := range items {
		if strings.HasPrefix(it.SK, msgSK) {
			msgUnits[it.PK] = add(msgUnits[it.PK], u)
		}
	}
	totalCalls := 0
	var ops []string
	for op, c := range calls {
		totalCalls += c
		ops = append(ops, fmt.Sprintf("%s %.3f (%v each)", op, float64(c)/float64(n), (callTime[op]/time.Duration(c)).Round(10*time.Microsecond)))
	}
	slices.Sort(ops)
	secs := r.elapsed.Seconds()
	if p.backend == "postgres" {
		t.Logf("%s: %d messages in %v: %.1f messages/s acknowledged; every session had all by %v; missing deliveries %d, duplicate deliveries %d (Tinode's PostgreSQL adapter: not metered)",
			name, n, r.elapsed.Round(time.Millisecond), float64(n)/secs, r.deliver.Round(time.Millisecond), missing, dups)
		return
	}
	t.Logf("%s: %d messages in %v: %.1f messages/s acknowledged; every session had all by %v (%.0f deliveries/s over %d sessions); at most %d messages ahead of the slowest session",
		name, n, r.elapsed.Round(time.Millisecond), float64(n)/secs, r.deliver.Round(time.Millisecond), float64(n*len(r.subs))/r.deliver.Seconds(), len(r.subs), r.maxAhead)
	t.Logf("%s: CPU during the load: servers %v, test process (clients) %v, over %v wall on %d cores; load average %s before, %s after",
		name, r.serverCPU.Round(time.Millisecond), r.testCPU.Round(time.Millisecond), r.deliver.Round(time.Millisecond), runtime.NumCPU(), r.loadAvg[0], r.loadAvg[1])
	t.Logf("%s: adapter calls per message %.3f (%s); duplicates 0, gaps 0, missing deliveries %d, duplicate deliveries %d",
		name, float64(totalCalls)/float64(n), strings.Join(ops, ", "), missing, dups)
	if !p.capacity {
		t.Logf("%s: LOAD_METER=0: no capacity.Meter on the adapter's client in this run", name)
		return
	}
	t.Logf("%s: metered requests per message %.3f", name, float64(requests)/float64(n))

	// The model of 1,000 messages/s (package comment).
	period := coalescePeriod(p)
	measured := distinctPerPeriod(r, period)
	at1000 := min(float64(p.senders), 1000*period.Seconds())
	f := max(1, at1000/measured)
	scaled := func(k capacity.Partition, u capacity.Usage) capacity.Usage {
		var m capacity.Usage
		if k.Index == "" {
			m = msgUnits[k.Key]
		}
		other := capacity.Usage{Read: u.Read - m.Read, Write: u.Write - m.Write}
		return add(m.Scaled(1000/float64(n)), other.Scaled(f/secs))
	}
	hot := coalescedFromFirst(p)
	t.Logf("%s: distinct senders per %v period: %.1f measured, %.0f at 1,000 messages/s: f = %.2f; coalesced from the first message: %v",
		name, period, measured, at1000, f, hot)
	var top []string
	for i, kv := range sortedByLoad(keys) {
		s := scaled(kv.k, kv.u)
		if i < 6 {
			line := fmt.Sprintf("%s (%s): %s per message, %s/s at %.1f messages/s", kv.k, shapes[kv.k], kv.u.Scaled(1/float64(n)), kv.u.Scaled(1/secs), float64(n)/secs)
			if hot {
				line += fmt.Sprintf(", %s/s at 1,000 messages/s", s)
			}
			top = append(top, line)
		}
		if hot && (s.Write > capacity.TargetWrite || s.Read > capacity.TargetRead) {
			t.Errorf("%s: key %s (%s) at 1,000 messages/s: %s/s, over %v WCU/s or %v RCU/s", name, kv.k, shapes[kv.k], s, capacity.TargetWrite, capacity.TargetRead)
		}
	}
	var hotAt1000 capacity.Usage
	var hotKey capacity.Partition
	for k, u := range keys {
		if s := scaled(k, u); s.Load() > hotAt1000.Load() {
			hotAt1000, hotKey = s, k
		}
	}
	if hot {
		t.Logf("%s: hottest key at 1,000 messages/s: %s (%s) %s/s", name, hotKey, shapes[hotKey], hotAt1000)
	}
	t.Logf("%s: hottest keys as measured:\n\t%s", name, strings.Join(top, "\n\t"))
	for i, kv := range sortedByLoad(items) {
		var s capacity.Usage
		if strings.HasPrefix(kv.k.SK, msgSK) {
			s = kv.u // a message is written once, at any rate
		} else {
			s = kv.u.Scaled(1 / secs) // an item coalesced: at most once a period
		}
		if i == 0 {
			t.Logf("%s: hottest item %s: %s in the run, %s/s at %.1f messages/s", name, kv.k, kv.u, kv.u.Scaled(1/secs), float64(n)/secs)
		}
		if hot && s.Write > capacity.TargetWrite {
			t.Errorf("%s: item %s at 1,000 messages/s: %s/s, over %v WCU/s", name, kv.k, s, capacity.TargetWrite)
		}
	}
	if !hot {
		wt, ok := p.adapterCfg["write_through_per_s"]
		if !ok {
			wt = "default"
		}
		t.Logf("%s: the adapter may write this topic through at this rate (write_through_per_s %v): the figures hold at the rate reached, the 1,000 messages/s figures are the coalesced run's", name, wt)
	}
}

func add(a, b capacity.Usage) capacity.Usage {
	return capacity.Usage{Read: a.Read + b.Read, Write: a.Write + b.Write}
}

// distinctPerPeriod returns how many distinct senders sent within each
// whole period of the load, on average.
func distinctPerPeriod(r *loadRun, period time.Duration) float64 {
	if period <= 0 {
		return 1
	}
	whole := int(r.elapsed / period)
	if whole == 0 {
		whole = 1
	}
	seen := make([]map[int]bool, whole)
	for _, a := range r.acks {
		i := int(a.at.Sub(r.start) / period)
		if i >= whole {
			continue
		}
		if seen[i] == nil {
			seen[i] = map[int]bool{}
		}
		seen[i][a.sender] = true
	}
	total := 0
	for _, s := range seen {
		total += len(s)
	}
	return max(1, float64(total)/float64(whole))
}

type keyLoad[K comparable] struct {
	k K
	u capacity.Usage
}

func sortedByLoad[K comparable](m map[K]capacity.Usage) []keyLoad[K] {
	var out []keyLoad[K]
	for k, u := range m {
		out = append(out, keyLoad[K]{k, u})
	}
	slices.SortFunc(out, func(a, b keyLoad[K]) int {
		switch la, lb := a.u.Load(), b.u.Load(); {
		case la > lb:
			return -1
		case la < lb:
			return 1
		}
		return strings.Compare(fmt.Sprint(a.k), fmt.Sprint(b.k))
	})
	return out
}

func mapKeys(m map[int]string) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	return out
}

// settleFor is how long the load waits for coalesce_ms's writes: twice
// the period, at least a second.
func settleFor(p loadParams) time.Duration {
	return max(time.Second, 2*coalescePeriod(p))
}

// coalescePeriod is the adapter's coalesce_ms (default 1000).
func coalescePeriod(p loadParams) time.Duration {
	ms := 1000.0
	switch v := p.adapterCfg["coalesce_ms"].(type) {
	case float64:
		ms = v
	case int:
		ms = float64(v)
	}
	return time.Duration(ms) * time.Millisecond
}

// coalescedFromFirst reports whether the adapter coalesces the topic from
// its first message (write_through_per_s 0 and coalesce_ms above 0).
func coalescedFromFirst(p loadParams) bool {
	wt, ok := p.adapterCfg["write_through_per_s"]
	return ok && fmt.Sprint(wt) == "0" && coalescePeriod(p) > 0
}

// TestLoad_OneNode: one Tinode server (metered) on DynamoDB Local, the
// load of the package comment: TN-12 (each message saved once, SeqIds
// 1..N) and TN-13 (History reads them back, gapless) under load.
func TestLoad_OneNode(t *testing.T) {
	p := loadParamsFromEnv(t)
	metered, build := loadSetUp(t)
	dir := t.TempDir()
	name := tabletest.TableName("tinode", "load1")
	cfg, st := loadTable(t, build, dir, name, p)
	port := freePort(t)
	cf := writeConfig(t, dir, serverConfig(port, tinodemeter.Name, cfg))
	srv := serverCmd(metered, dir, cf)
	logPath := filepath.Join(dir, "server.log")
	logf, _ := os.Create(logPath)
	srv.Stdout, srv.Stderr = logf, logf
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stopProcess(srv.Process, 15*time.Second)
		logf.Close()
		if t.Failed() {
			out, _ := os.ReadFile(logPath)
			if len(out) > 12000 {
				out = out[len(out)-12000:]
			}
			t.Logf("server log (tail):\n%s", out)
		}
	})
	waitListening(t, port, 60*time.Second)
	urls := meterURLs(t, logPath)
	t.Logf("adapter config %v; %d subscribers, %d senders, window %d, %v s", cfg, p.subscribers, p.senders, p.window, p.seconds)
	r := runLoad(t, []string{fmt.Sprintf("127.0.0.1:%d", port)}, urls, []int{srv.Process.Pid}, []string{logPath}, p, settleFor(p))
	checkLoad(t, "one node", st, r, p)
}

// delayedPostgres puts a TCP relay in front of the PostgreSQL server of
// dsn that holds each chunk the client sends for delay before passing it
// on (LOAD_PG_DELAY_MS), so that each of Tinode's statements takes about as
// long as a call to DynamoDB Local on a loaded machine; it returns the DSN
// through the relay.
func delayedPostgres(t *testing.T, dsn string, delay time.Duration) string {
	t.Helper()
	m := regexp.MustCompile(`@(127\.0\.0\.1:\d+)/`).FindStringSubmatch(dsn)
	if m == nil {
		t.Fatalf("no 127.0.0.1 address in %s", dsn)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				s, err := net.Dial("tcp", m[1])
				if err != nil {
					c.Close()
					return
				}
				go func() { _, _ = io.Copy(c, s); c.Close() }()
				buf := make([]byte, 64<<10)
				for {
					n, err := c.Read(buf)
					if n > 0 {
						time.Sleep(delay)
						if _, werr := s.Write(buf[:n]); werr != nil {
							break
						}
					}
					if err != nil {
						break
					}
				}
				s.Close()
			}()
		}
	}()
	return strings.Replace(dsn, m[1], ln.Addr().String(), 1)
}

// TestLoad_Cluster: the same load on a Tinode cluster of three metered
// nodes (startCluster) on one table; sessions, and so senders, spread over
// the nodes round robin. The topic lives on one node (its master), whose
// adapter stores every message; the meters of all three are summed.
// TN-12 and TN-13 as in TestLoad_OneNode.
//
// Sessions subscribe one at a time here (LOAD_SUB_PARALLEL sets it): with
// 8 at once through the proxy nodes, some of the sessions on the two proxy
// nodes receive no {data} at all though their {sub} was answered 200,
// and the load stops at the window. That is
// Tinode's cluster, not the adapter: Tinode's PostgreSQL adapter does the
// same when its statements are as slow (LOAD_BACKEND=postgres
// LOAD_PG_DELAY_MS=20), and in each such run the topic's master logs "hub:
// topic's broadcast queue is full" while those sessions subscribe: the
// {pres what="acs"} through which a proxy topic learns a new subscriber's
// access is dropped, and the proxy then passes that user no {data}
// (README "Load").
func TestLoad_Cluster(t *testing.T) {
	if os.Getenv("LOAD_SUB_PARALLEL") == "" {
		t.Setenv("LOAD_SUB_PARALLEL", "1")
	}
	p := loadParamsFromEnv(t)
	var c *tinodeCluster
	var cfg map[string]any
	var st *tinode.Store
	dir := t.TempDir()
	if p.backend == "postgres" {
		here, build := setUp(t)
		dsn := startPostgres(t, here)
		if v := os.Getenv("LOAD_PG_DELAY_MS"); v != "" {
			ms, err := strconv.Atoi(v)
			if err != nil || ms <= 0 {
				t.Fatalf("LOAD_PG_DELAY_MS=%q: want a positive integer", v)
			}
			dsn = delayedPostgres(t, dsn, time.Duration(ms)*time.Millisecond)
		}
		cfg = map[string]any{"dsn": dsn}
		conf := serverConfig(freePort(t), "postgres", cfg)
		runCmd(t, filepath.Join(build, "chat", "tinode-db"), filepath.Join(build, "bin", "tinode-db"), "-config", writeConfig(t, dir, conf))
		c = startCluster(t, build, dir, conf, "one", "two", "three")
	} else {
		metered, build := loadSetUp(t)
		name := tabletest.TableName("tinode", "loadc")
		cfg, st = loadTable(t, build, dir, name, p)
		c = startCluster(t, metered, dir, serverConfig(0, tinodemeter.Name, cfg), "one", "two", "three")
	}
	var hosts, logs []string
	var pids []int
	for _, n := range c.Nodes {
		hosts = append(hosts, n.Host())
		logs = append(logs, n.log)
		n.mu.Lock()
		pids = append(pids, n.cmd.Process.Pid)
		n.mu.Unlock()
	}
	// Where the topic lives, logged even when the run fails.
	p.onTopic = func(topic string) {
		t.Cleanup(func() {
			master, proxies, err := c.Where(topic)
			t.Logf("topic %s: master %v, proxies %v (%v); sessions by server: session i on node i %% 3 (one, two, three)", topic, master, proxies, err)
		})
	}
	var urls []string
	if p.backend != "postgres" {
		urls = meterURLs(t, logs...)
	}
	t.Logf("%s: adapter config %v; %d subscribers, %d senders, window %d, %v s, %d subscribing at once", p.backend, cfg, p.subscribers, p.senders, p.window, p.seconds, p.subParallel)
	r := runLoad(t, hosts, urls, pids, logs, p, settleFor(p))
	for i, rep := range r.reports {
		calls := 0
		for _, v := range rep.Calls {
			calls += v
		}
		t.Logf("node %s: %d adapter calls during the load (%v)", c.Nodes[i].Name, calls, rep.Calls)
	}
	checkLoad(t, "cluster of 3", st, r, p)
}
