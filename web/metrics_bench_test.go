package web_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"tend/app"
	"tend/web"
)

// routeRE finds every route registration in the sources.
var routeRE = regexp.MustCompile(`s\.(?:handle|page|router\.Handler(?:Func)?)\(http\.Method(\w+), "([^"]+)"`)

// everyRoute lists the method and a concrete path of every route server.go
// and page.go register, parameters filled with "1".
func everyRoute(tb testing.TB) [][2]string {
	tb.Helper()
	var out [][2]string
	for _, f := range []string{"server.go", "page.go"} {
		src, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for _, m := range routeRE.FindAllStringSubmatch(string(src), -1) {
			path := regexp.MustCompile(`[:*]\w+`).ReplaceAllString(m[2], "1")
			out = append(out, [2]string{strings.ToUpper(m[1]), path})
		}
	}
	if len(out) < 100 {
		tb.Fatalf("found %d routes in the sources; the pattern no longer matches how routes are registered", len(out))
	}
	return out
}

// BenchmarkMetricsScrape is one scrape of /metrics: "fresh" on an instance
// that has answered nothing yet; "listener" (the --metrics-addr handler)
// and "main" (GET /metrics on the main listener with the administrator's
// token, the check included) after every route has answered twice, as the
// administrator and without a credential, so with two statuses or more
// each: the most series an instance carries.
func BenchmarkMetricsScrape(b *testing.B) {
	e := newMetricsEnv(b, app.Limits{})
	own := httptest.NewServer(e.metrics.Handler())
	b.Cleanup(own.Close)
	b.Run("fresh", func(b *testing.B) { benchScrape(b, own.URL+"/metrics", "") })
	for _, rt := range everyRoute(b) {
		for _, token := range []string{e.Admin, ""} {
			req, _ := http.NewRequest(rt[0], e.Srv.URL+rt[1], bytes.NewReader(nil))
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			res, err := e.Srv.Client().Do(req)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}
	b.Run("listener", func(b *testing.B) { benchScrape(b, own.URL+"/metrics", "") })
	b.Run("main", func(b *testing.B) { benchScrape(b, e.Srv.URL+"/metrics", e.Admin) })
}

// benchScrape scrapes url over loopback, asking for gzip as Prometheus does
// (and answered plain), and reports the size of the answer.
func benchScrape(b *testing.B, url, token string) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	var size, lines int
	scrape := func() {
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("status %d\n%s", res.StatusCode, body)
		}
		if res.Header.Get("Content-Encoding") != "" {
			b.Fatalf("answered with Content-Encoding %s", res.Header.Get("Content-Encoding"))
		}
		size, lines = len(body), bytes.Count(body, []byte("\n"))
	}
	scrape()
	b.ReportAllocs()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		scrape()
	}
	b.ReportMetric(float64(size), "bytes/scrape")
	b.ReportMetric(float64(lines), "lines/scrape")
}

// BenchmarkMeWithMetrics is BenchmarkMeOverLoopback's GET /v1/me with the
// access log written (to io.Discard) and, in "on", the request counted and
// timed into the metrics as tend serve does.
func BenchmarkMeWithMetrics(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := map[bool]string{false: "off", true: "on"}[on]
		b.Run(name, func(b *testing.B) {
			svc, secret := benchService(b)
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			h := web.NewServer(svc, log)
			if on {
				h.ServeMetrics(web.NewMetrics(log, "bench"))
			}
			srv := httptest.NewServer(h)
			b.Cleanup(srv.Close)
			benchMe(b, srv, secret)
		})
	}
}
