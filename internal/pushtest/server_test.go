package pushtest_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tend/internal/pushtest"
)

// TestServerRefusesBeforeDecrypting covers the answers that need no
// sender: the method, an endpoint it never gave out, a message with no
// credential.
func TestServerRefusesBeforeDecrypting(t *testing.T) {
	srv := pushtest.NewServer()
	ts := httptest.NewServer(srv)
	defer ts.Close()
	b := srv.Subscribe(ts.URL, "")
	if !strings.HasPrefix(b.Endpoint, ts.URL+"/push/") {
		t.Fatalf("endpoint %q", b.Endpoint)
	}
	for _, tc := range []struct {
		method, url string
		status      int
	}{
		{http.MethodGet, b.Endpoint, http.StatusMethodNotAllowed},
		{http.MethodPost, ts.URL + "/push/nobody", http.StatusNotFound},
		{http.MethodPost, ts.URL + "/elsewhere", http.StatusNotFound},
		{http.MethodPost, b.Endpoint, http.StatusUnauthorized},
	} {
		req, err := http.NewRequest(tc.method, tc.url, strings.NewReader("x"))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("TTL", "60")
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s %s = %d, want %d", tc.method, tc.url, resp.StatusCode, tc.status)
		}
	}
	if msgs := srv.Messages(); len(msgs) != 1 || msgs[0].Status != http.StatusUnauthorized {
		t.Fatalf("messages %+v, want the one refused 401", msgs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if msgs, err := srv.Wait(ctx, 2); !errors.Is(err, context.Canceled) || len(msgs) != 1 {
		t.Fatalf("Wait for a second message = %d messages, %v", len(msgs), err)
	}
}
