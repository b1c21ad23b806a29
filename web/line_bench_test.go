package web_test

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"tend/web/webtest"
)

// benchmarkCreate POSTs the same body to /v1/tasks, one request at a time,
// on a fresh database over loopback.
func benchmarkCreate(b *testing.B, body string) {
	svc, secret := benchService(b)
	srv := webtest.Serve(b, svc)
	client := srv.Client()
	post := func() {
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/v1/tasks", bytes.NewBufferString(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+secret)
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusCreated {
			b.Fatalf("status %d", res.StatusCode)
		}
	}
	post() // the first use stamps last_used_at and creates the tag
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		post()
	}
}

// BenchmarkCreateFromLine creates a repeating task from a captured line
// (issue 11: at least 90 % of the structured rate).
func BenchmarkCreateFromLine(b *testing.B) {
	benchmarkCreate(b, `{"text": "Pay rent every month on the 1st #home !4 ~15m"}`)
}

// BenchmarkCreateStructured is the same task sent as structured fields.
func BenchmarkCreateStructured(b *testing.B) {
	benchmarkCreate(b, `{"title": "Pay rent", "repeat": "every month on the 1st", "tags": ["home"], "importance": 4, "estimate_minutes": 15}`)
}
