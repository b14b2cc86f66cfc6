package dynamolocal

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// The dummy credentials and region every client of a DynamoDB Local must
// share: DynamoDB Local keeps a separate database per access key and region.
const (
	AccessKeyID     = "local"
	SecretAccessKey = "local"
	Region          = "us-east-1"
)

// endpointProbeTimeout bounds the check that DYNAMODB_ENDPOINT answers.
const endpointProbeTimeout = 5 * time.Second

// Environment variables read by [Start].
const (
	// EnvEndpoint names a running DynamoDB (Local) to use instead of
	// starting one, e.g. http://localhost:8000.
	EnvEndpoint = "DYNAMODB_ENDPOINT"
	// EnvLocalDir names a directory holding DynamoDBLocal.jar and
	// DynamoDBLocal_lib, used instead of the cached npm package.
	EnvLocalDir = "DYNAMODB_LOCAL_DIR"
	// EnvRegistry is npm's own variable for the registry URL.
	EnvRegistry = "NPM_CONFIG_REGISTRY"
	// EnvAWSConfig, when set, makes [NewClient] sign with the standard AWS
	// configuration instead of the dummy DynamoDB Local credentials.
	EnvAWSConfig = "DYNAMODB_USE_AWS_CONFIG"
)

// The values [Instance.Backend] returns.
const (
	BackendEndpoint       = "endpoint"
	BackendTestcontainers = "testcontainers"
	BackendJava           = "java"
)

// installHint is what the "no backend" error tells a person to install.
const installHint = "install Docker, or Java 17+ (and network access to the npm registry, or DYNAMODB_LOCAL_DIR)"

// ErrNoBackend is matched (with errors.Is) by the error [Start] returns
// when no backend could start a DynamoDB Local.
var ErrNoBackend = errors.New("dynamolocal: no way to run DynamoDB Local")

// NoBackendError is the error [Start] returns when every backend failed. It
// matches [ErrNoBackend].
type NoBackendError struct {
	// Reasons holds why each backend tried failed, in the order tried.
	Reasons []BackendFailure
}

// BackendFailure is why one backend could not start DynamoDB Local.
type BackendFailure struct {
	Backend string // BackendTestcontainers or BackendJava
	Err     error
}

// Error says what to install, then why each backend failed.
func (e *NoBackendError) Error() string {
	var b strings.Builder
	b.WriteString("dynamolocal: cannot start DynamoDB Local: ")
	b.WriteString(installHint)
	for _, r := range e.Reasons {
		fmt.Fprintf(&b, "; %s: %v", r.Backend, r.Err)
	}
	return b.String()
}

// Is reports whether target is [ErrNoBackend].
func (e *NoBackendError) Is(target error) bool { return target == ErrNoBackend }

// Unwrap returns the errors of each backend.
func (e *NoBackendError) Unwrap() []error {
	errs := make([]error, len(e.Reasons))
	for i, r := range e.Reasons {
		errs[i] = r.Err
	}
	return errs
}

// Instance is a running (or borrowed) DynamoDB Local.
type Instance struct {
	endpoint string
	backend  string
	pid      int // the JVM, for the java backend
	close    func() error
	once     sync.Once
	err      error
}

// Endpoint returns the URL of the instance, e.g. http://127.0.0.1:41234.
func (i *Instance) Endpoint() string { return i.endpoint }

// Backend returns how the instance runs: [BackendEndpoint],
// [BackendTestcontainers] or [BackendJava].
func (i *Instance) Backend() string { return i.backend }

// PID returns the process ID of the JVM running DynamoDB Local on this
// machine ([BackendJava]), or 0 when the instance runs elsewhere (a
// container or DYNAMODB_ENDPOINT), where its CPU cannot be read.
func (i *Instance) PID() int { return i.pid }

// Close stops the instance: it kills the JVM or terminates the container.
// An instance given by DYNAMODB_ENDPOINT is left running. Close may be
// called more than once.
func (i *Instance) Close() error {
	i.once.Do(func() {
		if i.close != nil {
			i.err = i.close()
		}
	})
	return i.err
}

// Option configures [Start] and [Provision].
type Option func(*options)

type options struct {
	logf         func(format string, args ...any)
	heap         string
	cacheDir     string
	registry     string
	docker       bool
	dockerProbe  time.Duration
	startTimeout time.Duration
	java         string
}

func newOptions(opts []Option) *options {
	o := &options{
		logf:         func(string, ...any) {},
		heap:         "512m",
		docker:       true,
		dockerProbe:  2 * time.Second,
		startTimeout: 90 * time.Second,
	}
	if v := os.Getenv(EnvStartTimeout); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			o.startTimeout = d
		}
	}
	for _, f := range opts {
		f(o)
	}
	return o
}

// EnvStartTimeout names the variable that sets how long a JVM may take to
// answer (a Go duration such as "120s"; default 90s: on a 2-core machine
// running several test binaries a JVM has taken over 30s). A start that fails is
// retried once.
const EnvStartTimeout = "DYNAMODB_LOCAL_START_TIMEOUT"

// WithLogger receives progress messages (backend tried, download, start).
func WithLogger(logf func(format string, args ...any)) Option {
	return func(o *options) {
		if logf != nil {
			o.logf = logf
		}
	}
}

// WithHeap sets the JVM's maximum heap (-Xmx), "512m" by default.
func WithHeap(size string) Option { return func(o *options) { o.heap = size } }

// WithCacheDir sets the directory the npm package is provisioned into,
// by default os.UserCacheDir()/singletable/dynamodb-local. The package
// lands in a subdirectory named after [NPMVersion].
func WithCacheDir(dir string) Option { return func(o *options) { o.cacheDir = dir } }

// WithRegistry sets the npm registry URL, by default $NPM_CONFIG_REGISTRY
// or https://registry.npmjs.org.
func WithRegistry(url string) Option { return func(o *options) { o.registry = url } }

// WithoutDocker skips the testcontainers backend.
func WithoutDocker() Option { return func(o *options) { o.docker = false } }

// WithDockerProbeTimeout bounds the check that a Docker daemon answers
// (2s by default).
func WithDockerProbeTimeout(d time.Duration) Option {
	return func(o *options) { o.dockerProbe = d }
}

// WithStartTimeout bounds how long a started JVM may take to answer
// (90s by default).
func WithStartTimeout(d time.Duration) Option {
	return func(o *options) { o.startTimeout = d }
}

// WithJava sets the java executable, by default $JAVA_HOME/bin/java if it
// exists, else java from PATH.
func WithJava(path string) Option { return func(o *options) { o.java = path } }

// Start returns a running DynamoDB Local, trying the backends described in
// the package documentation in order. The caller must Close it. The error,
// when no backend works, matches [ErrNoBackend] and names what to install.
func Start(ctx context.Context, opts ...Option) (*Instance, error) {
	o := newOptions(opts)
	if ep := os.Getenv(EnvEndpoint); ep != "" {
		u, err := url.Parse(ep)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("dynamolocal: %s=%q is not a URL such as http://localhost:8000", EnvEndpoint, ep)
		}
		ep = strings.TrimRight(ep, "/")
		// Fail at once, with the variable's name, if nothing answers there,
		// rather than in every test after the SDK's retries.
		pctx, cancel := context.WithTimeout(ctx, endpointProbeTimeout)
		defer cancel()
		if err := waitReady(pctx, ep, nil); err != nil {
			return nil, fmt.Errorf("dynamolocal: %s=%s does not answer (%v); start it, or unset %s to let the tests start DynamoDB Local themselves", EnvEndpoint, ep, err, EnvEndpoint)
		}
		o.logf("dynamolocal: using %s=%s", EnvEndpoint, ep)
		return &Instance{endpoint: ep, backend: BackendEndpoint}, nil
	}

	var reasons []BackendFailure
	if o.docker {
		inst, err := startDocker(ctx, o)
		if err == nil {
			return inst, nil
		}
		o.logf("dynamolocal: docker: %v", err)
		reasons = append(reasons, BackendFailure{Backend: BackendTestcontainers, Err: err})
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	inst, err := startJava(ctx, o)
	if err == nil {
		return inst, nil
	}
	o.logf("dynamolocal: java: %v", err)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("dynamolocal: %w", err)
	}
	reasons = append(reasons, BackendFailure{Backend: BackendJava, Err: err})
	return nil, &NoBackendError{Reasons: reasons}
}

// NewClient returns a DynamoDB client for the DynamoDB Local at endpoint,
// signing with the shared dummy credentials and [Region]. optFns change the
// client's options after those defaults (to add middleware or an HTTP
// client that injects faults, for example).
//
// With [EnvAWSConfig] set (to run the tests or examples against AWS itself,
// e.g. DYNAMODB_ENDPOINT=https://dynamodb.eu-west-1.amazonaws.com), the
// client takes credentials and region from the standard AWS configuration
// (environment, shared config, SSO) instead of the dummy ones.
func NewClient(endpoint string, optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	if os.Getenv(EnvAWSConfig) != "" {
		cfg, err := config.LoadDefaultConfig(context.Background())
		if err != nil {
			panic(fmt.Sprintf("dynamolocal: %s is set but the AWS configuration does not load: %v", EnvAWSConfig, err))
		}
		return dynamodb.NewFromConfig(cfg, append([]func(*dynamodb.Options){func(o *dynamodb.Options) {
			o.BaseEndpoint = aws.String(endpoint)
		}}, optFns...)...)
	}
	return dynamodb.New(dynamodb.Options{
		Region:       Region,
		Credentials:  credentials.NewStaticCredentialsProvider(AccessKeyID, SecretAccessKey, ""),
		BaseEndpoint: aws.String(endpoint),
	}, optFns...)
}
