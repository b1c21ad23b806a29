package web_test

import (
	"net/http"
	"strings"
	"testing"
)

const publicHook = "https://93.184.216.34/hook"

// TestWebhookRoutesRefuse: every refusal of the webhook routes, with its
// status and code; the secret is shown by creating and rotating alone.
func TestWebhookRoutesRefuse(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "web", "title": "Web"})
	ann := e.Member("ann", "member")
	for _, body := range []map[string]any{
		{"url": "http://127.0.0.1:8080/hook", "events": []string{"*"}},
		{"url": "http://169.254.169.254/latest", "events": []string{"*"}},
		{"url": "http://[::1]/", "events": []string{"*"}},
		{"url": publicHook, "events": []string{}},
		{"url": publicHook, "events": []string{"tusk.*"}},
		{"url": publicHook, "events": []string{"*"}, "project": "nope"},
	} {
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/webhooks", e.Admin, body)
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/webhooks", e.Admin, map[string]any{"url": publicHook, "events": "*"})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/webhooks", ann, map[string]any{"url": publicHook, "events": []string{"*"}})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/webhooks", ann, map[string]any{"url": publicHook, "events": []string{"*"}, "project": "web"})
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/webhooks", "", nil)

	w := e.OK(http.StatusCreated, http.MethodPost, "/v1/webhooks", e.Admin, map[string]any{"url": publicHook, "events": []string{"task.*"}})
	secret, _ := w["secret"].(string)
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("created %v", w)
	}
	path := "/v1/webhooks/" + w["id"].(string)
	for _, p := range []string{path, "/v1/webhooks"} {
		if b := e.Do(http.MethodGet, p, e.Admin, nil).Body; strings.Contains(string(b), secret) || strings.Contains(string(b), "whsec_") {
			t.Errorf("GET %s shows the secret: %s", p, b)
		}
	}
	// Another member does not learn the endpoint exists.
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, path, ann, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, path, ann, map[string]any{"active": false})
	e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, path, ann, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, path+"/rotate", ann, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, path+"/deliveries", ann, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, path+"/replay?since=1", ann, nil)
	if got := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/webhooks", ann, nil)); len(got) != 0 {
		t.Errorf("ann lists %v", got)
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/webhooks/nope", e.Admin, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, path, e.Admin, map[string]any{"url": "http://10.0.0.1/"})
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path+"/replay", e.Admin, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path+"/replay?since=-1", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, path+"/redeliver/abc", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, path+"/redeliver/99", e.Admin, nil)
	rotated := e.OK(http.StatusOK, http.MethodPost, path+"/rotate", e.Admin, nil)
	if rotated["secret"] == secret || rotated["rotating_until"] == nil {
		t.Errorf("rotated %v", rotated)
	}
	off := e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"active": false, "description": "paused"})
	if off["active"] != false || off["description"] != "paused" {
		t.Errorf("patched %v", off)
	}
	e.OK(http.StatusOK, http.MethodDelete, path, e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, path, e.Admin, nil)
}
