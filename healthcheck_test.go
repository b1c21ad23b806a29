package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHealthcheck: tend healthcheck exits 0 and prints ready against a
// serving tend, and fails, saying why, against a server that is not ready
// or nothing at all.
func TestHealthcheck(t *testing.T) {
	s := startServe(t, tempDB(t))
	if out := mustRun(t, "healthcheck", "--addr", s.addr); out != "ready\n" {
		t.Errorf("healthcheck printed %q, want ready", out)
	}
	t.Setenv("TEND_ADDR", s.addr)
	if out := mustRun(t, "healthcheck"); out != "ready\n" {
		t.Errorf("healthcheck with TEND_ADDR printed %q", out)
	}

	full := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"status":"unavailable","code":"storage_full"}`))
	}))
	defer full.Close()
	if _, _, err := run(t, "healthcheck", "--addr", strings.TrimPrefix(full.URL, "http://")); err == nil || !strings.Contains(err.Error(), "storage_full") {
		t.Errorf("healthcheck of a full server: %v, want not ready naming storage_full", err)
	}
	addr := s.addr
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, "healthcheck", "--addr", addr, "--timeout", "2s"); err == nil || !strings.HasPrefix(err.Error(), "not ready") {
		t.Errorf("healthcheck with nothing listening: %v", err)
	}
}

func TestProbeAddr(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"127.0.0.1:8421", "127.0.0.1:8421"},
		{"0.0.0.0:8421", "127.0.0.1:8421"},
		{":8421", "127.0.0.1:8421"},
		{"[::]:8421", "[::1]:8421"},
		{"[::1]:8421", "[::1]:8421"},
		{"tend.internal:8421", "tend.internal:8421"},
	} {
		if got, err := probeAddr(c.in); err != nil || got != c.want {
			t.Errorf("probeAddr(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := probeAddr("8421"); err == nil {
		t.Error("probeAddr(8421) took a port without a colon")
	}
}
