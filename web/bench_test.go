package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
	"tend/web/webtest"
)

// benchService is a bootstrapped instance on a real database file and the
// administrator's secret.
func benchService(b *testing.B) (*app.Service, string) {
	b.Helper()
	svc := app.New(storetest.Open(b), app.Options{Version: "bench"})
	first, err := svc.Bootstrap(context.Background(), app.BootstrapOptions{Timezone: "UTC"})
	if err != nil {
		b.Fatal(err)
	}
	return svc, first.Token.Secret
}

// BenchmarkMeOverLoopback is one authenticated GET /v1/me through the whole
// stack: TCP on loopback, keep-alive, router, token check, one read
// transaction, JSON encoding.
func BenchmarkMeOverLoopback(b *testing.B) {
	svc, secret := benchService(b)
	srv := webtest.Serve(b, svc)
	benchMe(b, srv, secret)
}

// benchMe times GET /v1/me against srv with srv's keep-alive client, as
// the benchmarks that compare server set-ups all measure it.
func benchMe(b *testing.B, srv *httptest.Server, secret string) {
	b.Helper()
	client := srv.Client() // keeps connections alive between requests
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/v1/me", nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	get := func() {
		if status, err := roundTrip(client, req); err != nil || status != http.StatusOK {
			b.Fatalf("status %d: %v", status, err)
		}
	}
	get() // the first use stamps last_used_at; keep that write out of the loop
	b.ReportAllocs()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		get()
	}
}

// BenchmarkAuthenticate is the token check alone: SHA-256 of the secret,
// one indexed lookup by prefix, a constant-time compare and the account chain.
func BenchmarkAuthenticate(b *testing.B) {
	svc, secret := benchService(b)
	ctx := context.Background()
	if _, err := svc.Authenticate(ctx, secret, "http"); err != nil { // stamps last_used_at once
		b.Fatal(err)
	}
	b.ReportAllocs()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		if _, err := svc.Authenticate(ctx, secret, "http"); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU resets the timer and returns a func that reports the process's
// CPU time per operation as cpu-ns/op (client and server together, GC
// included). Call it as defer reportCPU(b)() right before the loop.
func reportCPU(b *testing.B) func() {
	b.ResetTimer()
	start, ok := processCPU()
	return func() {
		b.StopTimer()
		end, _ := processCPU()
		if ok && b.N > 0 {
			b.ReportMetric(float64((end-start)/time.Nanosecond)/float64(b.N), "cpu-ns/op")
		}
	}
}
