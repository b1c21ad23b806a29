package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func taskPath(ref int, tail string) string { return fmt.Sprintf("/v1/tasks/%d%s", ref, tail) }

func (e *env) verifications(ref int) []any {
	e.t.Helper()
	return e.ok(http.StatusOK, http.MethodGet, taskPath(ref, "/verifications"), e.admin, nil)["items"].([]any)
}

func (e *env) isComplete(ref int) bool {
	e.t.Helper()
	return e.ok(http.StatusOK, http.MethodGet, taskPath(ref, ""), e.admin, nil)["is_complete"].(bool)
}

// POST /v1/tasks/{ref}/complete records the verification its body carries
// in the same transaction as the completion, once.
func TestCompleteRecordsItsVerification(t *testing.T) {
	e := newEnv(t)
	ref := e.taskRef(e.admin, map[string]any{"title": "Fix the flaky login test"})
	body := map[string]any{"verification": map[string]any{"passed": true, "summary": "go test -run Login -count=50", "commit_sha": "3f2a9c1"}}
	task := e.ok(http.StatusOK, http.MethodPost, taskPath(ref, "/complete"), e.admin, body)
	if task["is_complete"] != true || task["ref"] != float64(ref) {
		t.Fatalf("the answer is the completed task: %v", task)
	}
	vs := e.verifications(ref)
	if len(vs) != 1 {
		t.Fatalf("one verification, got %v", vs)
	}
	v := vs[0].(map[string]any)
	if v["passed"] != true || v["summary"] != "go test -run Login -count=50" || v["commit_sha"] != "3f2a9c1" || v["actor"] != "admin" {
		t.Fatalf("verification %v", v)
	}
	// Sent again (a retry after a lost answer): the task is done already
	// and the same verdict is the last recorded, so nothing is added.
	e.ok(http.StatusOK, http.MethodPost, taskPath(ref, "/complete"), e.admin, body)
	if n := len(e.verifications(ref)); n != 1 {
		t.Fatalf("a repeated completion recorded its verification again: %d", n)
	}
	evs := e.ok(http.StatusOK, http.MethodGet, taskPath(ref, "/events?order=seq"), e.admin, nil)["items"].([]any)
	var actions []string
	for _, ev := range evs {
		actions = append(actions, ev.(map[string]any)["action"].(string))
	}
	if got := strings.Join(actions, " "); got != "task.created task.verified task.completed" {
		t.Fatalf("history: %s", got)
	}
	// Other evidence on a finished task is recorded.
	e.ok(http.StatusOK, http.MethodPost, taskPath(ref, "/complete"), e.admin,
		map[string]any{"verification": map[string]any{"passed": false, "summary": "flaked again on CI"}})
	if n := len(e.verifications(ref)); n != 2 {
		t.Fatalf("new evidence on a finished task: %d verifications, want 2", n)
	}
}

// A verification refused completes nothing.
func TestCompleteRefusesABadVerificationWhole(t *testing.T) {
	e := newEnv(t)
	ref := e.taskRef(e.admin, map[string]any{"title": "Write the release notes"})
	for _, c := range []struct {
		body any
		loc  string
	}{
		{map[string]any{"verification": map[string]any{"summary": "no verdict"}}, "body.verification.passed"},
		{map[string]any{"verification": map[string]any{"passed": true, "summary": strings.Repeat("x", 2001)}}, "body.verification.summary"},
		{map[string]any{"verification": map[string]any{"passed": true, "commit_sha": strings.Repeat("a", 101)}}, "body.verification.commit_sha"},
		{map[string]any{"verification": map[string]any{"passed": "yes"}}, "body.verification.passed"},
		{map[string]any{"verification": map[string]any{"passed": true, "sha": "abc"}}, "body.sha"},
		{map[string]any{"verify": map[string]any{"passed": true}}, "body.verify"},
	} {
		p := e.problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, taskPath(ref, "/complete"), e.admin, c.body)
		if loc := locOfProblem(p); loc != c.loc {
			t.Errorf("%v: refused at %s, want %s", c.body, loc, c.loc)
		}
	}
	if e.isComplete(ref) || len(e.verifications(ref)) != 0 {
		t.Fatal("a refused completion left something behind")
	}
}

// A completion refused records no verification.
func TestCompleteRefusedRecordsNoVerification(t *testing.T) {
	e := newEnv(t)
	ref := e.taskRef(e.admin, map[string]any{"title": "Rotate the keys"})
	// With no status in the done category, completing is refused inside
	// the transaction, after the verification was written in it.
	for _, st := range e.ok(http.StatusOK, http.MethodGet, "/v1/statuses", e.admin, nil)["items"].([]any) {
		st := st.(map[string]any)
		if st["entity_type"] == "task" && st["category"] == "done" {
			e.ok(http.StatusNoContent, http.MethodDelete, "/v1/statuses/"+st["id"].(string), e.admin, nil)
		}
	}
	e.problem(http.StatusConflict, "conflict", http.MethodPost, taskPath(ref, "/complete"), e.admin,
		map[string]any{"verification": map[string]any{"passed": true, "summary": "keys rotated"}})
	if e.isComplete(ref) || len(e.verifications(ref)) != 0 {
		t.Fatal("the refused completion's verification was stored")
	}
	e.problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/tasks/9999/complete", e.admin,
		map[string]any{"verification": map[string]any{"passed": true}})
}

func TestCompleteWithoutVerification(t *testing.T) {
	e := newEnv(t)
	for _, body := range []any{nil, "{}", `{"verification": null}`} {
		ref := e.taskRef(e.admin, map[string]any{"title": "Tidy the desk"})
		task := e.ok(http.StatusOK, http.MethodPost, taskPath(ref, "/complete"), e.admin, body)
		if task["is_complete"] != true || len(e.verifications(ref)) != 0 {
			t.Fatalf("%v: %v", body, task)
		}
	}
}

// POST /v1/documents files the document already linked: every link of
// `links` is made in the transaction that creates it, or nothing is stored.
func TestDocumentCreatedWithItsLinks(t *testing.T) {
	e := newEnv(t)
	task := e.taskRef(e.admin, map[string]any{"title": "Fix the flaky login test"})
	spec := int(e.ok(http.StatusCreated, http.MethodPost, "/v1/documents", e.admin, map[string]any{"title": "Login spec", "type": "spec"})["ref"].(float64))
	documents := func() int {
		t.Helper()
		return len(e.ok(http.StatusOK, http.MethodGet, "/v1/documents?limit=100", e.admin, nil)["items"].([]any))
	}

	d := e.ok(http.StatusCreated, http.MethodPost, "/v1/documents", e.admin, map[string]any{
		"title": "Login test raced on the session clock", "type": "finding",
		"links": []any{
			map[string]any{"link_type": "relates_to", "target": task},
			map[string]any{"link_type": "derives_from", "target": fmt.Sprintf("#%d", spec)},
			map[string]any{"link_type": "blocks", "target": task, "target_type": "task", "direction": "incoming"},
		}})
	links, _ := d["links"].([]any)
	if d["type"] != "finding" || len(links) != 3 {
		t.Fatalf("created: %v", d)
	}
	for i, want := range []string{"relates to", "derives from", "is blocked by"} {
		if l := links[i].(map[string]any); l["label"] != want {
			t.Errorf("link %d: %v, want %q", i, l, want)
		}
	}
	stored := e.ok(http.StatusOK, http.MethodGet, fmt.Sprintf("/v1/documents/%v/links", d["ref"]), e.admin, nil)["items"].([]any)
	backlinks := e.ok(http.StatusOK, http.MethodGet, fmt.Sprintf("/v1/tasks/%d/links", task), e.admin, nil)["items"].([]any)
	if len(stored) != 3 || len(backlinks) != 2 {
		t.Fatalf("stored links: %d from the document, %d at the task", len(stored), len(backlinks))
	}
	plain := e.ok(http.StatusCreated, http.MethodPost, "/v1/documents", e.admin, map[string]any{"title": "No links"})
	if _, ok := plain["links"]; ok {
		t.Fatalf("a document created without links answers the Document alone: %v", plain)
	}

	// A private project the reader is not in: its task answers like none.
	e.ok(http.StatusCreated, http.MethodPost, "/v1/projects", e.admin, map[string]any{"key": "hr", "title": "HR", "visibility": "private"})
	hidden := e.taskRef(e.admin, map[string]any{"title": "Salary review", "project": "hr"})
	bob := e.person("bob")
	e.join("bob", "member")

	before := documents()
	for _, c := range []struct {
		token  string
		links  any
		status int
		code   string
		loc    string
	}{
		{e.admin, []any{map[string]any{"link_type": "relates_to", "target": task}, map[string]any{"link_type": "inspires", "target": task}}, 422, "validation", "body.links.1.link_type"},
		{e.admin, []any{map[string]any{"link_type": "relates_to", "target": 9999}}, 422, "validation", "body.links.0.target"},
		{e.admin, []any{map[string]any{"link_type": "relates_to", "target": "abc"}}, 422, "validation", "body.links.0.target"},
		{e.admin, []any{map[string]any{"target": task}}, 422, "validation", "body.links.0.link_type"},
		{e.admin, []any{map[string]any{"link_type": "relates_to", "target": task, "direction": "sideways"}}, 422, "validation", "body.links.0.direction"},
		{e.admin, []any{map[string]any{"link_type": "relates_to", "target": task, "target_type": "project"}}, 422, "validation", "body.links.0.target_type"},
		{e.admin, []any{map[string]any{"link_type": "relates_to", "target": spec, "target_type": "task"}}, 422, "validation", "body.links.0.target"},
		{e.admin, []any{map[string]any{"link_type": "relates_to", "target": task, "colour": "red"}}, 422, "validation", "body.colour"},
		{e.admin, []any{map[string]any{"link_type": "relates_to", "target": task}, map[string]any{"link_type": "relates_to", "target": task}}, 409, "conflict", ""},
		{e.admin, manyLinks(task, 101), 422, "over_limit", "body.links"},
		{bob, []any{map[string]any{"link_type": "relates_to", "target": hidden}}, 422, "validation", "body.links.0.target"},
	} {
		p := e.problem(c.status, c.code, http.MethodPost, "/v1/documents", c.token, map[string]any{"title": "A finding", "type": "finding", "links": c.links})
		if loc := locOfProblem(p); loc != c.loc {
			t.Errorf("%v: refused at %q, want %q", c.links, loc, c.loc)
		}
		if c.token == bob && !strings.Contains(fmt.Sprint(p["detail"]), fmt.Sprintf("no such task or document: %d", hidden)) {
			t.Errorf("a task out of sight answers like a missing one: %v", p["detail"])
		}
	}
	if after := documents(); after != before {
		t.Fatalf("refused creations stored %d documents", after-before)
	}
}

func manyLinks(target, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"link_type": "relates_to", "target": target}
	}
	return out
}

// locOfProblem is the first place a problem names, dotted ("" for none).
func locOfProblem(p map[string]any) string {
	d, ok := p["detail"].([]any)
	if !ok || len(d) == 0 {
		return ""
	}
	var parts []string
	for _, x := range d[0].(map[string]any)["loc"].([]any) {
		parts = append(parts, fmt.Sprint(x))
	}
	return strings.Join(parts, ".")
}
