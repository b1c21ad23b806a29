package mcpserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"tend/web/webtest"
)

func TestMCPReadTools(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.Connect(t, e.Admin, webtest.EraStateless)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "web", "title": "Web"})
	parent := e.TaskRef(e.Admin, map[string]any{"title": "Ship the login page", "project": "web", "tags": []string{"ui"}, "importance": 4,
		"description": strings.Repeat("Long notes. ", 200)})
	child := e.TaskRef(e.Admin, map[string]any{"title": "Style the button", "project": "web", "parent": parent})
	doc := int(e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin,
		map[string]any{"title": "Use sessions, not JWT", "type": "decision", "project": "web", "body": "We keep server-side sessions."})["ref"].(float64))
	e.OK(http.StatusCreated, http.MethodPost, fmt.Sprintf("/v1/tasks/%d/links", parent), e.Admin,
		map[string]any{"link_type": "documents", "target": doc, "target_type": "document", "direction": "incoming"})
	e.OK(http.StatusCreated, http.MethodPost, fmt.Sprintf("/v1/tasks/%d/comments", parent), e.Admin, map[string]any{"body": "started on it"})
	e.OK(http.StatusCreated, http.MethodPost, fmt.Sprintf("/v1/tasks/%d/verifications", parent), e.Admin, map[string]any{"passed": true, "summary": "go test ./..."})

	t.Run("service_list", func(t *testing.T) {
		m := m.With(t)
		r := m.OK("service_list", map[string]any{"project": "web"})
		if items := r.Structured["items"].([]any); len(items) != 2 || !strings.Contains(r.Text, fmt.Sprintf("#%d", parent)) {
			t.Fatalf("list: %+v", r)
		}
		r = m.OK("service_list", map[string]any{"filter": map[string]any{"tag": "ui"}, "limit": 1})
		if items := r.Structured["items"].([]any); len(items) != 1 || strings.Contains(r.Text, "more exist") {
			t.Fatalf("filter tag: %+v", r)
		}
		r = m.OK("service_list", map[string]any{"filter": map[string]any{"under": fmt.Sprint(parent)}})
		if items := r.Structured["items"].([]any); len(items) != 1 || items[0].(map[string]any)["ref"] != float64(child) {
			t.Fatalf("under: %+v", r)
		}
		r = m.OK("service_list", map[string]any{"limit": 1})
		if !strings.Contains(r.Text, "1 shown, more exist") {
			t.Fatalf("a note says more rows exist: %s", r.Text)
		}
		r = m.OK("service_list", map[string]any{"ready": true, "to_act_on": true, "order": "-priority_score"})
		if items := r.Structured["items"].([]any); len(items) != 2 {
			t.Fatalf("ready: %+v", r)
		}
		due := m.OK("service_add", map[string]any{"text": "Renew the domain today"}).Structured["task"].(map[string]any)
		r = m.OK("service_list", map[string]any{"today": true})
		agenda := r.Structured["agenda"].(map[string]any)
		if today := agenda["today"].([]any); len(today) != 1 || today[0].(map[string]any)["ref"] != due["ref"] ||
			!strings.Contains(r.Text, "today:") || agenda["date"] != e.Clock.Now().Format(time.DateOnly) {
			t.Fatalf("today gives the agenda GET /v1/agenda gives: %s %+v", r.Text, agenda)
		}
		overHTTP := e.OK(http.StatusOK, http.MethodGet, "/v1/agenda", e.Admin, nil)
		if len(overHTTP["today"].([]any)) != 1 || overHTTP["unscheduled_total"] != agenda["unscheduled_total"] {
			t.Fatalf("HTTP agenda %v, MCP agenda %v", overHTTP, agenda)
		}
		e.OK(http.StatusOK, http.MethodDelete, fmt.Sprintf("/v1/tasks/%v", due["ref"]), e.Admin, nil)
		m.Refused("validation", "service_list", map[string]any{"filter": map[string]any{"colour": "red"}})
		m.Refused("validation", "service_list", map[string]any{"order": "nonsense"})
		m.Refused("validation", "service_list", map[string]any{"limit": "twenty"})
		m.Refused("validation", "service_list", map[string]any{"bogus": true})
	})
	t.Run("service_search", func(t *testing.T) {
		m := m.With(t)
		r := m.OK("service_search", map[string]any{"q": "sessions"})
		if docs := r.Structured["documents"].([]any); len(docs) != 1 || !strings.Contains(r.Text, fmt.Sprintf("#%d", doc)) {
			t.Fatalf("search: %+v", r)
		}
		r = m.OK("service_search", map[string]any{"q": "login"})
		if ts := r.Structured["tasks"].([]any); len(ts) != 1 {
			t.Fatalf("search tasks: %+v", r)
		}
		// The last word matches as it is being typed (issue 34 §5).
		r = m.OK("service_search", map[string]any{"q": "sess"})
		if docs := r.Structured["documents"].([]any); len(docs) != 1 || !strings.Contains(r.Text, fmt.Sprintf("#%d", doc)) {
			t.Fatalf("search by prefix: %+v", r)
		}
		m.Refused("validation", "service_search", map[string]any{})
		m.Refused("validation", "service_search", map[string]any{"q": "type:nonsense login"})
	})
	t.Run("service_show", func(t *testing.T) {
		m := m.With(t)
		r := m.OK("service_show", map[string]any{"ref": fmt.Sprintf("#%d", parent)})
		for _, want := range []string{"Ship the login page", "governed by", "Use sessions, not JWT", "subtasks", "Style the button",
			"comments (last 1 of 1)", "verifications (last 1 of 1)", "continue with from: 1200"} {
			if !strings.Contains(r.Text, want) {
				t.Fatalf("show lacks %q:\n%s", want, r.Text)
			}
		}
		if r.Structured["body_next"] != float64(1200) || len(r.Structured["links"].([]any)) != 1 {
			t.Fatalf("show structured: %v", r.Structured)
		}
		t.Logf("service_show text: %d bytes", len(r.Text))
		if len(r.Text) > 2048 {
			t.Fatalf("a typical service_show is at most 2 KB of text, got %d", len(r.Text))
		}
		r = m.OK("service_show", map[string]any{"ref": parent, "from": 2300, "history": true, "tree": true})
		if r.Structured["body_from"] != float64(2300) || r.Structured["body_next"] != nil || !strings.Contains(r.Text, "history (newest first)") {
			t.Fatalf("show from/history: %v\n%s", r.Structured, r.Text)
		}
		r = m.OK("service_show", map[string]any{"ref": doc})
		if r.Structured["kind"] != "document" || !strings.Contains(r.Text, "We keep server-side sessions.") {
			t.Fatalf("show document: %+v", r)
		}
		m.Refused("not_found", "service_show", map[string]any{"ref": 999})
		m.Refused("validation", "service_show", map[string]any{})
		m.Refused("validation", "service_show", map[string]any{"ref": true})
	})
	t.Run("service_changes and service_journal", func(t *testing.T) {
		m := m.With(t)
		r := m.OK("service_changes", map[string]any{"since": 1, "limit": 3})
		if items := r.Structured["items"].([]any); len(items) != 3 || !strings.Contains(r.Text, "since set to the last seq + 1") {
			t.Fatalf("changes: %+v", r)
		}
		r = m.OK("service_changes", map[string]any{"mine": true})
		if !strings.Contains(r.Text, "task.verified") {
			t.Fatalf("mine: what this credential did, over HTTP too: %s", r.Text)
		}
		r = m.OK("service_journal", map[string]any{"by": "admin", "filter": map[string]any{"created_at.gte": "2000-01-01"}})
		if items := r.Structured["items"].([]any); len(items) == 0 {
			t.Fatalf("journal: %+v", r)
		}
		m.Refused("validation", "service_changes", map[string]any{"filter": map[string]any{"due_at.lt": "2020-01-01"}})
		// The feed's action and project filters ride in the filter object.
		r = m.OK("service_changes", map[string]any{"since": 1, "limit": 50, "filter": map[string]any{"action": "task.verified,task.created"}})
		for _, it := range r.Structured["items"].([]any) {
			if a := it.(map[string]any)["action"]; a != "task.verified" && a != "task.created" {
				t.Fatalf("changes filtered to two actions: %v", it)
			}
		}
		if len(r.Structured["items"].([]any)) == 0 {
			t.Fatalf("changes filtered to two actions: nothing")
		}
		if text := m.Refused("validation", "service_changes", map[string]any{"filter": map[string]any{"action": "task.finished"}}); !strings.Contains(text, "arguments.filter.action") {
			t.Fatalf("an unknown action is refused naming where it was written: %s", text)
		}
		m.Refused("validation", "service_changes", map[string]any{"filter": map[string]any{"project": "nope"}})
		// A wait with events there already answers at once; its bounds
		// are the feed's (app's TestChangesWait waits in earnest).
		if r := m.OK("service_changes", map[string]any{"since": 1, "limit": 1, "wait": 30}); len(r.Structured["items"].([]any)) != 1 {
			t.Fatalf("changes with a wait: %+v", r)
		}
		m.Refused("validation", "service_changes", map[string]any{"since": 1, "wait": 61})
		m.Refused("validation", "service_changes", map[string]any{"wait": 5})
		m.Refused("validation", "service_journal", map[string]any{"filter": map[string]any{"created_at.lt": "yesterday-ish"}})
	})
	t.Run("service_whoami", func(t *testing.T) {
		m := m.With(t)
		r := m.OK("service_whoami", nil)
		if !strings.Contains(r.Text, "workspace default (owner)") || !strings.Contains(r.Text, "scopes *") {
			t.Fatalf("whoami: %s", r.Text)
		}
		m.Refused("validation", "service_whoami", map[string]any{"who": "me"})
	})
}

func TestMCPWriteTools(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Member("alice", "member")
	bot := e.Agent("bot", "alice")
	other := e.Agent("other", "alice")
	m := e.Connect(t, bot, webtest.EraHandshake)
	o := e.Connect(t, other, webtest.EraStateless)
	a := e.TaskRef(e.Admin, map[string]any{"title": "First"})
	b := e.TaskRef(e.Admin, map[string]any{"title": "Second"})

	t.Run("service_add passes the captured line to the same Service as POST /v1/tasks", func(t *testing.T) {
		m := m.With(t)
		http := e.Do("POST", "/v1/tasks", bot, map[string]any{"text": "Buy milk #home"})
		r := m.Call("service_add", map[string]any{"text": "Buy milk #home"})
		if http.Status == 201 {
			if r.IsError || r.Structured["task"].(map[string]any)["title"] != http.JSON(t)["title"] {
				t.Fatalf("HTTP created %s; the tool answered %+v", http.Body, r)
			}
			// The claims below count the ready work: leave the world as it was.
			for _, ref := range []any{http.JSON(t)["ref"], r.Structured["task"].(map[string]any)["ref"]} {
				e.OK(200, "DELETE", fmt.Sprintf("/v1/tasks/%v", ref), e.Admin, nil)
			}
			return
		}
		code := http.JSON(t)["code"].(string)
		if !r.IsError || !strings.HasPrefix(r.Text, code+": ") || !strings.Contains(r.Text, "text") {
			t.Fatalf("HTTP refused with %s; the tool answered %+v", code, r)
		}
	})
	t.Run("service_update", func(t *testing.T) {
		m := m.With(t)
		r := m.OK("service_update", map[string]any{"ref": a, "title": "First, renamed", "importance": 5, "estimate": "1h30m",
			"defer": "2030-01-02", "assignee": "bot"})
		task := r.Structured["task"].(map[string]any)
		if task["title"] != "First, renamed" || task["estimate_minutes"] != float64(90) || task["snoozed_until"] == nil || task["assignee"] != "bot" {
			t.Fatalf("update: %v", task)
		}
		v := int(task["version"].(float64))
		text := m.Refused("version_conflict", "service_update", map[string]any{"ref": a, "title": "x", "expected_version": v - 1})
		if !strings.Contains(text, fmt.Sprintf("it is at %d", v)) || !strings.Contains(text, "fix: service_show") {
			t.Fatalf("a stale expected_version names the current version and the fix: %s", text)
		}
		r = m.OK("service_update", map[string]any{"ref": a, "defer": "", "assignee": "", "expected_version": v})
		if task := r.Structured["task"].(map[string]any); task["snoozed_until"] != nil || task["assignee"] != nil {
			t.Fatalf("'' clears: %v", task)
		}
		m.Refused("validation", "service_update", map[string]any{"ref": a, "importance": 9})
		m.Refused("validation", "service_update", map[string]any{"ref": a, "estimate": "a while"})
		r = m.OK("service_update", map[string]any{"ref": a, "plan": "2030-01-01", "until": "2030-01-05 17:00"})
		if task := r.Structured["task"].(map[string]any); task["starts_at"] == nil || task["due_at"] == nil || task["due_is_all_day"] != false {
			t.Fatalf("plan sets starts_at, until the due: %v", task)
		}
		r = m.OK("service_update", map[string]any{"ref": a, "plan": "", "until": ""})
		if task := r.Structured["task"].(map[string]any); task["starts_at"] != nil || task["due_at"] != nil {
			t.Fatalf("'' clears plan and until: %v", task)
		}
		m.Refused("validation", "service_update", map[string]any{"ref": a, "until": "some day maybe"})
		m.Refused("applies_to_not_repeating", "service_update", map[string]any{"ref": a, "title": "x", "applies_to": "this_one"})
		m.Refused("not_found", "service_update", map[string]any{"ref": 999, "title": "x"})
	})
	t.Run("service_claim", func(t *testing.T) {
		m, o := m.With(t), o.With(t)
		r := m.OK("service_claim", map[string]any{"ref": b})
		if !strings.HasPrefix(r.Text, fmt.Sprintf("claimed #%d", b)) || !strings.Contains(r.Text, "claimed by bot until") {
			t.Fatalf("claim: %s", r.Text)
		}
		text := o.Refused("claim_held", "service_claim", map[string]any{"ref": b})
		if !strings.Contains(text, "holder: bot") || !strings.Contains(text, "expires_at: ") {
			t.Fatalf("a claim conflict names the holder and the expiry: %s", text)
		}
		r = o.OK("service_claim", map[string]any{"ref": "next"})
		if r.Structured["task"].(map[string]any)["ref"] != float64(a) {
			t.Fatalf("next hands other the one task left: %v", r.Structured)
		}
		o.Refused("nothing_ready", "service_claim", map[string]any{"ref": "next"})
		m.OK("service_claim", map[string]any{"ref": b, "release": true})
		o.Refused("not_found", "service_claim", map[string]any{"ref": "#999"})
	})
	t.Run("service_done", func(t *testing.T) {
		m := m.With(t)
		r := m.OK("service_done", map[string]any{"ref": b})
		if r.Structured["task"].(map[string]any)["is_complete"] != true {
			t.Fatalf("done: %v", r.Structured)
		}
		m.Refused("not_repeating", "service_done", map[string]any{"ref": b, "skip": true})
		rep := m.OK("service_add", map[string]any{"text": "Water the plants every day"}).Structured["task"].(map[string]any)
		r = m.OK("service_done", map[string]any{"ref": rep["ref"], "skip": true})
		if !strings.HasPrefix(r.Text, "skipped #") || r.Structured["task"].(map[string]any)["status_category"] != "cancelled" {
			t.Fatalf("skip lets one occurrence go by: %s %v", r.Text, r.Structured)
		}
		m.Refused("not_found", "service_done", map[string]any{"ref": 999})
	})
	t.Run("service_comment", func(t *testing.T) {
		m, o := m.With(t), o.With(t)
		m.OK("service_comment", map[string]any{"ref": a, "body": "Looked at the login flow"})
		m.OK("service_comment", map[string]any{"ref": a, "body": "Looked at the logout flow"})
		o.OK("service_comment", map[string]any{"ref": a, "body": "Looked at the login flow too"})
		text := m.Refused("ambiguous", "service_comment", map[string]any{"ref": a, "body": "looked flow", "remove": true})
		if !strings.Contains(text, "login flow") || !strings.Contains(text, "logout flow") {
			t.Fatalf("several matches are listed: %s", text)
		}
		m.Refused("not_found", "service_comment", map[string]any{"ref": a, "body": "nothing like this", "remove": true})
		r := m.OK("service_comment", map[string]any{"ref": a, "body": "LOGOUT", "remove": true})
		if !strings.Contains(r.Text, "logout flow") {
			t.Fatalf("withdrawn: %s", r.Text)
		}
		m.OK("service_comment", map[string]any{"ref": a, "body": "login", "remove": true})
		m.Refused("validation", "service_comment", map[string]any{"ref": a})
	})
	t.Run("service_document", func(t *testing.T) {
		m := m.With(t)
		r := m.OK("service_document", map[string]any{"title": "Login finding", "type": "finding", "body": "Cookies expire early.", "tags": []string{"auth"}})
		d := r.Structured["document"].(map[string]any)
		if d["status_category"] != "in_progress" {
			t.Fatalf("an omitted status puts it in force: %v", d)
		}
		ref := int(d["ref"].(float64))
		r = m.OK("service_document", map[string]any{"ref": ref, "body": "Cookies expire after 5 minutes.", "expected_version": d["version"]})
		if !strings.HasPrefix(r.Text, fmt.Sprintf("revised #%d", ref)) {
			t.Fatalf("revise: %s", r.Text)
		}
		child := m.OK("service_document", map[string]any{"title": "Details", "parent": ref})
		if child.Structured["document"].(map[string]any)["parent_ref"] != float64(ref) {
			t.Fatalf("nest: %v", child.Structured)
		}
		m.Refused("version_conflict", "service_document", map[string]any{"ref": ref, "title": "x", "expected_version": 1})
		m.Refused("validation", "service_document", map[string]any{"title": "x", "type": "nonsense"})
	})
	t.Run("service_link", func(t *testing.T) {
		m := m.With(t)
		c := e.TaskRef(e.Admin, map[string]any{"title": "Third"})
		r := m.OK("service_link", map[string]any{"ref": []any{a, fmt.Sprint(b)}, "other": c, "type": "blocks"})
		if items := r.Structured["items"].([]any); len(items) != 2 || !strings.Contains(r.Text, fmt.Sprintf("blocks  #%d", c)) {
			t.Fatalf("link: %+v", r)
		}
		m.Refused("conflict", "service_link", map[string]any{"ref": a, "other": c, "type": "blocks"})
		m.OK("service_link", map[string]any{"ref": a, "other": []any{c}, "type": "blocks", "remove": true})
		m.Refused("not_found", "service_link", map[string]any{"ref": a, "other": c, "type": "blocks", "remove": true})
		m.Refused("validation", "service_link", map[string]any{"ref": a, "other": 999})
		m.Refused("validation", "service_link", map[string]any{"ref": a, "other": c, "type": "nonsense"})
	})
	t.Run("service_project", func(t *testing.T) {
		m := m.With(t)
		r := m.OK("service_project", map[string]any{"key": "ops", "title": "Operations", "private": true})
		if !strings.HasPrefix(r.Text, "created ops") || r.Structured["items"].([]any)[0].(map[string]any)["visibility"] != "private" {
			t.Fatalf("create: %+v", r)
		}
		r = m.OK("service_project", map[string]any{"key": "ops", "title": "Ops"})
		if !strings.HasPrefix(r.Text, "changed ops") {
			t.Fatalf("change: %s", r.Text)
		}
		r = m.OK("service_project", nil)
		if !strings.Contains(r.Text, "ops") || !strings.Contains(r.Text, "inbox") {
			t.Fatalf("list: %s", r.Text)
		}
		m.Refused("validation", "service_project", map[string]any{"key": "Bad Key", "title": "x"})
		m.Refused("validation", "service_project", map[string]any{"title": "no key"})
	})
	t.Run("service_call_api", func(t *testing.T) {
		m := m.With(t)
		r := m.OK("service_call_api", map[string]any{"method": "post", "path": fmt.Sprintf("/v1/tasks/%d/verifications", a),
			"body": map[string]any{"passed": true, "summary": "unit tests"}})
		if r.Structured["status"] != float64(201) || !strings.Contains(r.Text, "→ 201") {
			t.Fatalf("call_api: %+v", r)
		}
		r = m.OK("service_call_api", map[string]any{"method": "GET", "path": "/v1/tasks", "query": map[string]any{"limit": "1"}})
		if r.Structured["body"].(map[string]any)["page"].(map[string]any)["has_more"] != true {
			t.Fatalf("call_api query: %+v", r)
		}
		r = m.OK("service_call_api", map[string]any{"method": "POST", "path": "/v1/tasks", "body": map[string]any{"title": "Literal #not-a-tag !5/5"}})
		if task := r.Structured["body"].(map[string]any); task["title"] != "Literal #not-a-tag !5/5" || len(task["tags"].([]any)) != 0 {
			t.Fatalf("the line grammar is not applied: %v", task)
		}
		ev := e.OK(http.StatusOK, http.MethodGet, fmt.Sprintf("/v1/tasks/%d/events?limit=1", a), e.Admin, nil)["items"].([]any)[0].(map[string]any)
		if ev["actor_interface"] != "mcp" {
			t.Fatalf("an in-process call records mcp: %v", ev)
		}
		m.Refused("validation", "service_call_api", map[string]any{"method": "GET", "path": "/healthz"})
		m.Refused("validation", "service_call_api", map[string]any{"method": "GET", "path": "/v1/../mcp"})
		m.Refused("validation", "service_call_api", map[string]any{"method": "PUT", "path": "/v1/tasks"})
		m.Refused("not_found", "service_call_api", map[string]any{"method": "GET", "path": "/v1/tasks/999"})
		m.Refused("not_found", "service_call_api", map[string]any{"method": "GET", "path": "/v1/nothing"})
		m.Refused("method_not_allowed", "service_call_api", map[string]any{"method": "PATCH", "path": "/v1/tasks"})
		if text := m.Refused("validation", "service_call_api", map[string]any{"method": "POST", "path": "/v1/tasks", "body": map[string]any{"title": 5}}); !strings.Contains(text, "body.title") {
			t.Fatalf("a refused body names its field: %s", text)
		}
		m.Refused("forbidden", "service_call_api", map[string]any{"method": "POST", "path": "/v1/users", "body": map[string]any{"username": "x"}})
	})
}
