package web_test

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// TestCredentialCacheOutlivesLastUsed: a token used many times across
// several minutes keeps answering from the credential cache (one statement,
// the revision read, per check) although last_used_at is refreshed once a
// minute, and revoking it still acts on the very next request.
func TestCredentialCacheOutlivesLastUsed(t *testing.T) {
	e := newEnv(t)
	issued := e.issue(e.admin, map[string]any{"title": "worker"})
	secret := issued["token"].(string)
	check := func() {
		t.Helper()
		if _, err := e.svc.Authenticate(context.Background(), secret, "http"); err != nil {
			t.Fatal(err)
		}
	}
	check() // reads the credential and stamps last_used_at
	for minute := 1; minute <= 5; minute++ {
		e.clock.Advance(61 * time.Second)
		check() // refreshes last_used_at: a write that must leave the cache be
		for use := 1; use <= 20; use++ {
			before := e.db.QueryCount()
			check()
			if n := e.db.QueryCount() - before; n != 1 {
				t.Fatalf("minute %d, use %d: the check ran %d statements, want 1 (a cache hit)", minute, use, n)
			}
		}
	}
	want := e.clock.Now().UTC().Format(time.RFC3339Nano)
	tokens, _ := e.listing("/v1/tokens", e.admin)
	found := false
	for _, tk := range tokens {
		if m := tk.(map[string]any); m["id"] == issued["id"] {
			found = true
			if m["last_used_at"] != want {
				t.Errorf("last_used_at is %v, want %s: the refresh was not recorded", m["last_used_at"], want)
			}
		}
	}
	if !found {
		t.Fatalf("the token %v is not listed", issued["id"])
	}

	e.ok(http.StatusOK, http.MethodGet, "/v1/me", secret, nil)
	e.ok(http.StatusOK, http.MethodDelete, "/v1/tokens/"+issued["id"].(string), e.admin, nil)
	e.problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me", secret, nil)
}
