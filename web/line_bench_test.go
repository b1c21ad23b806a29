package web_test

import (
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
	payload := []byte(body)
	create := func() {
		if status, err := post(client, srv.URL+"/v1/tasks", secret, payload); err != nil || status != http.StatusCreated {
			b.Fatalf("status %d: %v", status, err)
		}
	}
	create() // the first use stamps last_used_at and creates the tag
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		create()
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
