package web

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tend/app"
	"tend/store/storetest"
)

// TestPanicAnswersInternalProblem registers a route that panics on the real
// router: the client gets a bare internal problem, the log gets the cause.
func TestPanicAnswersInternalProblem(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	s := NewServer(app.New(storetest.Open(t), app.Options{Version: "test"}), slog.New(slog.NewTextHandler(&logs, nil)))
	const secret = "kaboom: secret internal state 0xdeadbeef"
	s.router.HandlerFunc(http.MethodGet, "/v1/test-boom", func(http.ResponseWriter, *http.Request) { panic(secret) })

	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/test-boom", nil))

	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500\n%s", rec.Code, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type %q, want application/problem+json", ct)
	}
	body := rec.Body.String()
	if strings.Contains(body, "kaboom") || strings.Contains(body, "deadbeef") || strings.Contains(body, "panic:") {
		t.Fatalf("the panic leaked into the response: %s", body)
	}
	var p map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, body)
	}
	want := map[string]any{"type": "tag:tend,2026:problem/internal", "title": "Internal error", "status": float64(500),
		"code": "internal", "instance": "/v1/test-boom"}
	for k, v := range want {
		if p[k] != v {
			t.Errorf("%s = %v, want %v", k, p[k], v)
		}
	}
	if _, ok := p["detail"]; ok {
		t.Errorf("an internal problem carries no detail: %s", body)
	}
	if len(p) != len(want) {
		t.Errorf("unexpected members in %s", body)
	}
	if !strings.Contains(logs.String(), "kaboom") {
		t.Errorf("the panic was not logged:\n%s", logs.String())
	}
}
