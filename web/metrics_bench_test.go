package web_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"tend/app"
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

// BenchmarkMetricsScrape is one scrape of /metrics after every route has
// answered twice (as the administrator and without a credential, so with
// two or more statuses each): the series a long-running instance carries.
// "listener" is the --metrics-addr handler; "main" is GET /metrics on the
// main listener with the administrator's token, the check included. Both
// over loopback, gzip as Prometheus asks for it, or identity.
func BenchmarkMetricsScrape(b *testing.B) {
	e := newMetricsEnv(b, app.Limits{})
	routes := everyRoute(b)
	for _, rt := range routes {
		for _, token := range []string{e.admin, ""} {
			req, _ := http.NewRequest(rt[0], e.srv.URL+rt[1], bytes.NewReader(nil))
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			res, err := e.srv.Client().Do(req)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}
	own := httptest.NewServer(e.metrics.Handler())
	b.Cleanup(own.Close)
	for _, c := range []struct{ name, url, token, encoding string }{
		{"listener/gzip", own.URL + "/metrics", "", "gzip"},
		{"listener/identity", own.URL + "/metrics", "", "identity"},
		{"main/gzip", e.srv.URL + "/metrics", e.admin, "gzip"},
	} {
		b.Run(c.name, func(b *testing.B) {
			req, _ := http.NewRequest(http.MethodGet, c.url, nil)
			req.Header.Set("Accept-Encoding", c.encoding)
			if c.token != "" {
				req.Header.Set("Authorization", "Bearer "+c.token)
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
				size = len(body)
				if c.encoding == "identity" {
					lines = bytes.Count(body, []byte("\n"))
				}
			}
			scrape()
			b.ReportAllocs()
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				scrape()
			}
			b.ReportMetric(float64(size), "bytes/scrape")
			if lines > 0 {
				b.ReportMetric(float64(lines), "lines/scrape")
			}
		})
	}
}
