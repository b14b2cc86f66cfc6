package dynamolocal

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// errPortInUse says the JVM could not bind its port (someone took it
// between our probe and its start); another port is tried.
var errPortInUse = errors.New("port already in use")

// startJava runs DynamoDBLocal.jar with the machine's Java.
func startJava(ctx context.Context, o *options) (*Instance, error) {
	javaBin, err := findJava(o)
	if err != nil {
		return nil, err
	}
	dir, err := localDir(ctx, o)
	if err != nil {
		return nil, err
	}
	// A port taken between the probe and the JVM's start is retried on
	// another port (up to 3 times); any other failed start (a JVM slow to
	// start on a loaded machine) is retried once.
	var last error
	otherFailures := 0
	for range 4 {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		inst, err := launch(ctx, o, javaBin, dir, port)
		if err == nil {
			return inst, nil
		}
		last = err
		if ctx.Err() != nil {
			break
		}
		if !errors.Is(err, errPortInUse) {
			if otherFailures++; otherFailures > 1 {
				break
			}
			o.logf("dynamolocal: start failed, retrying once: %v", err)
		}
	}
	return nil, last
}

// findJava returns the java executable: WithJava, $JAVA_HOME/bin/java, or
// java from PATH.
func findJava(o *options) (string, error) {
	if o.java != "" {
		return o.java, nil
	}
	if home := os.Getenv("JAVA_HOME"); home != "" {
		if p := filepath.Join(home, "bin", "java"); fileExists(p) {
			return p, nil
		}
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return "", fmt.Errorf("java not found in PATH or JAVA_HOME: install Java 17+: %w", err)
	}
	return p, nil
}

// localDir returns the directory holding DynamoDBLocal.jar: the one named
// by DYNAMODB_LOCAL_DIR, or the provisioned npm package.
func localDir(ctx context.Context, o *options) (string, error) {
	if d := os.Getenv(EnvLocalDir); d != "" {
		dir, err := findJarDir(d)
		if err != nil {
			return "", fmt.Errorf("%s=%s: %w", EnvLocalDir, d, err)
		}
		return dir, nil
	}
	return provision(ctx, o)
}

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// launch starts one JVM on port and waits until it answers.
//
// The JVM must not outlive this process, even one killed with SIGKILL or
// ended by a panic. Linux's parent-death signal (Pdeathsig) does that, but
// it fires when the thread that created the child exits, not the process;
// Go may retire any thread, so the child is created by a goroutine locked to
// its thread that stays blocked in Wait (never unlocking) while the child
// lives. The JVM also gets its own process group, which Close kills.
func launch(ctx context.Context, o *options, javaBin, dir string, port int) (*Instance, error) {
	t0 := time.Now()
	work, err := os.MkdirTemp("", "dynamolocal-*")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(javaBin,
		"-Xmx"+o.heap,
		"-Djava.library.path="+filepath.Join(dir, "DynamoDBLocal_lib"),
		// DynamoDB Local copies its native SQLite library (~0.9 MB) into
		// java.io.tmpdir at start and never removes it: point it at the
		// instance's own working directory, which is removed below.
		"-Djava.io.tmpdir="+work,
		"-jar", filepath.Join(dir, jarName),
		"-inMemory", "-disableTelemetry",
		"-port", strconv.Itoa(port))
	cmd.Dir = work
	out := &tailBuffer{max: 8 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = procAttr()

	started := make(chan error, 1)
	exited := make(chan struct{})
	go func() {
		runtime.LockOSThread() // never unlocked: see above
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		_ = cmd.Wait()
		close(exited)
	}()
	if err := <-started; err != nil {
		os.RemoveAll(work)
		return nil, fmt.Errorf("start %s: %w", javaBin, err)
	}
	pid := cmd.Process.Pid
	inst := &Instance{
		endpoint: fmt.Sprintf("http://127.0.0.1:%d", port),
		backend:  BackendJava,
		pid:      pid,
		close: func() error {
			killGroup(pid) // the whole process group
			_ = cmd.Process.Kill()
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
			}
			return os.RemoveAll(work)
		},
	}

	rctx, cancel := context.WithTimeout(ctx, o.startTimeout)
	defer cancel()
	if err := waitReady(rctx, inst.endpoint, exited); err != nil {
		_ = inst.Close()
		tail := out.String()
		switch {
		case strings.Contains(tail, "Address already in use") || strings.Contains(tail, "BindException"):
			err = fmt.Errorf("%w: %d", errPortInUse, port)
		case strings.Contains(tail, "UnsupportedClassVersionError"):
			err = fmt.Errorf("%s is too old, DynamoDB Local needs Java 17+: %w", javaBin, err)
		}
		return nil, fmt.Errorf("DynamoDB Local (%s) did not start: %w\n--- JVM output (tail) ---\n%s", dir, err, tail)
	}
	o.logf("dynamolocal: DynamoDB Local (java, pid %d) ready at %s in %v", pid, inst.endpoint, time.Since(t0).Round(time.Millisecond))
	// The JVM writes nothing in its working directory (in memory, no
	// telemetry): remove it now, so that a test binary that exits without
	// closing the instance leaves no empty dynamolocal-* directory behind.
	// (Windows keeps a process's working directory open: removed by Close.)
	if runtime.GOOS != "windows" {
		_ = os.RemoveAll(work)
	}
	return inst, nil
}

// waitReady polls ListTables until the endpoint answers, exited is closed
// (the process died) or ctx ends.
func waitReady(ctx context.Context, endpoint string, exited <-chan struct{}) error {
	client := NewClient(endpoint, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
	var last error
	for {
		actx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := client.ListTables(actx, &dynamodb.ListTablesInput{})
		cancel()
		if err == nil {
			return nil
		}
		last = err
		select {
		case <-exited:
			return errors.New("the JVM exited")
		case <-ctx.Done():
			return fmt.Errorf("no answer to ListTables at %s: %w (last error: %v)", endpoint, ctx.Err(), last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
