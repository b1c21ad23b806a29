package web_test

import (
	"net/http"
	"testing"
	"time"
)

// TestTaskTrashTakesSubtree: trashing a task trashes its subtasks with it,
// and restoring brings back exactly what went with it.
func TestTaskTrashTakesSubtree(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	parent := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "parent"})
	child := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "child", "parent": parent["ref"]})
	gone := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "trashed before", "parent": parent["ref"]})
	goneRef := itoaRef(gone["ref"])
	e.OK(http.StatusOK, http.MethodDelete, "/v1/tasks/"+goneRef, e.Admin, nil)
	e.Clock.Advance(time.Second) // trashed at another instant than the parent

	e.OK(http.StatusOK, http.MethodDelete, "/v1/tasks/"+itoaRef(parent["ref"]), e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/"+itoaRef(child["ref"]), e.Admin, nil)

	e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+itoaRef(parent["ref"])+"/restore", e.Admin, nil)
	got := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+itoaRef(child["ref"]), e.Admin, nil)
	if got["deleted_at"] != nil {
		t.Fatalf("the child came back still trashed: %v", got["deleted_at"])
	}
	// The subtask trashed on its own earlier stays in the trash.
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/"+goneRef, e.Admin, nil)

	evs := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+itoaRef(child["ref"])+"/events?order=seq", e.Admin, nil)["items"].([]any)
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
	t.Parallel()
	e := newEnv(t)
	task := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "work"})
	ref := itoaRef(task["ref"])
	if c := e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+ref+"/claim", e.Admin, nil); c["claimed_by"] != "admin" {
		t.Fatalf("claim: %v", c["claimed_by"])
	}
	done := e.OK(http.StatusOK, http.MethodPatch, "/v1/tasks/"+ref, e.Admin, map[string]any{"status": "done"})
	if done["claimed_by"] != nil || done["claim_expires_at"] != nil || done["is_complete"] != true {
		t.Fatalf("finished but still held: claimed_by %v, is_complete %v", done["claimed_by"], done["is_complete"])
	}
}

// TestProtectedVocabularyAndInbox: the blocks type readiness reads cannot be
// deleted, and the inbox stays public.
func TestProtectedVocabularyAndInbox(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, lt := range e.OK(http.StatusOK, http.MethodGet, "/v1/link-types", e.Admin, nil)["items"].([]any) {
		m := lt.(map[string]any)
		if m["key"] == "blocks" {
			e.Problem(http.StatusConflict, "link_type_in_use", http.MethodDelete, "/v1/link-types/"+m["id"].(string), e.Admin, nil)
		}
	}
	e.Problem(http.StatusConflict, "inbox_protected", http.MethodPatch, "/v1/projects/inbox", e.Admin, map[string]any{"visibility": "private"})
	members := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/inbox/members", e.Admin, nil)["items"].([]any)
	if len(members) != 1 || members[0].(map[string]any)["project"] != "inbox" {
		t.Fatalf("inbox members: %v", members)
	}
}

// TestScopeCacheFollowsSharing: the cached project tree is never served
// stale: sharing, unsharing, a project role and trashing each show on the
// very next read.
func TestScopeCacheFollowsSharing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bob := e.Member("bob", "member")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "sec", "title": "Secret", "visibility": "private"})

	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/sec", bob, nil)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects/sec/members", e.Admin, map[string]any{"username": "bob"})
	e.OK(http.StatusOK, http.MethodGet, "/v1/projects/sec", bob, nil)
	e.OK(http.StatusNoContent, http.MethodDelete, "/v1/projects/sec/members/bob", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/sec", bob, nil)

	e.OK(http.StatusOK, http.MethodPut, "/v1/projects/sec/roles/bob", e.Admin, map[string]any{"role": "viewer"})
	e.OK(http.StatusOK, http.MethodGet, "/v1/projects/sec", bob, nil)
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/tasks", bob, map[string]any{"title": "x", "project": "sec"})
	e.OK(http.StatusNoContent, http.MethodDelete, "/v1/projects/sec/roles/bob", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/sec", bob, nil)

	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "pub", "title": "Public"})
	e.OK(http.StatusOK, http.MethodGet, "/v1/projects/pub", bob, nil)
	e.OK(http.StatusOK, http.MethodDelete, "/v1/projects/pub", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/pub", bob, nil)
}
