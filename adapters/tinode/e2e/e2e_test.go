//go:build e2e

// Package e2e runs Tinode's own server, built with the adapter linked in,
// on DynamoDB Local and drives it with Tinode's own JavaScript client
// (tinode-sdk from npm, under Node 20). Run it with
//
//	go test -tags e2e ./e2e -v
//
// from adapters/tinode: it builds Tinode with build.sh, initialises the
// database with tinode-db and its sample data, starts the server, and
// runs scenario.mjs, which asserts each step on what the client sees and,
// through a small HTTP endpoint this test serves, on what the table holds.
package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	t "github.com/tinode/chat/server/store/types"
)

func TestMain(m *testing.M) { tabletest.Main(m) }

func TestTinodeEndToEnd(t_ *testing.T) {
	start := time.Now()
	here, build := setUp(t_)
	endpoint := tabletest.Endpoint(t_)

	name := tabletest.TableName("tinode", "e2e")
	port := freePort(t_)
	conf := serverConfig(port, "dynamodb", map[string]any{
		"table": name, "endpoint": endpoint, "region": "us-east-1", "create_table": true,
	})
	dir := t_.TempDir()
	cf := writeConfig(t_, dir, conf)

	// The table, read directly for the checks.
	tbl := table.New(tabletest.NewClient(t_), table.NewSchema(name))
	t_.Cleanup(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = tbl.Delete(c)
	})
	// Read as the adapter reads: its tag rule, and the sharded profile,
	// which reads each topic's messages by the layout stored with it (the
	// adapter's default message_shards is 4).
	st := tinode.New(tbl, func(o *tinode.Options) {
		o.SharedTags = true
		o.MessageShards = 1
		o.ServerNumbered = true
	})

	// tinode-db creates the table and loads Tinode's sample data.
	t0 := time.Now()
	// E2E_SAMPLE_DATA=0 only initialises the database (CI's shorter run).
	dbArgs := []string{"-config", cf, "-data", "data.json"}
	if os.Getenv("E2E_SAMPLE_DATA") == "0" {
		dbArgs = dbArgs[:2]
	}
	runCmd(t_, filepath.Join(build, "chat", "tinode-db"), filepath.Join(build, "bin", "tinode-db"), dbArgs...)
	t_.Logf("tinode-db loaded the sample data in %v", time.Since(t0).Round(time.Millisecond))
	c, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if v, err := st.Meta.Version.Get(c, tn.DBVersion{}); err != nil || v.Version != 1 {
		t_.Fatalf("data version after tinode-db = %d, %v", v.Version, err)
	}
	if len(dbArgs) > 2 {
		alice, err := st.Creds.UserByCred(c, "email", "alice@example.com")
		if err != nil {
			t_.Fatalf("sample user alice not in the table: %v", err)
		}
		t_.Logf("sample user alice is %s", alice)
	}

	// The server.
	srv := serverCmd(build, dir, cf)
	logf, _ := os.Create(filepath.Join(dir, "server.log"))
	srv.Stdout, srv.Stderr = logf, logf
	if err := srv.Start(); err != nil {
		t_.Fatal(err)
	}
	t_.Cleanup(func() {
		_ = srv.Process.Kill()
		_, _ = srv.Process.Wait()
		if t_.Failed() {
			out, _ := os.ReadFile(filepath.Join(dir, "server.log"))
			t_.Logf("server log:\n%s", out)
		}
	})
	waitListening(t_, port, 30*time.Second)

	// The table checks the scenario asks for.
	check := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res, err := state(r.Context(), st, r.URL.Query().Get("kind"), r.URL.Query())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = json.NewEncoder(w).Encode(res)
	})}
	cl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t_.Fatal(err)
	}
	go check.Serve(cl)
	t_.Cleanup(func() { check.Close() })

	scenario := exec.Command("node", "scenario.mjs")
	scenario.Dir = here
	scenario.Env = append(os.Environ(),
		fmt.Sprintf("TINODE_HOST=127.0.0.1:%d", port),
		"CHECK_URL=http://"+cl.Addr().String(),
		"E2E_SCENARIO="+os.Getenv("E2E_SCENARIO"))
	out, err := scenario.StdoutPipe()
	if err != nil {
		t_.Fatal(err)
	}
	scenario.Stderr = scenario.Stdout
	t1 := time.Now()
	if err := scenario.Start(); err != nil {
		t_.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	last := ""
	for sc.Scan() {
		last = sc.Text()
		fmt.Println(last)
	}
	err = scenario.Wait()
	t_.Logf("scenario ran in %v (whole test %v)", time.Since(t1).Round(time.Millisecond), time.Since(start).Round(time.Second))
	if err != nil || !strings.HasSuffix(last, " 0 failed") {
		t_.Fatalf("scenario: %v; last line %q", err, last)
	}
}

// state answers the scenario's question about the table, through
// query/tinode's public methods.
func state(ctx context.Context, st *tinode.Store, kind string, q map[string][]string) (any, error) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	user := func(k string) tn.UserID { return tn.UserID(t.ParseUserId(get(k)).String()) }
	switch kind {
	case "user":
		u, err := st.Users.ByID.Get(ctx, tn.User{Id: user("id")})
		if err != nil {
			return map[string]any{"exists": false, "err": err.Error()}, nil
		}
		return map[string]any{"exists": true, "state": int(u.State), "tags": u.Tags}, nil
	case "topic":
		tp, err := st.Topics.ByName.Get(ctx, tn.Topic{Id: tn.TopicName(get("name"))})
		if err != nil {
			return map[string]any{"exists": false}, nil
		}
		owner := ""
		if tp.Owner != "" {
			owner = t.ParseUid(string(tp.Owner)).UserId()
		}
		return map[string]any{"exists": true, "seq": tp.SeqId, "subcnt": tp.SubCnt, "delid": tp.DelId, "owner": owner, "tags": tp.Tags}, nil
	case "p2p":
		name := t.ParseUserId(get("a")).P2PName(t.ParseUserId(get("b")))
		tp, err := st.Topics.ByName.Get(ctx, tn.Topic{Id: tn.TopicName(name)})
		if err != nil {
			return map[string]any{"name": name, "exists": false}, nil
		}
		return map[string]any{"name": name, "exists": true, "seq": tp.SeqId, "subcnt": tp.SubCnt}, nil
	case "sub":
		s, err := st.Subs.ByTopicUser.Get(ctx, tn.Subscription{Topic: tn.TopicName(get("topic")), User: user("user")})
		if err != nil {
			return map[string]any{"exists": false}, nil
		}
		return map[string]any{"exists": true, "deleted": s.DeletedAt != nil, "read": s.ReadSeqId, "delid": s.DelId}, nil
	case "msgs":
		var out []map[string]any
		for m, err := range table.Every(ctx, st.Messages.History, tinode.HistoryFilter{Topic: tn.TopicName(get("topic")), IncludeDeleted: true}, table.Asc()) {
			if err != nil {
				return nil, err
			}
			var for_ []string
			for _, d := range m.DeletedFor {
				for_ = append(for_, t.ParseUid(string(d.User)).UserId())
			}
			out = append(out, map[string]any{"seq": m.SeqId, "deleted": m.DeletedAt != nil, "deletedFor": for_, "content": string(m.Content)})
		}
		return out, nil
	case "dellog":
		var out []map[string]any
		deletions := func(ctx context.Context, o ...table.ListOption) (table.Page[tn.DelMessage], error) {
			return st.Messages.Deletions(ctx, tn.TopicName(get("topic")), user("user"), 0, o...)
		}
		for d, err := range table.Pages(ctx, deletions, table.Asc()) {
			if err != nil {
				return nil, err
			}
			out = append(out, map[string]any{"delid": d.DelId, "forUser": d.DeletedFor != "", "ranges": d.Ranges})
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown kind %q", kind)
}
