package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/store"
	"tend/web/webtest"
)

// /readyz reports replication, from the store's real state: whether it
// keeps up, since when, how many syncs failed; never where the replica is
// or what the error said. A failing replica leaves the server ready.
func TestReadyReportsReplication(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	blocked := filepath.Join(dir, "replica-somewhere")
	if err := os.WriteFile(blocked, []byte("a file where the replica's directory should be"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "tend.db")
	webtest.CopyBootstrapped(t, path)
	db, err := store.Open(ctx, path, store.Options{Replica: "file://" + blocked, ReplicaSyncInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	svc := app.New(db, app.Options{})
	h := webtest.Quiet(svc)
	h.SetReplication(db.Replication)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ready := func() (map[string]any, string) {
		t.Helper()
		res, err := http.Get(srv.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("readyz %d %s", res.StatusCode, body)
		}
		var v struct {
			Status      string         `json:"status"`
			Replication map[string]any `json:"replication"`
		}
		if err := json.Unmarshal(body, &v); err != nil || v.Status != "ready" {
			t.Fatalf("readyz %s: %v", body, err)
		}
		return v.Replication, string(body)
	}

	if err := db.SyncReplica(ctx); err == nil {
		t.Fatal("a sync to a file where a directory should be succeeded")
	}
	got, body := ready()
	num := func(k string) float64 { f, _ := got[k].(float64); return f }
	if got["state"] != "failing" || got["synced_through"] != nil || num("errors") < 1 || num("lag_seconds") <= 0 {
		t.Errorf("readyz while the replica fails: %s", body)
	}
	for _, secret := range []string{"replica-somewhere", "not a directory", dir} {
		if strings.Contains(body, secret) {
			t.Errorf("readyz tells %q: %s", secret, body)
		}
	}

	if err := os.Remove(blocked); err != nil {
		t.Fatal(err)
	}
	if err := db.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	got, body = ready()
	at, _ := got["synced_through"].(string)
	synced, _ := time.Parse(time.RFC3339Nano, at)
	if got["state"] != "ok" || synced.IsZero() || num("errors") < 1 {
		t.Errorf("readyz once the replica is back: %s", body)
	}
	if len(got) != 4 {
		t.Errorf("readyz replication has %d fields, want state, synced_through, lag_seconds, errors: %s", len(got), body)
	}
}
