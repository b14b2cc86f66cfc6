//go:build unix

package dynamolocal

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Helper-process modes: the test binary re-executes itself with
// DYNAMOLOCAL_HELPER set to play a second process.
const helperEnv = "DYNAMOLOCAL_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "provision":
		// Provision into $DYNAMOLOCAL_CACHE from $NPM_CONFIG_REGISTRY.
		dir, err := Provision(context.Background(), WithCacheDir(os.Getenv("DYNAMOLOCAL_CACHE")))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(dir)
		os.Exit(0)
	case "start":
		// Start a JVM, say its pid, and wait to be killed.
		inst, err := Start(context.Background(), WithoutDocker())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("PID %d %s\n", inst.pid, inst.Endpoint())
		select {}
	}
}

// listTables checks that endpoint answers as a DynamoDB.
func listTables(t *testing.T, endpoint string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := NewClient(endpoint).ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatalf("ListTables at %s: %v", endpoint, err)
	}
	return out.TableNames
}

// startJava starts a JVM-backed instance, closed at the end of the test.
func startJavaInstance(t *testing.T, opts ...Option) *Instance {
	t.Helper()
	t.Setenv(EnvEndpoint, "")
	t0 := time.Now()
	inst, err := Start(t.Context(), append([]Option{WithoutDocker(), WithLogger(t.Logf)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("started %s backend at %s in %v", inst.Backend(), inst.Endpoint(), time.Since(t0))
	t.Cleanup(func() { inst.Close() })
	return inst
}

func TestStartJava(t *testing.T) {
	inst := startJavaInstance(t)
	if inst.Backend() != BackendJava {
		t.Fatalf("Backend() = %q, want %q", inst.Backend(), BackendJava)
	}
	if !strings.HasPrefix(inst.Endpoint(), "http://127.0.0.1:") {
		t.Errorf("Endpoint() = %q, want http://127.0.0.1:<port>", inst.Endpoint())
	}

	// Two clients with the shared credentials see one database.
	ctx := t.Context()
	_, err := NewClient(inst.Endpoint()).CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("shared"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := listTables(t, inst.Endpoint()); len(got) != 1 || got[0] != "shared" {
		t.Fatalf("second client sees tables %q, want [shared]", got)
	}

	if err := inst.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := inst.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if processAlive(inst.pid) {
		t.Errorf("JVM %d still runs after Close", inst.pid)
	}
	if c, err := net.DialTimeout("tcp", strings.TrimPrefix(inst.Endpoint(), "http://"), time.Second); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after Close", inst.Endpoint())
	}
}

func TestStartEndpointEnv(t *testing.T) {
	real := startJavaInstance(t)
	t.Setenv(EnvEndpoint, real.Endpoint())
	inst, err := Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if inst.Backend() != BackendEndpoint {
		t.Fatalf("Backend() = %q, want %q", inst.Backend(), BackendEndpoint)
	}
	if inst.Endpoint() != real.Endpoint() {
		t.Fatalf("Endpoint() = %q, want %q", inst.Endpoint(), real.Endpoint())
	}
	listTables(t, inst.Endpoint())
	if err := inst.Close(); err != nil {
		t.Fatal(err)
	}
	listTables(t, real.Endpoint()) // Close left the borrowed instance running

	t.Setenv(EnvEndpoint, "localhost:8000")
	if _, err := Start(t.Context()); err == nil || !strings.Contains(err.Error(), EnvEndpoint) {
		t.Errorf("Start with %s=localhost:8000: err = %v, want one naming %s", EnvEndpoint, err, EnvEndpoint)
	}
	// An endpoint where nothing answers fails at once, naming the variable.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	t.Setenv(EnvEndpoint, dead)
	t0 := time.Now()
	_, err = Start(t.Context())
	if err == nil || !strings.Contains(err.Error(), EnvEndpoint) || !strings.Contains(err.Error(), "does not answer") {
		t.Errorf("Start with %s=%s (nothing listening): err = %v", EnvEndpoint, dead, err)
	}
	if d := time.Since(t0); d > 2*endpointProbeTimeout {
		t.Errorf("a dead endpoint took %v to report", d)
	}
}

// silentListener accepts connections and never answers.
func silentListener(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				break
			}
			conns = append(conns, c)
		}
		for _, c := range conns {
			c.Close()
		}
	}()
	t.Cleanup(func() { l.Close(); <-done })
	return l.Addr().String()
}

func TestProbeDockerWithoutDaemon(t *testing.T) {
	for _, tc := range []struct{ name, host string }{
		{"missing socket", "unix:///nonexistent/docker.sock"},
		{"silent listener", "tcp://" + silentListener(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DOCKER_HOST", tc.host)
			t0 := time.Now()
			host, err := probeDocker(t.Context(), time.Second)
			took := time.Since(t0)
			if err == nil {
				t.Fatalf("probeDocker found a daemon at %s", host)
			}
			if !errors.Is(err, errNoDocker) {
				t.Errorf("err = %v, want errNoDocker", err)
			}
			if took > 3*time.Second {
				t.Errorf("probe took %v, want about 1s at most", took)
			}
			t.Logf("probe failed in %v: %v", took, err)
		})
	}
}

// noBackendEnv leaves this test with no way to run DynamoDB Local.
func noBackendEnv(t *testing.T, dockerHost string) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", "")
	t.Setenv(EnvEndpoint, "")
	t.Setenv(EnvLocalDir, "")
	t.Setenv("DOCKER_HOST", dockerHost)
}

func TestStartNoBackend(t *testing.T) {
	for _, tc := range []struct{ name, host string }{
		{"missing socket", "unix:///nonexistent/docker.sock"},
		{"silent listener", "tcp://" + silentListener(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			noBackendEnv(t, tc.host)
			t0 := time.Now()
			inst, err := Start(t.Context(), WithCacheDir(t.TempDir()))
			if err == nil {
				inst.Close()
				t.Fatalf("Start succeeded with backend %s", inst.Backend())
			}
			if took := time.Since(t0); took > 5*time.Second {
				t.Errorf("Start took %v to fail", took)
			}
			if !errors.Is(err, ErrNoBackend) {
				t.Errorf("err = %v, want ErrNoBackend", err)
			}
			var nb *NoBackendError
			if !errors.As(err, &nb) || len(nb.Reasons) != 2 {
				t.Errorf("err = %#v, want a *NoBackendError with 2 reasons", err)
			}
			msg := err.Error()
			for _, want := range []string{"Docker", "Java 17+", "npm registry", EnvLocalDir, "java not found", tc.host} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not mention %q", msg, want)
				}
			}
			t.Log(msg)
		})
	}
}

func TestStartLocalDirWithoutJar(t *testing.T) {
	t.Setenv(EnvEndpoint, "")
	t.Setenv(EnvLocalDir, t.TempDir())
	_, err := Start(t.Context(), WithoutDocker())
	if !errors.Is(err, ErrNoBackend) || !strings.Contains(err.Error(), EnvLocalDir) {
		t.Fatalf("err = %v, want ErrNoBackend naming %s", err, EnvLocalDir)
	}
}

// TestNoOrphanJVM kills (SIGKILL) a process that started a JVM and checks
// that the JVM dies too.
func TestNoOrphanJVM(t *testing.T) {
	t.Setenv(EnvEndpoint, "")
	if _, err := Provision(t.Context()); err != nil { // outside the child's timing
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=start")
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("helper said %q: %v", line, err)
	}
	var pid int
	var endpoint string
	if _, err := fmt.Sscanf(line, "PID %d %s", &pid, &endpoint); err != nil {
		t.Fatalf("helper said %q: %v", line, err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	listTables(t, endpoint)
	if !processAlive(pid) {
		t.Fatalf("JVM %d not running", pid)
	}

	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for processAlive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("JVM %d survived its parent's SIGKILL", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processAlive reports whether pid runs (a zombie does not count).
func processAlive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	// pid (comm) state ...
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}

// A running instance leaves no dynamolocal-* directory in $TMPDIR (a test
// binary without TestMain never closes the kit's instance), and the start
// limit comes from DYNAMODB_LOCAL_START_TIMEOUT (issue 15). Nor does it
// leave the copy of sqlite4java's native library that DynamoDB Local
// extracts into java.io.tmpdir, which defaults to /tmp whatever TMPDIR says
// (issue 26, part 8: one ~0.9 MB file per test binary, forever).
func TestNoTempDirLeftAndStartTimeoutEnv(t *testing.T) {
	sqliteCopies := func() map[string]bool {
		m := map[string]bool{}
		for _, dir := range []string{"/tmp", os.TempDir()} {
			es, _ := os.ReadDir(dir)
			for _, e := range es {
				if strings.Contains(e.Name(), "sqlite4java") {
					m[filepath.Join(dir, e.Name())] = true
				}
			}
		}
		return m
	}
	before := sqliteCopies()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv(EnvStartTimeout, "45s")
	if o := newOptions(nil); o.startTimeout != 45*time.Second {
		t.Fatalf("start timeout %v, want 45s from %s", o.startTimeout, EnvStartTimeout)
	}
	inst := startJavaInstance(t)
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "dynamolocal-") {
			t.Errorf("%s left in TMPDIR while the instance runs", e.Name())
		}
	}
	listTables(t, inst.Endpoint())
	if err := inst.Close(); err != nil {
		t.Fatal(err)
	}
	for f := range sqliteCopies() {
		if !before[f] {
			t.Errorf("the instance left %s behind", f)
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("TMPDIR holds %d entries after Close, want none", len(entries))
	}
}
