package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config is what one run needs: where the server is, its credential, and
// the sizes.
type Config struct {
	URL, Token string
	Tasks      int       // seeded into the large project
	Requests   int       // per load
	Progress   io.Writer // a line per load as it finishes; nil for none
	// ServerPID, when above 0, is the server's process: each load also
	// records the CPU it used (serverCPU), where the system has /proc.
	ServerPID int
}

// Run is one server measured: the seed, then every load.
type Run struct {
	Label string `json:"label"`
	Rev   string `json:"rev"`
	Round int    `json:"round"`
	// Started is when the seed began, for the record.
	Started     time.Time `json:"started"`
	Tasks       int       `json:"tasks"`
	SeedSeconds float64   `json:"seed_seconds"`
	// LoadAvg is /proc/loadavg's 1-minute figure before the seed and after
	// the last load, where the system has one.
	LoadAvgStart string   `json:"loadavg_start,omitempty"`
	LoadAvgEnd   string   `json:"loadavg_end,omitempty"`
	Results      []Result `json:"results"`
}

// Result is one load's figures in one run.
type Result struct {
	Load     string  `json:"load"`
	Requests int     `json:"requests"`
	Workers  int     `json:"workers"`
	Seconds  float64 `json:"seconds"`
	PerSec   float64 `json:"per_sec"`
	P50ms    float64 `json:"p50_ms"`
	P99ms    float64 `json:"p99_ms"`
	// ServerCPUus is the server process's CPU (user and system, every
	// thread) over the load, in microseconds a request; 0 when not
	// measured. On a shared machine it moves far less than req/s: a
	// neighbour's work delays the server but does not add to its CPU.
	ServerCPUus float64 `json:"server_cpu_us,omitempty"`
	// Failed counts the answers that were not a 2xx (or not a result, for
	// MCP) and the requests that got no answer; FirstFailure shows one.
	Failed       int    `json:"failed"`
	FirstFailure string `json:"first_failure,omitempty"`
	// Unsupported says why this revision cannot run the load (it predates
	// the feature); nothing was measured then.
	Unsupported string `json:"unsupported,omitempty"`
}

// target is the server under test, with what the seed left behind.
type target struct {
	base, token string
	client      *http.Client
	refs        []int64 // the seeded tasks' refs, in seeding order
	pid         int     // the server's process, 0 when not known
}

func newTarget(cfg Config) *target {
	tr := &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64, IdleConnTimeout: time.Minute, DisableCompression: true}
	return &target{base: strings.TrimRight(cfg.URL, "/"), token: cfg.Token, pid: cfg.ServerPID,
		client: &http.Client{Transport: tr, Timeout: time.Minute}}
}

// request builds an authenticated request; a body is sent as JSON.
func (t *target) request(ctx context.Context, method, path string, body []byte) *http.Request {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, t.base+path, rd)
	if err != nil {
		panic(err) // the paths and methods are the harness's own constants
	}
	req.Header.Set("Authorization", "Bearer "+t.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// call sends one request outside a timed loop and answers its status and body.
func (t *target) call(req *http.Request) (int, []byte, error) {
	res, err := t.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// Measure seeds the server at cfg.URL and runs every load against it. A
// load that gets any answer but a 2xx is reported, and the error names
// it, after the other loads have run; a seed that fails ends the run.
func Measure(ctx context.Context, cfg Config) (run Run, err error) {
	run = Run{Tasks: cfg.Tasks, Started: time.Now().UTC(), LoadAvgStart: loadAvg()}
	defer func() { run.LoadAvgEnd = loadAvg() }()
	t := newTarget(cfg)
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}
	if err := t.waitReady(ctx); err != nil {
		return run, err
	}
	seeded, err := t.seed(ctx, cfg.Tasks)
	if err != nil {
		return run, fmt.Errorf("seeding: %w", err)
	}
	run.SeedSeconds = seeded.Seconds()
	fmt.Fprintf(progress, "  seeded %d tasks in %.1f s\n", cfg.Tasks, run.SeedSeconds)
	var failed []string
	for _, l := range loads {
		if err := ctx.Err(); err != nil {
			return run, err
		}
		r, err := t.runLoad(ctx, l, cfg.Requests)
		if err != nil {
			return run, fmt.Errorf("%s: %w", l.name, err)
		}
		run.Results = append(run.Results, r)
		fmt.Fprintf(progress, "  %s\n", r.line(l.name))
		if r.Failed > 0 {
			failed = append(failed, fmt.Sprintf("%s: %d of %d requests failed, e.g. %s", l.name, r.Failed, r.Requests, r.FirstFailure))
		}
	}
	if len(failed) > 0 {
		return run, errors.New(strings.Join(failed, "\n"))
	}
	return run, nil
}

func (r Result) line(name string) string {
	switch {
	case r.Unsupported != "":
		return fmt.Sprintf("%-34s unsupported: %s", name, r.Unsupported)
	case r.Failed > 0:
		return fmt.Sprintf("%-34s FAILED %d of %d: %s", name, r.Failed, r.Requests, r.FirstFailure)
	}
	line := fmt.Sprintf("%-34s %8.0f req/s  p50 %6.2f ms  p99 %6.2f ms", name, r.PerSec, r.P50ms, r.P99ms)
	if r.ServerCPUus > 0 {
		line += fmt.Sprintf("  server CPU %5.0f µs/req", r.ServerCPUus)
	}
	return line
}

// waitReady polls /healthz until the server answers, for a few seconds.
func (t *target) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, t.base+"/healthz", nil)
		status, _, err := t.call(req)
		if err == nil && status == http.StatusOK {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("the server at %s is not ready (status %d, %v)", t.base, status, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// runLoad probes whether the revision supports l, then times it.
func (t *target) runLoad(ctx context.Context, l load, n int) (Result, error) {
	if l.probe != nil {
		unsupported, err := l.probe(ctx, t)
		if err != nil {
			return Result{}, err
		}
		if unsupported != "" {
			return Result{Load: l.key, Workers: l.workers, Unsupported: unsupported}, nil
		}
	}
	before, cpuOK := serverCPU(t.pid)
	r := t.drive(ctx, l, n)
	if after, ok := serverCPU(t.pid); cpuOK && ok && r.Requests > 0 {
		r.ServerCPUus = float64(after-before) / float64(time.Microsecond) / float64(r.Requests)
	}
	return r, nil
}

// serverCPU is the user and system time process pid has used, all its
// threads, from /proc/PID/stat; false without /proc or a pid. The figures
// are in USER_HZ ticks, which Linux fixes at 100 a second for /proc.
func serverCPU(pid int) (time.Duration, bool) {
	if pid <= 0 {
		return 0, false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The command's name, in parentheses, may hold spaces: count fields
	// from after it. utime and stime are the stat's 14th and 15th fields.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	user, err1 := strconv.ParseInt(f[11], 10, 64)
	sys, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(user+sys) * (time.Second / 100), true
}

// drive sends n requests of load l from l.workers clients at once and
// times each from sending it to reading the last byte of its answer.
func (t *target) drive(ctx context.Context, l load, n int) Result {
	lat := make([]time.Duration, n)
	var next, failed atomic.Int64
	var firstOnce sync.Once
	var first string
	var wg sync.WaitGroup
	start := time.Now()
	for range l.workers {
		wg.Go(func() {
			var body bytes.Buffer
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				req := l.request(ctx, t, i)
				t0 := time.Now()
				status, err := t.send(req, &body)
				lat[i] = time.Since(t0)
				if err == nil && (status < 200 || status > 299) {
					err = fmt.Errorf("%d %s", status, clip(body.Bytes()))
				}
				if err == nil && l.check != nil {
					err = l.check(t, i, body.Bytes())
				}
				if err != nil {
					failed.Add(1)
					firstOnce.Do(func() { first = fmt.Sprintf("%s %s: %v", req.Method, req.URL.RequestURI(), err) })
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := ctx.Err(); err != nil && failed.Load() == 0 {
		failed.Add(1)
		first = err.Error()
	}
	slices.Sort(lat)
	return Result{Load: l.key, Requests: n, Workers: l.workers, Seconds: elapsed.Seconds(),
		PerSec: float64(n) / elapsed.Seconds(), P50ms: ms(quantile(lat, 0.50)), P99ms: ms(quantile(lat, 0.99)),
		Failed: int(failed.Load()), FirstFailure: first}
}

// send does one request and reads the whole answer into body.
func (t *target) send(req *http.Request, body *bytes.Buffer) (int, error) {
	res, err := t.client.Do(req)
	if err != nil {
		return 0, err
	}
	body.Reset()
	_, err = body.ReadFrom(res.Body)
	res.Body.Close()
	return res.StatusCode, err
}

// quantile is the nearest-rank quantile of sorted durations.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(i, 0)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// clip shortens an answer quoted in a failure.
func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// loadAvg is the 1-minute load average, "" where /proc/loadavg is missing.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
