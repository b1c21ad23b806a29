package web_test

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// TestCredentialCacheOutlivesLastUsed: a token used many times across
// several minutes keeps answering from the credential cache although
// last_used_at is refreshed once a minute: no check after the refresh runs
// a statement (the refresh is the server's own commit, whose revision the
// writer hands the token check: store/owncommit.go). Revoking it still acts
// on the very next request.
func TestCredentialCacheOutlivesLastUsed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	issued := e.Issue(e.Admin, map[string]any{"title": "worker"})
	secret := issued["token"].(string)
	check := func() {
		t.Helper()
		if _, err := e.Svc.Authenticate(context.Background(), secret, "http"); err != nil {
			t.Fatal(err)
		}
	}
	check() // reads the credential and stamps last_used_at
	for minute := 1; minute <= 5; minute++ {
		e.Clock.Advance(61 * time.Second)
		check() // refreshes last_used_at: a write that must leave the cache be
		for use := 1; use <= 20; use++ {
			before := e.DB.QueryCount()
			check()
			if n := e.DB.QueryCount() - before; n != 0 {
				t.Fatalf("minute %d, use %d: the check ran %d statements, want none (a cache hit)", minute, use, n)
			}
		}
	}
	want := e.Clock.Now().UTC().Format(time.RFC3339Nano)
	tokens, _ := e.listing("/v1/tokens", e.Admin)
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

	e.OK(http.StatusOK, http.MethodGet, "/v1/me", secret, nil)
	e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+issued["id"].(string), e.Admin, nil)
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me", secret, nil)
}
