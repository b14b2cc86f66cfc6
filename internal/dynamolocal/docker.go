package dynamolocal

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tcdynamodb "github.com/testcontainers/testcontainers-go/modules/dynamodb"
)

// DockerImage is the pinned DynamoDB Local image the testcontainers backend
// runs (the same DynamoDB Local version as the npm package).
const DockerImage = "amazon/dynamodb-local:3.3.1"

// errNoDocker says no Docker daemon answered the probe.
var errNoDocker = errors.New("no Docker daemon answered")

// startDocker runs DockerImage with testcontainers-go if a daemon answers.
func startDocker(ctx context.Context, o *options) (*Instance, error) {
	t0 := time.Now()
	host, err := probeDocker(ctx, o.dockerProbe)
	if err != nil {
		return nil, err
	}
	o.logf("dynamolocal: Docker daemon at %s answered in %v", host, time.Since(t0).Round(time.Millisecond))

	// The daemon answered, so the probes testcontainers makes (without a
	// deadline) cannot hang; still bound the whole run, image pull included.
	runCtx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	ctr, err := tcdynamodb.Run(runCtx, DockerImage,
		testcontainers.WithCmdArgs("-inMemory"),
		tcdynamodb.WithDisableTelemetry(),
	)
	if err != nil {
		if ctr != nil {
			_ = ctr.Terminate(context.Background())
		}
		return nil, fmt.Errorf("run %s: %w", DockerImage, err)
	}
	hostPort, err := ctr.ConnectionString(runCtx)
	if err != nil {
		_ = ctr.Terminate(context.Background())
		return nil, fmt.Errorf("container endpoint: %w", err)
	}
	inst := &Instance{
		endpoint: "http://" + hostPort,
		backend:  BackendTestcontainers,
		close: func() error {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			return ctr.Terminate(ctx)
		},
	}
	if err := waitReady(runCtx, inst.endpoint, nil); err != nil {
		_ = inst.Close()
		return nil, err
	}
	o.logf("dynamolocal: container %s ready at %s in %v", DockerImage, inst.endpoint, time.Since(t0).Round(time.Millisecond))
	return inst, nil
}

// probeDocker returns the first Docker host, among those testcontainers-go
// would try, whose daemon answers GET /_ping within timeout. The probe runs
// in its own goroutine, so even a listener that accepts and never replies
// cannot hold the caller past the deadline.
func probeDocker(ctx context.Context, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		host string
		err  error
	}
	hosts := dockerHosts()
	done := make(chan result, 1)
	go func() {
		var errs []error
		for _, h := range hosts {
			err := pingDocker(ctx, h)
			if err == nil {
				done <- result{host: h}
				return
			}
			errs = append(errs, fmt.Errorf("%s: %w", h, err))
			if ctx.Err() != nil {
				break
			}
		}
		if len(errs) == 0 {
			errs = append(errs, errors.New("no DOCKER_HOST and no Docker socket found"))
		}
		done <- result{err: fmt.Errorf("%w: %w", errNoDocker, errors.Join(errs...))}
	}()
	select {
	case r := <-done:
		return r.host, r.err
	case <-ctx.Done():
		return "", fmt.Errorf("%w within %v (tried %s)", errNoDocker, timeout, strings.Join(hosts, ", "))
	}
}

// dockerHosts lists candidate Docker hosts in testcontainers-go's order:
// tc.host from ~/.testcontainers.properties, DOCKER_HOST, the default
// socket, docker.host from the properties, then rootless sockets. Sockets
// that do not exist are left out.
func dockerHosts() []string {
	props := readTCProperties()
	var hosts []string
	add := func(h string) {
		if h == "" {
			return
		}
		if p, ok := strings.CutPrefix(h, "unix://"); ok {
			if _, err := os.Stat(p); err != nil {
				return
			}
		}
		for _, x := range hosts {
			if x == h {
				return
			}
		}
		hosts = append(hosts, h)
	}
	add(props["tc.host"])
	if h := os.Getenv("DOCKER_HOST"); h != "" {
		// An explicit DOCKER_HOST is kept even when its socket is missing,
		// so that the error names it.
		hosts = append(hosts, h)
	}
	add("unix:///var/run/docker.sock")
	add(props["docker.host"])
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		add("unix://" + filepath.Join(d, "docker.sock"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		add("unix://" + filepath.Join(home, ".docker", "run", "docker.sock"))
		add("unix://" + filepath.Join(home, ".docker", "desktop", "docker.sock"))
	}
	add(fmt.Sprintf("unix:///run/user/%d/docker.sock", os.Getuid()))
	return hosts
}

// readTCProperties reads key=value lines of ~/.testcontainers.properties.
func readTCProperties() map[string]string {
	m := map[string]string{}
	home, err := os.UserHomeDir()
	if err != nil {
		return m
	}
	f, err := os.Open(filepath.Join(home, ".testcontainers.properties"))
	if err != nil {
		return m
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok {
			m[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return m
}

// pingDocker sends GET /_ping to the daemon at host (unix:// or tcp://).
func pingDocker(ctx context.Context, host string) error {
	u, err := url.Parse(host)
	if err != nil {
		return err
	}
	tr := &http.Transport{DisableKeepAlives: true}
	base := ""
	var d net.Dialer
	switch u.Scheme {
	case "unix":
		path := u.Path
		tr.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
			return d.DialContext(ctx, "unix", path)
		}
		base = "http://docker"
	case "tcp", "http":
		base = "http://" + u.Host
	case "https":
		// A TLS daemon wants client certificates (DOCKER_CERT_PATH); any
		// HTTP answer is enough to say a daemon is there.
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // reachability probe only
		base = "https://" + u.Host
	default:
		return fmt.Errorf("unsupported Docker host scheme %q", u.Scheme)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/_ping", nil)
	if err != nil {
		return err
	}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK && u.Scheme != "https" {
		return fmt.Errorf("GET /_ping: %s", resp.Status)
	}
	return nil
}
