package capacity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
)

// Minute is a modeled minute of load on an application, for [RunMinute].
//
// The model (the throttling mode of a [Meter] on a modeled clock):
//
//   - Time is modeled, never waited for. Call i is issued at the modeled
//     instant i / (PerSecond x Scale) seconds: PerSecond x Seconds x Scale
//     calls, evenly spaced, run one after another.
//   - Scale runs a fraction of the load against the same fraction of the
//     limits: at Scale 0.01 a key is throttled past 10 WCU (not 1,000) or
//     30 RCU (not 3,000) in a modeled second, so each call stands for
//     1/Scale calls of the full load. Item units are not scaled (a write is
//     still ceil(size/1 KB)), so a key's load in a second moves in steps of
//     one call: keep PerSecond x Scale / shards at several calls a second.
//   - A key is refused (ProvisionedThroughputExceededException, or
//     TransactionCanceledException with ThrottlingError) when the units it
//     took in the attempt's modeled second already reach its limit (so a
//     second may end past the limit by the last request let in); a refused
//     attempt is not charged. Burst and adaptive capacity are not modeled.
//   - A throttled request is retried by whoever retries it in production:
//     the SDK's retryer (the same request again) or the engine (a new
//     request with the same operation and keys: a transaction, a batch
//     round). Its next attempt happens a modeled backoff later, the mean of
//     the production delay: SDKBackoff for the SDK's k-th retry (the
//     standard retryer waits a random 0..2^k s, at most 20 s: mean 1 s,
//     2 s), EngineBackoff for the engine's n-th (table.Options.BatchBackoff,
//     25 ms, doubled per retry, at most 1 s, jittered in its upper half:
//     mean 19 ms, 38 ms, ... 750 ms). The real client does not wait
//     ([MinuteRetries], and table.Options.BatchBackoff of a microsecond).
//     The backoff moves the call's clock: requests a call sends at once
//     (the shards of a merged read) share it.
//   - Calls run one at a time, so a call's retries land in later modeled
//     seconds before the calls issued in those seconds run: a second's load
//     is the same, only its order differs.
//
// The contract [RunMinute] enforces (a test failure otherwise):
//
//   - every throttled attempt is retried (the same request is sent again
//     in the same call) or given up by a call that returns an error
//     matching table.ErrThrottled: a throttle is never swallowed;
//   - a call fails only with table.ErrThrottled, and only once its retry
//     budget is spent: the request it gave up made at least MinAttempts
//     attempts.
//
// What the data must show (nothing lost: every call that returned success
// is stored; nothing counted twice: counts and rollups equal the items
// stored) is the scenario's own check after the run; and at the target
// rate in the scaled layout no call should fail: its test asserts
// [MinuteResult.Failed] is 0.
type Minute struct {
	// Name names the run in its log lines.
	Name string
	// PerSecond is the modeled rate of calls at full scale.
	PerSecond float64
	// Seconds is how long the modeled run lasts (60 when 0).
	Seconds int
	// Scale is the fraction of the calls run and of the per-partition
	// limits (1 when 0): 0.01 runs 1% of the calls against 1% of the
	// limits.
	Scale float64
	// Call makes call i (0 <= i < Calls()).
	Call func(ctx context.Context, i int) error
	// MinAttempts is the fewest attempts a request makes before its call
	// may give up with table.ErrThrottled (3, the SDK's default, when 0).
	MinAttempts int
	// SDKBackoff and EngineBackoff model the delay before a retry (see
	// above); nil for the means of the production defaults.
	SDKBackoff, EngineBackoff func(n int) time.Duration
}

// Calls returns how many calls the run makes: PerSecond x Seconds x Scale.
func (s Minute) Calls() int {
	return int(math.Round(s.PerSecond * float64(s.seconds()) * s.scale()))
}

func (s Minute) seconds() int {
	if s.Seconds <= 0 {
		return 60
	}
	return s.Seconds
}

func (s Minute) scale() float64 {
	if s.Scale <= 0 {
		return 1
	}
	return s.Scale
}

// MinuteResult is what a modeled minute measured.
type MinuteResult struct {
	// Calls made, and those that returned an error (by call).
	Calls  int
	Failed int
	Errors map[int]error
	// Attempts is how many attempts the meter saw (retries included);
	// Throttles how many it refused.
	Attempts, Throttles int
	// RetriedBySDK and RetriedByEngine count the throttled attempts that
	// were sent again: by the SDK's retryer in the same request, or by the
	// engine in a new one. GivenUp counts those that were not, each in a
	// call that returned table.ErrThrottled. Throttles = RetriedBySDK +
	// RetriedByEngine + GivenUp.
	RetriedBySDK, RetriedByEngine, GivenUp int
	// Throttled counts the refused attempts by key shape ("GSI1
	// SCHED#DUE"), a request refused on several keys once per key.
	Throttled map[string]int
	// Hottest is the partition that took the most units in one modeled
	// second, Second that second, and PerSecond its units in it, at full
	// scale (divided by Scale).
	Hottest   Partition
	Second    int64
	PerSecond Usage
	// Spanned is the modeled seconds from the first call to the last
	// attempt (retries push it past Seconds).
	Spanned int64
}

// minuteRun is the state of a run, kept by the meter under its lock.
type minuteRun struct {
	s          Minute
	windows    map[int64]map[Partition]Usage
	res        MinuteResult
	last       int64
	throttleOn map[string]int
}

// minuteCall is one call of a run: its modeled clock and its requests.
type minuteCall struct {
	i      int
	start  float64 // modeled seconds
	delay  float64 // modeled backoff so far
	chains map[string]*minuteChain
}

// minuteChain is one request of a call and its retries.
type minuteChain struct {
	last     *meterPlan // the invocation of the last attempt
	attempts int
	engine   int  // engine retries so far
	pending  bool // the last attempt was throttled and not yet retried
}

type minuteCallKey struct{ m *Meter }

// RunMinute runs s through meter m: Calls() calls at their modeled
// instants, with the meter throttling each key past its scaled limit in
// each modeled second, and enforces the contract of [Minute]. The meter's
// charges are reset first; its throttling settings are restored after.
// The client under test must carry [MinuteRetries] (and the table
// table.Options.BatchBackoff of a microsecond), so that the run does not
// wait for real.
func RunMinute(t testing.TB, m *Meter, s Minute) MinuteResult {
	t.Helper()
	if s.PerSecond <= 0 || s.Call == nil {
		t.Fatalf("minute %s: PerSecond and Call are required", s.Name)
	}
	if s.MinAttempts <= 0 {
		s.MinAttempts = 3
	}
	if s.SDKBackoff == nil {
		s.SDKBackoff = func(k int) time.Duration { return min(20*time.Second, time.Second<<min(k, 20)) / 2 }
	}
	if s.EngineBackoff == nil {
		s.EngineBackoff = func(n int) time.Duration {
			d := min(25*time.Millisecond<<min(n, 20), time.Second)
			return d * 3 / 4
		}
	}
	n, scale, rate := s.Calls(), s.scale(), s.PerSecond*s.scale()
	m.mu.Lock()
	saved := [4]any{m.Throttle, m.WriteLimit, m.ReadLimit, m.RequestsPerSecond}
	m.RequestsPerSecond = 0 // the modeled clock moves the seconds
	m.keys, m.items, m.window = nil, nil, nil
	m.requests, m.sent, m.throttled = 0, 0, 0
	m.Throttle = true
	m.WriteLimit, m.ReadLimit = PartitionWriteLimit*scale, PartitionReadLimit*scale
	run := &minuteRun{s: s, windows: map[int64]map[Partition]Usage{}, throttleOn: map[string]int{}}
	run.res.Calls, run.res.Errors = n, map[int]error{}
	m.minute = run
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		m.minute = nil
		m.Throttle, m.WriteLimit, m.ReadLimit, m.RequestsPerSecond = saved[0].(bool), saved[1].(float64), saved[2].(float64), saved[3].(int)
		m.mu.Unlock()
	}()

	for i := range n {
		call := &minuteCall{i: i, start: float64(i) / rate, chains: map[string]*minuteChain{}}
		err := s.Call(context.WithValue(context.Background(), minuteCallKey{m}, call), i)
		m.mu.Lock()
		gaveUp := 0
		for fp, ch := range call.chains {
			if !ch.pending {
				continue
			}
			gaveUp++
			run.res.GivenUp++
			if err == nil {
				t.Errorf("minute %s: call %d: a throttle was swallowed: request %s throttled on its last attempt, and the call succeeded", s.Name, i, fp)
			} else if ch.attempts < s.MinAttempts {
				t.Errorf("minute %s: call %d: gave up %s after %d attempts, want at least %d (%v)", s.Name, i, fp, ch.attempts, s.MinAttempts, err)
			}
		}
		m.mu.Unlock()
		if err == nil {
			continue
		}
		run.res.Failed++
		run.res.Errors[i] = err
		switch {
		case !errors.Is(err, table.ErrThrottled):
			t.Errorf("minute %s: call %d failed, not by throttling: %v", s.Name, i, err)
		case gaveUp == 0:
			t.Errorf("minute %s: call %d returned ErrThrottled, but no request of it was given up throttled: %v", s.Name, i, err)
		}
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	res := run.res
	res.Attempts, res.Throttles = m.sent, m.throttled
	res.Throttled = run.throttleOn
	res.Spanned = run.last + 1
	type hot struct {
		p   Partition
		sec int64
		u   Usage
	}
	var best hot
	for sec, w := range run.windows {
		for p, u := range w {
			if l := u.Load(); l > best.u.Load() || (l == best.u.Load() && l > 0 && (sec < best.sec || sec == best.sec && p.String() < best.p.String())) {
				best = hot{p, sec, u}
			}
		}
	}
	res.Hottest, res.Second, res.PerSecond = best.p, best.sec, best.u.Scaled(1/scale)
	if res.Throttles != res.RetriedBySDK+res.RetriedByEngine+res.GivenUp {
		t.Errorf("minute %s: %d throttles, but %d retried by the SDK + %d by the engine + %d given up", s.Name, res.Throttles, res.RetriedBySDK, res.RetriedByEngine, res.GivenUp)
	}
	var on []string
	for k, v := range res.Throttled {
		on = append(on, fmt.Sprintf("%s %d", k, v))
	}
	slices.Sort(on)
	t.Logf("minute %s: %d calls in %d modeled s (%s/s modeled, scale %g, limits %s WCU / %s RCU per key-second): %d attempts, %d throttled (%d retried by the SDK, %d by the engine, %d given up), %d calls failed; hottest key-second %s at s%d: %s (full scale)%s",
		s.Name, n, s.seconds(), thousands(s.PerSecond), scale, units(PartitionWriteLimit*scale), units(PartitionReadLimit*scale),
		res.Attempts, res.Throttles, res.RetriedBySDK, res.RetriedByEngine, res.GivenUp, res.Failed,
		m.shapeLocked(res.Hottest), res.Second, perSecond(res.PerSecond), throttledOn(on))
	return res
}

func throttledOn(on []string) string {
	if len(on) == 0 {
		return ""
	}
	return "; throttled on " + strings.Join(on, ", ")
}

// minuteAttempt accounts for an attempt of p in a modeled-minute run
// (with m.mu held): whether it retries a throttled one, and its modeled
// second (p.sec). It returns nil outside a run.
func (m *Meter) minuteAttempt(ctx context.Context, p *meterPlan) *minuteCall {
	run := m.minute
	call, _ := ctx.Value(minuteCallKey{m}).(*minuteCall)
	if run == nil || call == nil {
		return nil
	}
	ch := call.chains[p.fp]
	if ch == nil {
		ch = &minuteChain{}
		call.chains[p.fp] = ch
	}
	if ch.pending {
		if ch.last == p {
			run.res.RetriedBySDK++
			call.delay += run.s.SDKBackoff(p.attempts).Seconds()
		} else {
			run.res.RetriedByEngine++
			call.delay += run.s.EngineBackoff(ch.engine).Seconds()
			ch.engine++
		}
		ch.pending = false
	}
	ch.last = p
	ch.attempts++
	p.attempts++
	p.sec, p.timed = int64(math.Floor(call.start+call.delay)), true
	run.last = max(run.last, p.sec)
	if run.windows[p.sec] == nil {
		run.windows[p.sec] = map[Partition]Usage{}
	}
	return call
}

// minuteThrottled records that the attempt of p was refused (m.mu held).
func (m *Meter) minuteThrottled(call *minuteCall, p *meterPlan) {
	call.chains[p.fp].pending = true
	wl, rl := m.WriteLimit, m.ReadLimit
	w := m.minute.windows[p.sec]
	for _, ts := range p.touches() {
		for _, t := range ts {
			if u := w[t.p]; (t.write && u.Write >= wl) || (!t.write && u.Read >= rl) {
				m.minute.throttleOn[m.shapeLocked(t.p)]++
			}
		}
	}
}

// beginInvocation gives p its fingerprint in a modeled-minute run: the
// request's operation and the keys it names, so that the engine's resend
// of a throttled request is known as its retry.
func (m *Meter) beginInvocation(ctx context.Context, p *meterPlan) {
	if _, ok := ctx.Value(minuteCallKey{m}).(*minuteCall); !ok {
		return
	}
	p.fp = p.fingerprint()
}

// chargeSecond adds u to p's partition in the modeled second of its last
// attempt (m.mu held).
func (m *Meter) chargeSecond(p *meterPlan, pt Partition, u Usage) {
	if !p.timed || m.minute == nil {
		return
	}
	w := m.minute.windows[p.sec]
	if w == nil {
		w = map[Partition]Usage{}
		m.minute.windows[p.sec] = w
	}
	k := w[pt]
	k.Read += u.Read
	k.Write += u.Write
	w[pt] = k
}

// fingerprint names the request by its operation and the keys it names.
func (p *meterPlan) fingerprint() string {
	var b strings.Builder
	b.WriteString(p.op)
	for _, w := range p.writes {
		fmt.Fprintf(&b, " w:%s:%s", w.t.name, w.t.ref(w.key))
		if w.check {
			b.WriteString("?")
		}
	}
	for _, r := range p.reads {
		fmt.Fprintf(&b, " r:%s:%s", r.t.name, r.t.ref(r.key))
	}
	if in := p.query; in != nil {
		fmt.Fprintf(&b, " %s/%s %s", aws.ToString(in.TableName), aws.ToString(in.IndexName), aws.ToString(in.KeyConditionExpression))
		fmt.Fprintf(&b, " %s %s", avText(in.ExpressionAttributeValues), avText(in.ExclusiveStartKey))
	}
	if in := p.scan; in != nil {
		fmt.Fprintf(&b, " %s/%s %d/%d %s", aws.ToString(in.TableName), aws.ToString(in.IndexName), aws.ToInt32(in.Segment), aws.ToInt32(in.TotalSegments), avText(in.ExclusiveStartKey))
	}
	return b.String()
}

func avText(m map[string]types.AttributeValue) string {
	ks := make([]string, 0, len(m))
	for k, v := range m {
		ks = append(ks, k+"="+keyValue(v))
	}
	slices.Sort(ks)
	return strings.Join(ks, ",")
}

// MinuteRetries makes a client retry as the SDK's standard retryer does
// (3 attempts, throttles retried) without waiting for real and without the
// client-side retry quota, for [RunMinute], whose model counts the backoff
// on the modeled clock instead.
func MinuteRetries() func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return 0, nil })
			so.RateLimiter = ratelimit.None
		})
	}
}
