package web_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkChangesWake is issue 35's waiting on the change feed, over
// loopback: 1,000 requests (20 credentials, 50 each) hold
// GET /v1/changes?since=<next>&wait=60 open; one task is created; each
// waiter's answer is timed from the create's start.
//
// The 1,000 clients run in a child process (this test binary again, as
// TestChangesWakeClients), so that every figure below is the server's
// alone: this process holds the server and the benchmark, nothing else.
//
//	wake-p50-ms, wake-max-ms: the waiters' answers after the write, as
//	               the clients read them (wall clock, one machine)
//	idle-cpu-ms/s: the server process's CPU time per second of a 2 s
//	               window while all wait
//	idle-MB:       heap and stacks grown by the 1,000 waits (the most of
//	               any round)
//	rss-MB:        the server process's resident set while all wait (the
//	               most of any round; Linux only)
//	rss-grown-MB:  how much the waits grew it (the most of any round)
//
// Memory a process once took it keeps, so that only a process's first
// round shows what the waits cost: read the memory figures of a run with
// -benchtime 1x, which runs one round in a fresh process.
func BenchmarkChangesWake(b *testing.B) {
	s, _, err := openBenchServer(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.close()
	const creds, each = 20, 50
	tokens := make([]string, creds)
	for i := range tokens {
		tokens[i] = issueBenchToken(b, s, map[string]any{"title": fmt.Sprintf("waiter %d", i)})
	}
	var wake, idleCPU latencies
	var inUse uint64
	var rss, grown float64
	for range b.N {
		next := nextWait(b, s)
		before := memInUse()
		base := residentMB()
		clients := startWakeClients(b, wakeClients{Addr: s.srv.Listener.Addr().String(), Path: next, Tokens: tokens, Each: each})
		for s.svc.IdleWaits() < creds*each { // until all have read and wait
			runtime.Gosched()
		}
		inUse = max(inUse, memInUse()-before)
		rss = max(rss, residentMB())
		grown = max(grown, residentMB()-base)
		cpu0, _ := processCPU()
		time.Sleep(idleWindow) // the idle window whose CPU is measured
		cpu1, _ := processCPU()
		idleCPU = append(idleCPU, (cpu1-cpu0)/(idleWindow/time.Second))
		wake = append(wake, timeWake(b, s, clients)...)
	}
	b.ReportMetric(wake.pct(0.50), "wake-p50-ms")
	b.ReportMetric(wake.pct(1), "wake-max-ms")
	b.ReportMetric(idleCPU.pct(0.50), "idle-cpu-ms/s")
	b.ReportMetric(float64(inUse)/(1<<20), "idle-MB")
	if rss > 0 {
		b.ReportMetric(rss, "rss-MB")
		b.ReportMetric(grown, "rss-grown-MB")
	}
}

// wakeClients is what the child process of BenchmarkChangesWake is told:
// where to send GET Path, and Each requests for every credential.
type wakeClients struct {
	Addr   string
	Path   string
	Tokens []string
	Each   int
}

// wakeChild is a running child process of clients.
type wakeChild struct {
	cmd *exec.Cmd
	out *bufio.Scanner
}

// wakeClientsEnv carries a wakeClients, as JSON, to the child process.
const wakeClientsEnv = "TEND_WAKE_CLIENTS"

// startWakeClients starts the child process and returns once it has sent
// every request.
func startWakeClients(b *testing.B, w wakeClients) *wakeChild {
	b.Helper()
	spec, _ := json.Marshal(w)
	cmd := exec.Command(os.Args[0], "-test.run=^TestChangesWakeClients$", "-test.count=1")
	cmd.Env = append(os.Environ(), wakeClientsEnv+"="+string(spec))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	c := &wakeChild{cmd: cmd, out: bufio.NewScanner(out)}
	if !c.out.Scan() || c.out.Text() != "sent" {
		b.Fatalf("the clients did not start: %q (%v)", c.out.Text(), c.out.Err())
	}
	return c
}

// arrivals reads when each answer arrived, once all have, and waits for
// the child to end.
func (c *wakeChild) arrivals(b *testing.B) []time.Time {
	b.Helper()
	var at []time.Time
	for c.out.Scan() {
		if l := c.out.Text(); l != "PASS" && !strings.HasPrefix(l, "ok") {
			ns, err := strconv.ParseInt(l, 10, 64)
			if err != nil {
				b.Fatalf("the clients said %q", l)
			}
			at = append(at, time.Unix(0, ns))
		}
	}
	if err := c.cmd.Wait(); err != nil {
		b.Fatal(err)
	}
	return at
}

// TestChangesWakeClients is BenchmarkChangesWake's child process: with
// TEND_WAKE_CLIENTS set it sends the requests over plain connections, says
// "sent", and prints when each answer was read in full (Unix nanoseconds,
// one a line). Run otherwise, it does nothing.
func TestChangesWakeClients(t *testing.T) {
	spec := os.Getenv(wakeClientsEnv)
	if spec == "" {
		t.Skip("the child process of BenchmarkChangesWake")
	}
	var w wakeClients
	if err := json.Unmarshal([]byte(spec), &w); err != nil {
		t.Fatal(err)
	}
	arrived := make([]time.Time, len(w.Tokens)*w.Each)
	var wg sync.WaitGroup
	for i := range arrived {
		conn, err := net.Dial("tcp", w.Addr)
		if err != nil {
			t.Fatal(err)
		}
		_, err = fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n", w.Path, w.Addr, w.Tokens[i%len(w.Tokens)])
		if err != nil {
			t.Fatal(err)
		}
		// Each connection stays open until every answer has come, as a
		// client's would to ask again.
		defer conn.Close()
		wg.Go(func() {
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, res.Body)
			arrived[i] = time.Now()
			if res.StatusCode != http.StatusOK {
				t.Errorf("status %d", res.StatusCode)
			}
		})
	}
	fmt.Println("sent")
	wg.Wait()
	for _, at := range arrived {
		fmt.Println(at.UnixNano())
	}
}

// idleWindow is how long the waiters sit idle while the process's CPU
// time is measured.
const idleWindow = 2 * time.Second

// residentMB is the process's resident set in MB from /proc, 0 where
// there is none.
func residentMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for l := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// lastSeq is the seq of the last event of a change feed page.
func lastSeq(b *testing.B, body []byte) int64 {
	var page struct {
		Items []struct {
			Seq int64 `json:"seq"`
		} `json:"items"`
	}
	if err := json.Unmarshal(body, &page); err != nil || len(page.Items) == 0 {
		b.Fatalf("no event in %s (%v)", body, err)
	}
	return page.Items[len(page.Items)-1].Seq
}

// memInUse is the heap and goroutine stacks in use, after a collection.
func memInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}

// BenchmarkChangesWakeOne is the wake's latency apart from its
// throughput: one request holds GET /v1/changes?wait=60 open (from the
// same child process as BenchmarkChangesWake's), one task is created, and
// the answer is timed from the create's start. Run it with -benchtime
// 200x for a p50 worth reading.
func BenchmarkChangesWakeOne(b *testing.B) {
	s, _, err := openBenchServer(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.close()
	tokens := []string{issueBenchToken(b, s, map[string]any{"title": "waiter"})}
	var wake latencies
	for range b.N {
		clients := startWakeClients(b, wakeClients{Addr: s.srv.Listener.Addr().String(), Path: nextWait(b, s), Tokens: tokens, Each: 1})
		for s.svc.IdleWaits() < 1 {
			runtime.Gosched()
		}
		wake = append(wake, timeWake(b, s, clients)...)
	}
	b.ReportMetric(wake.pct(0.50), "wake-p50-ms")
	b.ReportMetric(wake.pct(0.99), "wake-p99-ms")
}

// nextWait is the long poll for the event after the newest one.
func nextWait(b *testing.B, s *seeded) string {
	body, _ := s.get(b, "/v1/changes?limit=1")
	return fmt.Sprintf("/v1/changes?since=%d&wait=60", lastSeq(b, body)+1)
}

// timeWake creates a task and answers how long after the create began
// each of the clients' answers arrived.
func timeWake(b *testing.B, s *seeded, clients *wakeChild) latencies {
	t0 := time.Now()
	var created map[string]any
	s.create(b, "/v1/tasks", map[string]any{"title": "wakes the waiters"}, &created)
	var wake latencies
	for _, at := range clients.arrivals(b) {
		wake = append(wake, at.Sub(t0))
	}
	return wake
}
