package web_test

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tend/app"
)

// benchLimits lets a benchmark run set the expensive-read slots
// (TEND_BENCH_EXPENSIVE_READS; a large number lifts the bound, as before
// issue 9) and budget (TEND_BENCH_READ_BUDGET_MS).
func benchLimits() app.Limits {
	slots, _ := strconv.Atoi(os.Getenv("TEND_BENCH_EXPENSIVE_READS"))
	budget, _ := strconv.Atoi(os.Getenv("TEND_BENCH_READ_BUDGET_MS"))
	return app.Limits{ExpensiveReads: slots, ReadBudgetMillis: budget}
}

// BenchmarkSeededMeUnderSearches is GET /v1/me, one request at a time,
// while eight clients run a broad search (TEND_BENCH_SEARCH, default
// "seeded", which every seeded title matches) over and over, each retrying
// at once when refused. It reports the latency of /v1/me and what became
// of the searches.
func BenchmarkSeededMeUnderSearches(b *testing.B) {
	const searchers = 8
	s := seededEnv(b)
	q := os.Getenv("TEND_BENCH_SEARCH")
	if q == "" {
		q = "seeded"
	}
	// The searchers wait as long as a search takes: unbounded, one can
	// outlast the shared client's timeout.
	slow := benchClient()
	slow.Timeout = 0
	stop := make(chan struct{})
	var answered, refused, overBudget atomic.Int64
	var wg sync.WaitGroup
	for range searchers {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				req, _ := http.NewRequest(http.MethodGet, s.srv.URL+"/v1/tasks?limit=50&q="+url.QueryEscape(q), nil)
				req.Header.Set("Authorization", "Bearer "+s.token)
				res, err := slow.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				switch res.StatusCode {
				case http.StatusOK:
					answered.Add(1)
				case http.StatusServiceUnavailable:
					if res.Header.Get("Retry-After") == "1" {
						refused.Add(1)
					} else {
						overBudget.Add(1)
					}
				default:
					b.Errorf("search answered %d", res.StatusCode)
					return
				}
			}
		})
	}
	lat := make(latencies, 0, b.N)
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		_, took := s.get(b, "/v1/me")
		lat = append(lat, took)
	}
	took := time.Since(start)
	b.StopTimer()
	close(stop)
	wg.Wait()
	lat.report(b)
	b.ReportMetric(float64(answered.Load())/took.Seconds(), "searches/s")
	b.ReportMetric(float64(refused.Load())/took.Seconds(), "refused/s")
	b.ReportMetric(float64(overBudget.Load()), "over-budget")
}
