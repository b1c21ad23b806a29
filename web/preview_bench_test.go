package web_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"tend/app"
	"tend/web/wire"
)

// BenchmarkSeededPreview POSTs captured lines to /v1/tasks/preview on the
// seeded workspace of 100,000 tasks (seed_bench_test.go), one request at a
// time over loopback, and reports each line's latencies: the issue's
// target is the preview answering in 20 ms or less at the median. The
// lines are read with a bearer credential, as an API client sends them,
// and one of them with a session cookie and its Origin, as the quick-add
// box's script sends it (the session check and the cross-origin check
// included).
func BenchmarkSeededPreview(b *testing.B) {
	s := seededEnv(b)
	bearer := http.Header{"Authorization": {"Bearer " + s.token}}
	for _, c := range []struct {
		name, line string
		as         http.Header
		status     int
	}{
		{"plain", `{"text": "Buy milk"}`, bearer, http.StatusOK},
		{"markers", `{"text": "Call the bank tomorrow 9am !4/3 ~30m #finance +p03"}`, bearer, http.StatusOK},
		{"repeat", `{"text": "Call the bank tomorrow 9am !4 #finance every month"}`, bearer, http.StatusOK},
		{"weekly", `{"text": "Weekly review every friday at 16:00 +p07"}`, bearer, http.StatusOK},
		{"subproject_tags", `{"text": "Dentist next tuesday at 3pm #tag01 #tag02 #new-tag +p13"}`, bearer, http.StatusOK},
		{"refused", `{"text": "tomorrow #x !4"}`, bearer, http.StatusUnprocessableEntity},
		{"page_session", `{"text": "Weekly review every friday at 16:00 +p07"}`, s.browser(b), http.StatusOK},
	} {
		b.Run(c.name, func(b *testing.B) {
			lat := make(latencies, 0, b.N)
			b.ResetTimer()
			for range b.N {
				lat = append(lat, s.preview(b, c.as, c.line, c.status))
			}
			b.StopTimer()
			lat.report(b)
		})
	}
}

// browser signs the administrator in as a browser does and answers the
// headers its script's calls carry: the session cookie and the page's
// origin.
func (s *seeded) browser(b *testing.B) http.Header {
	ctx := context.Background()
	a, err := s.svc.Authenticate(ctx, s.token, "bench")
	if err != nil {
		b.Fatal(err)
	}
	link, err := s.svc.CreateLoginLink(ctx, a, app.LoginLinkCreate{})
	if err != nil {
		b.Fatal(err)
	}
	started, err := s.svc.SignIn(ctx, link.Secret, app.SessionClient{})
	if err != nil {
		b.Fatal(err)
	}
	return http.Header{"Cookie": {(&http.Cookie{Name: wire.SessionCookie, Value: started.Secret}).String()}, "Origin": {s.srv.URL}}
}

// preview sends one preview with the headers h and answers how long the
// exchange took, from sending the request to reading the last byte of the
// answer. Any status but want fails the benchmark.
func (s *seeded) preview(b *testing.B, h http.Header, body string, want int) time.Duration {
	req, err := http.NewRequest(http.MethodPost, s.srv.URL+"/v1/tasks/preview", bytes.NewBufferString(body))
	if err != nil {
		b.Fatal(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	t0 := time.Now()
	res, err := s.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	out, err := io.ReadAll(res.Body)
	took := time.Since(t0)
	res.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	if res.StatusCode != want {
		b.Fatalf("preview %s: %d, want %d: %s", body, res.StatusCode, want, out)
	}
	return took
}
