package web_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestTaskTrashTakesSubtree: trashing a task trashes its subtasks with it,
// and restoring brings back exactly what went with it.
func TestTaskTrashTakesSubtree(t *testing.T) {
	e := newEnv(t)
	parent := e.ok(http.StatusCreated, http.MethodPost, "/v1/tasks", e.admin, map[string]any{"title": "parent"})
	child := e.ok(http.StatusCreated, http.MethodPost, "/v1/tasks", e.admin, map[string]any{"title": "child", "parent": parent["ref"]})
	gone := e.ok(http.StatusCreated, http.MethodPost, "/v1/tasks", e.admin, map[string]any{"title": "trashed before", "parent": parent["ref"]})
	goneRef := itoaRef(gone["ref"])
	e.ok(http.StatusOK, http.MethodDelete, "/v1/tasks/"+goneRef, e.admin, nil)
	e.clock.Advance(time.Second) // trashed at another instant than the parent

	e.ok(http.StatusOK, http.MethodDelete, "/v1/tasks/"+itoaRef(parent["ref"]), e.admin, nil)
	e.problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/"+itoaRef(child["ref"]), e.admin, nil)

	e.ok(http.StatusOK, http.MethodPost, "/v1/tasks/"+itoaRef(parent["ref"])+"/restore", e.admin, nil)
	got := e.ok(http.StatusOK, http.MethodGet, "/v1/tasks/"+itoaRef(child["ref"]), e.admin, nil)
	if got["deleted_at"] != nil {
		t.Fatalf("the child came back still trashed: %v", got["deleted_at"])
	}
	// The subtask trashed on its own earlier stays in the trash.
	e.problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/"+goneRef, e.admin, nil)

	evs := e.ok(http.StatusOK, http.MethodGet, "/v1/tasks/"+itoaRef(child["ref"])+"/events?order=seq", e.admin, nil)["items"].([]any)
	var actions []string
	for _, ev := range evs {
		actions = append(actions, ev.(map[string]any)["action"].(string))
	}
	if len(actions) != 3 || actions[1] != "task.deleted" || actions[2] != "task.restored" {
		t.Fatalf("the child's history is %v, want created, deleted, restored", actions)
	}
}

// TestFinishingDropsTheClaim: a task moved to a finished status by PATCH is
// held by nobody, as with POST complete.
func TestFinishingDropsTheClaim(t *testing.T) {
	e := newEnv(t)
	task := e.ok(http.StatusCreated, http.MethodPost, "/v1/tasks", e.admin, map[string]any{"title": "work"})
	ref := itoaRef(task["ref"])
	if c := e.ok(http.StatusOK, http.MethodPost, "/v1/tasks/"+ref+"/claim", e.admin, nil); c["claimed_by"] != "admin" {
		t.Fatalf("claim: %v", c["claimed_by"])
	}
	done := e.ok(http.StatusOK, http.MethodPatch, "/v1/tasks/"+ref, e.admin, map[string]any{"status": "done"})
	if done["claimed_by"] != nil || done["claim_expires_at"] != nil || done["is_complete"] != true {
		t.Fatalf("finished but still held: claimed_by %v, is_complete %v", done["claimed_by"], done["is_complete"])
	}
}

// TestProtectedVocabularyAndInbox: the blocks type readiness reads cannot be
// deleted, and the inbox stays public.
func TestProtectedVocabularyAndInbox(t *testing.T) {
	e := newEnv(t)
	for _, lt := range e.ok(http.StatusOK, http.MethodGet, "/v1/link-types", e.admin, nil)["items"].([]any) {
		m := lt.(map[string]any)
		if m["key"] == "blocks" {
			e.problem(http.StatusConflict, "link_type_in_use", http.MethodDelete, "/v1/link-types/"+m["id"].(string), e.admin, nil)
		}
	}
	e.problem(http.StatusConflict, "inbox_protected", http.MethodPatch, "/v1/projects/inbox", e.admin, map[string]any{"visibility": "private"})
	members := e.ok(http.StatusOK, http.MethodGet, "/v1/projects/inbox/members", e.admin, nil)["items"].([]any)
	if len(members) != 1 || members[0].(map[string]any)["project"] != "inbox" {
		t.Fatalf("inbox members: %v", members)
	}
}

func itoaRef(v any) string {
	f, _ := v.(float64)
	return strconv.FormatInt(int64(f), 10)
}

// TestScopeCacheFollowsSharing: the cached project tree is never served
// stale: sharing, unsharing, a project role and trashing each show on the
// very next read.
func TestScopeCacheFollowsSharing(t *testing.T) {
	e := newEnv(t)
	bob := e.person("bob")
	e.join("bob", "member")
	e.ok(http.StatusCreated, http.MethodPost, "/v1/projects", e.admin, map[string]any{"key": "sec", "title": "Secret", "visibility": "private"})

	e.problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/sec", bob, nil)
	e.ok(http.StatusCreated, http.MethodPost, "/v1/projects/sec/members", e.admin, map[string]any{"username": "bob"})
	e.ok(http.StatusOK, http.MethodGet, "/v1/projects/sec", bob, nil)
	e.ok(http.StatusNoContent, http.MethodDelete, "/v1/projects/sec/members/bob", e.admin, nil)
	e.problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/sec", bob, nil)

	e.ok(http.StatusOK, http.MethodPut, "/v1/projects/sec/roles/bob", e.admin, map[string]any{"role": "viewer"})
	e.ok(http.StatusOK, http.MethodGet, "/v1/projects/sec", bob, nil)
	e.problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/tasks", bob, map[string]any{"title": "x", "project": "sec"})
	e.ok(http.StatusNoContent, http.MethodDelete, "/v1/projects/sec/roles/bob", e.admin, nil)
	e.problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/sec", bob, nil)

	e.ok(http.StatusCreated, http.MethodPost, "/v1/projects", e.admin, map[string]any{"key": "pub", "title": "Public"})
	e.ok(http.StatusOK, http.MethodGet, "/v1/projects/pub", bob, nil)
	e.ok(http.StatusOK, http.MethodDelete, "/v1/projects/pub", e.admin, nil)
	e.problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/pub", bob, nil)
}
