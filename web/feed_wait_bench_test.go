package web_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
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
//	wake-p50-ms, wake-max-ms: the waiters' answers after the write
//	idle-cpu-ms/s: the process's CPU time per second of a 2 s window
//	               while all wait
//	idle-MB:       heap and stacks grown by the 1,000 waits (the most of
//	               any round), the client's side included: both run here
//	rss-MB:        the process's resident set while all wait (the most of
//	               any round; Linux only), server and clients together
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
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: creds * each}}
	var wake, idleCPU latencies
	var grown uint64
	var rss float64
	for range b.N {
		since := s.svc.Waiting() // 0: every earlier wait has answered
		body, _ := s.get(b, "/v1/changes?limit=1")
		next := fmt.Sprintf("/v1/changes?since=%d&wait=60", lastSeq(b, body)+1)
		before := memInUse()
		var wg sync.WaitGroup
		arrived := make([]time.Time, creds*each)
		for i := range arrived {
			wg.Go(func() {
				req, _ := http.NewRequest(http.MethodGet, s.srv.URL+next, nil)
				req.Header.Set("Authorization", "Bearer "+tokens[i%creds])
				res, err := client.Do(req)
				if err == nil {
					_, _ = io.Copy(io.Discard, res.Body)
					_ = res.Body.Close()
				}
				arrived[i] = time.Now()
			})
		}
		for s.svc.Waiting() < since+creds*each {
			runtime.Gosched()
		}
		grown = max(grown, memInUse()-before)
		rss = max(rss, residentMB())
		cpu0, _ := processCPU()
		time.Sleep(idleWindow) // the idle window whose CPU is measured
		cpu1, _ := processCPU()
		idleCPU = append(idleCPU, (cpu1-cpu0)/(idleWindow/time.Second))
		t0 := time.Now()
		var created map[string]any
		s.create(b, "/v1/tasks", map[string]any{"title": "wakes them"}, &created)
		wg.Wait()
		for _, at := range arrived {
			wake = append(wake, at.Sub(t0))
		}
	}
	b.ReportMetric(wake.pct(0.50), "wake-p50-ms")
	b.ReportMetric(wake.pct(1), "wake-max-ms")
	b.ReportMetric(idleCPU.pct(0.50), "idle-cpu-ms/s")
	b.ReportMetric(float64(grown)/(1<<20), "idle-MB")
	if rss > 0 {
		b.ReportMetric(rss, "rss-MB")
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
