//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// What both tests (TestTinodeEndToEnd, TestTinodeDifferential) share: the
// build of Tinode with the adapter linked in, the JavaScript client
// (client.mjs loads it for scenario.mjs and diff.mjs), the server's
// configuration and its processes.

// awsEnv is the environment Tinode's processes reach DynamoDB Local with.
var awsEnv = []string{"AWS_ACCESS_KEY_ID=local", "AWS_SECRET_ACCESS_KEY=local", "AWS_REGION=us-east-1"}

// built is build.sh's outcome, shared by the tests of this binary: Tinode
// is built once per run.
var built struct {
	once sync.Once
	err  error
}

// setUp builds Tinode's server and tinode-db with the adapter linked in
// (build.sh, once per test binary; E2E_BUILT=1 uses the binaries already
// in the build directory) and installs Tinode's JavaScript client when
// node_modules lacks it. It returns this directory (where the scripts
// run) and the build directory.
func setUp(t *testing.T) (here, build string) {
	t.Helper()
	here, _ = os.Getwd()
	build = buildDir()
	built.once.Do(func() {
		start := time.Now()
		if os.Getenv("E2E_BUILT") == "1" {
			_, built.err = os.Stat(filepath.Join(build, "bin", "tinode"))
		} else if built.err = runCmdErr(here, "./build.sh"); built.err == nil {
			t.Logf("built Tinode in %v", time.Since(start).Round(time.Second))
		}
		if built.err != nil {
			return
		}
		if _, err := os.Stat(filepath.Join(here, "node_modules", "tinode-sdk")); err != nil {
			built.err = runCmdErr(here, "npm", "install", "--no-audit", "--no-fund")
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return here, build
}

// serverConfig returns the configuration both tests run Tinode's server
// with, listening on port, on the store adapter adapter configured by
// adapterCfg. A test adds its own keys (media, account validation).
func serverConfig(port int, adapter string, adapterCfg map[string]any) map[string]any {
	return map[string]any{
		"listen":           fmt.Sprintf("127.0.0.1:%d", port),
		"api_path":         "/",
		"api_key_salt":     "T713/rYYgW7g4m3vG6zGRh7+FM1t0T8j13koXScOAj4=",
		"max_message_size": 131072, "max_subscriber_count": 128, "max_tag_count": 16,
		"p2p_delete_enabled": true,
		"alias_tag":          "alias",
		"push":               []any{},
		"auth_config": map[string]any{
			"logical_names": []string{},
			"basic":         map[string]any{"add_to_tags": true, "min_login_length": 4, "min_password_length": 6},
			"token":         map[string]any{"expire_in": 1209600, "serial_num": 1, "key": "wfaY2RgF2S1OQI/ZlK+LSrp1KB2jwAdGAIHQ7JZn+Kc="},
		},
		"store_config": map[string]any{
			"uid_key": "la6YsO+bNX/+XIkOqc5Svw==", "max_results": 1024, "use_adapter": adapter,
			"adapters": map[string]any{adapter: adapterCfg},
		},
	}
}

// writeConfig writes conf as dir/tinode.conf and returns its path.
func writeConfig(t *testing.T, dir string, conf map[string]any) string {
	t.Helper()
	cf := filepath.Join(dir, "tinode.conf")
	b, _ := json.MarshalIndent(conf, "", "  ")
	if err := os.WriteFile(cf, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return cf
}

// serverCmd returns the command that runs Tinode's server with the
// configuration cf, in dir (its static data directory too).
func serverCmd(build, dir, cf string) *exec.Cmd {
	srv := exec.Command(filepath.Join(build, "bin", "tinode"), "-config", cf, "-static_data", dir)
	srv.Dir = dir
	srv.Env = append(os.Environ(), awsEnv...)
	return srv
}

func freePort(tb testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func buildDir() string {
	if d := os.Getenv("TINODE_BUILD"); d != "" {
		return d
	}
	c, _ := os.UserCacheDir()
	return filepath.Join(c, "singletable-tinode")
}

// runCmd runs name in dir with DynamoDB Local's environment and the build
// directory, failing the test with its output when it fails.
func runCmd(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	if err := runCmdErr(dir, name, args...); err != nil {
		t.Fatal(err)
	}
}

// runCmdErr is runCmd's command; its error holds the output.
func runCmdErr(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), awsEnv...), "TINODE_BUILD="+buildDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %v: %v\n%s", name, args, err, out)
	}
	return nil
}

// waitListening waits until something listens on port, at most max.
func waitListening(t *testing.T, port int, max time.Duration) {
	t.Helper()
	deadline := time.Now().Add(max)
	for {
		conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			conn.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listens on port %d after %v", port, max)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stopProcess stops p as an operator does (Tinode and PostgreSQL shut
// down on SIGINT) and waits; after grace it kills p.
func stopProcess(p *os.Process, grace time.Duration) {
	_ = p.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _, _ = p.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		_ = p.Kill()
		<-done
	}
}
