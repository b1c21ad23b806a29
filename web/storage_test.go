package web_test

import (
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"tend/web/webtest"
)

// TestStorageFull: with the disk out of room for the database (simulated by
// capping the file at its size), a write answers 507 storage_full with
// Retry-After, readiness answers 503 naming storage_full, reads go on, and
// nothing is logged per request. Once room returns writes succeed and the
// instance is ready again; nothing written before was lost or half-written.
func TestStorageFull(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var before []map[string]any
	for i := range 5 {
		before = append(before, e.CreateTask(e.Admin, map[string]any{"title": fmt.Sprintf("before %d", i)}))
	}
	if err := e.DB.LimitPages(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	big := map[string]any{"title": "too big", "description": strings.Repeat("no room for this ", 5000)}
	var r webtest.Response
	stored := 0 // the big creates answered 201: what fitted before the cap
	for range 50 {
		if r = e.Do(http.MethodPost, "/v1/tasks", e.Admin, big); r.Status != http.StatusCreated {
			break
		}
		stored++
	}
	webtest.AssertProblem(t, r, http.StatusInsufficientStorage, "storage_full")
	if got := r.Header.Get("Retry-After"); got != "30" {
		t.Errorf("Retry-After %q, want 30", got)
	}
	e.Problem(http.StatusInsufficientStorage, "storage_full", http.MethodPost, "/v1/tasks", e.Admin, big)
	ready := e.Do(http.MethodGet, "/readyz", "", nil)
	if got := ready.JSON(t); ready.Status != http.StatusServiceUnavailable || got["code"] != "storage_full" || ready.Header.Get("Retry-After") == "" {
		t.Fatalf("readyz while full: %d %v %v", ready.Status, got, ready.Header)
	}
	e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
	if logs := e.LogText(); strings.Contains(logs, "level=ERROR") {
		t.Errorf("a full disk is logged per request:\n%s", logs)
	}

	if err := e.DB.LimitPages(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	after := e.CreateTask(e.Admin, big)
	stored++
	if got := e.OK(http.StatusOK, http.MethodGet, "/readyz", "", nil); got["status"] != "ready" {
		t.Errorf("readyz once room returned: %v", got)
	}
	for _, task := range append(before, after) {
		if got := e.tskGet(task); got["title"] != task["title"] || got["description"] != task["description"] {
			t.Errorf("task %v reads back as %v", task["ref"], got)
		}
	}
	raw, err := sql.Open("sqlite", e.DB.Path()+"?_pragma=query_only(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var check string
	var titled int
	if err := raw.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	if err := raw.QueryRow("SELECT count(*) FROM tasks WHERE title = 'too big'").Scan(&titled); err != nil || titled != stored {
		t.Fatalf("%d big tasks stored, %v; want the %d acknowledged", titled, err, stored)
	}
}
