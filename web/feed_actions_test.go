package web_test

import (
	"database/sql"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"tend/app"
)

// TestEventActions runs every write route of the API once and reads back
// the actions the events table holds: each must be in app.Actions (what
// meta's event_actions reports), each listed action must have been
// recorded, and docs/feed.md must describe exactly that list.
func TestEventActions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	do := func(want int, method, path string, body any) map[string]any {
		t.Helper()
		return e.OK(want, method, path, e.Admin, body)
	}
	do(http.StatusOK, http.MethodPatch, "/v1/instance", map[string]any{"name": "Renamed"})
	do(http.StatusCreated, http.MethodPost, "/v1/users", map[string]any{"username": "bob"})
	do(http.StatusOK, http.MethodPatch, "/v1/users/bob", map[string]any{"display_name": "Bob"})
	e.SignIn(e.MintLink(e.Admin, nil))
	tok := e.Issue(e.Admin, map[string]any{"title": "spare"})
	do(http.StatusOK, http.MethodDelete, "/v1/tokens/"+tok["id"].(string), nil)
	cal := do(http.StatusCreated, http.MethodPost, "/v1/calendars", map[string]any{"title": "feed"})
	do(http.StatusOK, http.MethodPost, "/v1/calendars/"+cal["id"].(string)+"/reset", nil)
	do(http.StatusOK, http.MethodDelete, "/v1/calendars/"+cal["id"].(string), nil)
	view := do(http.StatusCreated, http.MethodPost, "/v1/views", map[string]any{"name": "mine", "query": "assignee=me"})
	do(http.StatusOK, http.MethodPatch, "/v1/views/"+view["id"].(string), map[string]any{"shared": true})
	do(http.StatusOK, http.MethodDelete, "/v1/views/"+view["id"].(string), nil)

	do(http.StatusCreated, http.MethodPost, "/v1/workspaces/default/members", map[string]any{"username": "bob", "role": "member"})
	do(http.StatusOK, http.MethodPatch, "/v1/workspaces/default/members/bob", map[string]any{"role": "viewer"})

	hook := do(http.StatusCreated, http.MethodPost, "/v1/webhooks", map[string]any{"url": "https://93.184.216.34/hook", "events": []string{"*"}})
	do(http.StatusOK, http.MethodPatch, "/v1/webhooks/"+hook["id"].(string), map[string]any{"description": "CI"})
	do(http.StatusOK, http.MethodPost, "/v1/webhooks/"+hook["id"].(string)+"/rotate", nil)
	do(http.StatusCreated, http.MethodPost, "/v1/projects", map[string]any{"key": "home", "title": "Home"})
	// The receiver answers 410 Gone: the worker's report disables the webhook.
	sends, _, err := e.Svc.WebhookLease(t.Context(), 1, time.Minute)
	if err != nil || len(sends) != 1 {
		t.Fatalf("leased %d, %v", len(sends), err)
	}
	if err := e.Svc.WebhookAttempted(t.Context(), app.WebhookResult{DeliverySeq: sends[0].Delivery.Seq, Status: http.StatusGone}); err != nil {
		t.Fatal(err)
	}
	do(http.StatusOK, http.MethodDelete, "/v1/webhooks/"+hook["id"].(string), nil)
	do(http.StatusCreated, http.MethodPost, "/v1/projects", map[string]any{"key": "attic", "title": "Attic", "visibility": "private"})
	do(http.StatusOK, http.MethodPatch, "/v1/projects/attic", map[string]any{"title": "The attic"})
	do(http.StatusOK, http.MethodPost, "/v1/projects/attic/move", map[string]any{"parent": "home"})
	do(http.StatusCreated, http.MethodPost, "/v1/projects/attic/members", map[string]any{"username": "bob"})
	do(http.StatusNoContent, http.MethodDelete, "/v1/projects/attic/members/bob", nil)
	do(http.StatusOK, http.MethodPut, "/v1/projects/home/roles/bob", map[string]any{"role": "member"})
	do(http.StatusNoContent, http.MethodDelete, "/v1/projects/home/roles/bob", nil)
	do(http.StatusOK, http.MethodDelete, "/v1/projects/attic", nil)
	do(http.StatusOK, http.MethodPost, "/v1/projects/attic/restore", nil)

	a := lstItoa(lstNum(do(http.StatusCreated, http.MethodPost, "/v1/tasks", map[string]any{"title": "Paint", "project": "home", "tags": []string{"diy"}})["ref"]))
	b := lstItoa(lstNum(do(http.StatusCreated, http.MethodPost, "/v1/tasks", map[string]any{"title": "Buy paint", "project": "home"})["ref"]))
	do(http.StatusOK, http.MethodPatch, "/v1/tasks/"+a, map[string]any{"status": "in_progress"})
	do(http.StatusOK, http.MethodPost, "/v1/tasks/"+a+"/claim", nil)
	do(http.StatusOK, http.MethodPost, "/v1/tasks/"+a+"/claim", nil)
	do(http.StatusOK, http.MethodPost, "/v1/tasks/"+a+"/release", nil)
	do(http.StatusCreated, http.MethodPost, "/v1/tasks/"+a+"/verifications", map[string]any{"passed": true})
	link := do(http.StatusCreated, http.MethodPost, "/v1/tasks/"+b+"/links", map[string]any{"link_type": "blocks", "target": a})
	do(http.StatusNoContent, http.MethodDelete, "/v1/tasks/"+b+"/links/"+link["id"].(string), nil)
	do(http.StatusOK, http.MethodPost, "/v1/tasks/"+b+"/move", map[string]any{"parent": a})
	do(http.StatusOK, http.MethodPost, "/v1/tasks/"+a+"/complete", nil)
	do(http.StatusOK, http.MethodDelete, "/v1/tasks/"+a, nil)
	do(http.StatusOK, http.MethodPost, "/v1/tasks/"+a+"/restore", nil)
	r := lstItoa(lstNum(do(http.StatusCreated, http.MethodPost, "/v1/tasks", map[string]any{"title": "Sweep", "repeat": "every day"})["ref"]))
	do(http.StatusOK, http.MethodPost, "/v1/tasks/"+r+"/skip", nil)
	gone := lstItoa(lstNum(do(http.StatusCreated, http.MethodPost, "/v1/tasks", map[string]any{"title": "Old list"})["ref"]))
	do(http.StatusOK, http.MethodDelete, "/v1/tasks/"+gone, nil)
	do(http.StatusOK, http.MethodPost, "/v1/tasks/"+gone+"/purge", nil)

	d := lstItoa(lstNum(do(http.StatusCreated, http.MethodPost, "/v1/documents", map[string]any{"title": "Colours", "project": "home"})["ref"]))
	sub := lstItoa(lstNum(do(http.StatusCreated, http.MethodPost, "/v1/documents", map[string]any{"title": "Blues", "project": "home"})["ref"]))
	do(http.StatusOK, http.MethodPatch, "/v1/documents/"+d, map[string]any{"body": "Warm white."})
	do(http.StatusOK, http.MethodPost, "/v1/documents/"+sub+"/move", map[string]any{"parent": d})
	do(http.StatusOK, http.MethodDelete, "/v1/documents/"+d, nil)
	do(http.StatusOK, http.MethodPost, "/v1/documents/"+d+"/restore", nil)
	c := do(http.StatusCreated, http.MethodPost, "/v1/documents/"+d+"/comments", map[string]any{"body": "Or grey?"})
	do(http.StatusOK, http.MethodPatch, "/v1/comments/"+c["id"].(string), map[string]any{"body": "Or light grey?"})
	do(http.StatusNoContent, http.MethodDelete, "/v1/comments/"+c["id"].(string), nil)
	draft := lstItoa(lstNum(do(http.StatusCreated, http.MethodPost, "/v1/documents", map[string]any{"title": "Draft", "project": "home"})["ref"]))
	do(http.StatusOK, http.MethodDelete, "/v1/documents/"+draft, nil)
	do(http.StatusOK, http.MethodPost, "/v1/documents/"+draft+"/purge", nil)

	st := do(http.StatusCreated, http.MethodPost, "/v1/statuses", map[string]any{"entity_type": "task", "key": "review", "label": "Review", "category": "in_progress"})
	do(http.StatusOK, http.MethodPatch, "/v1/statuses/"+st["id"].(string), map[string]any{"label": "In review"})
	do(http.StatusNoContent, http.MethodDelete, "/v1/statuses/"+st["id"].(string), nil)
	lt := do(http.StatusCreated, http.MethodPost, "/v1/link-types", map[string]any{"key": "mirrors", "title": "mirrors",
		"inverse_title": "mirrors", "is_symmetric": true, "category": "association"})
	do(http.StatusOK, http.MethodPatch, "/v1/link-types/"+lt["id"].(string), map[string]any{"title": "reflects"})
	do(http.StatusNoContent, http.MethodDelete, "/v1/link-types/"+lt["id"].(string), nil)
	tg := do(http.StatusCreated, http.MethodPost, "/v1/tags", map[string]any{"name": "garden"})
	do(http.StatusOK, http.MethodPatch, "/v1/tags/"+tg["id"].(string), map[string]any{"description": "outside"})
	do(http.StatusNoContent, http.MethodDelete, "/v1/tags/"+tg["id"].(string), nil)
	do(http.StatusNoContent, http.MethodDelete, "/v1/workspaces/default/members/bob", nil)
	do(http.StatusCreated, http.MethodPost, "/v1/workspaces", map[string]any{"slug": "spare", "name": "Spare"})
	do(http.StatusOK, http.MethodPatch, "/v1/workspaces/spare", map[string]any{"name": "Spare room"})
	do(http.StatusOK, http.MethodDelete, "/v1/workspaces/spare", nil)
	do(http.StatusOK, http.MethodPost, "/v1/workspaces/spare/restore", nil)

	recorded := recordedActions(t, e)
	for _, act := range recorded {
		if !slices.Contains(app.Actions, act) {
			t.Errorf("action %q is recorded but not listed in app.Actions", act)
		}
	}
	for _, act := range app.Actions {
		if !slices.Contains(recorded, act) {
			t.Errorf("action %q is listed in app.Actions but no write of the script recorded it", act)
		}
	}

	doc, err := os.ReadFile("../docs/feed.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(doc), "## Actions and their `changes`")
	var documented []string
	for _, line := range strings.Split(table, "\n") {
		if name, ok := strings.CutPrefix(line, "| `"); ok {
			if name, _, ok = strings.Cut(name, "`"); ok && strings.Contains(name, ".") {
				documented = append(documented, name)
			}
		}
	}
	if !slices.Equal(documented, app.Actions) {
		t.Errorf("docs/feed.md lists the actions\n%v\nbut app.Actions is\n%v", documented, app.Actions)
	}
}

// recordedActions reads the distinct actions in the events table straight
// from the database file.
func recordedActions(t *testing.T, e *env) []string {
	raw, err := sql.Open("sqlite", e.DB.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.Query(`SELECT DISTINCT action FROM events ORDER BY action`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
