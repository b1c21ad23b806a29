package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"tend/web/webtest"
)

func taskPath(ref int, tail string) string { return fmt.Sprintf("/v1/tasks/%d%s", ref, tail) }

func (e *env) verifications(ref int) []any {
	e.T.Helper()
	return e.OK(http.StatusOK, http.MethodGet, taskPath(ref, "/verifications"), e.Admin, nil)["items"].([]any)
}

// POST /v1/tasks/{ref}/complete records the verification its body carries
// in the same transaction as the completion, once.
func TestCompleteRecordsItsVerification(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ref := e.TaskRef(e.Admin, map[string]any{"title": "Fix the flaky login test"})
	body := map[string]any{"verification": map[string]any{"passed": true, "summary": "go test -run Login -count=50", "commit_sha": "3f2a9c1"}}
	task := e.OK(http.StatusOK, http.MethodPost, taskPath(ref, "/complete"), e.Admin, body)
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
	e.OK(http.StatusOK, http.MethodPost, taskPath(ref, "/complete"), e.Admin, body)
	if n := len(e.verifications(ref)); n != 1 {
		t.Fatalf("a repeated completion recorded its verification again: %d", n)
	}
	evs := e.OK(http.StatusOK, http.MethodGet, taskPath(ref, "/events?order=seq"), e.Admin, nil)["items"].([]any)
	var actions []string
	for _, ev := range evs {
		actions = append(actions, ev.(map[string]any)["action"].(string))
	}
	if got := strings.Join(actions, " "); got != "task.created task.verified task.completed" {
		t.Fatalf("history: %s", got)
	}
	// Other evidence on a finished task is recorded.
	e.OK(http.StatusOK, http.MethodPost, taskPath(ref, "/complete"), e.Admin,
		map[string]any{"verification": map[string]any{"passed": false, "summary": "flaked again on CI"}})
	if n := len(e.verifications(ref)); n != 2 {
		t.Fatalf("new evidence on a finished task: %d verifications, want 2", n)
	}
}

// A verification refused completes nothing.
func TestCompleteRefusesABadVerificationWhole(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ref := e.TaskRef(e.Admin, map[string]any{"title": "Write the release notes"})
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
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, taskPath(ref, "/complete"), e.Admin, c.body)
		if loc := webtest.LocOfProblem(p); loc != c.loc {
			t.Errorf("%v: refused at %s, want %s", c.body, loc, c.loc)
		}
	}
	if e.IsComplete(ref) || len(e.verifications(ref)) != 0 {
		t.Fatal("a refused completion left something behind")
	}
}

// A completion refused records no verification.
func TestCompleteRefusedRecordsNoVerification(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ref := e.TaskRef(e.Admin, map[string]any{"title": "Rotate the keys"})
	// With no status in the done category, completing is refused inside
	// the transaction, after the verification was written in it.
	for _, st := range e.OK(http.StatusOK, http.MethodGet, "/v1/statuses", e.Admin, nil)["items"].([]any) {
		st := st.(map[string]any)
		if st["entity_type"] == "task" && st["category"] == "done" {
			e.OK(http.StatusNoContent, http.MethodDelete, "/v1/statuses/"+st["id"].(string), e.Admin, nil)
		}
	}
	e.Problem(http.StatusConflict, "conflict", http.MethodPost, taskPath(ref, "/complete"), e.Admin,
		map[string]any{"verification": map[string]any{"passed": true, "summary": "keys rotated"}})
	if e.IsComplete(ref) || len(e.verifications(ref)) != 0 {
		t.Fatal("the refused completion's verification was stored")
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/tasks/9999/complete", e.Admin,
		map[string]any{"verification": map[string]any{"passed": true}})
}

func TestCompleteWithoutVerification(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, body := range []any{nil, "{}", `{"verification": null}`} {
		ref := e.TaskRef(e.Admin, map[string]any{"title": "Tidy the desk"})
		task := e.OK(http.StatusOK, http.MethodPost, taskPath(ref, "/complete"), e.Admin, body)
		if task["is_complete"] != true || len(e.verifications(ref)) != 0 {
			t.Fatalf("%v: %v", body, task)
		}
	}
}

// POST /v1/documents files the document already linked: every link of
// `links` is made in the transaction that creates it, or nothing is stored.
func TestDocumentCreatedWithItsLinks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	task := e.TaskRef(e.Admin, map[string]any{"title": "Fix the flaky login test"})
	spec := int(e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin, map[string]any{"title": "Login spec", "type": "spec"})["ref"].(float64))
	documents := func() int {
		t.Helper()
		return len(e.OK(http.StatusOK, http.MethodGet, "/v1/documents?limit=100", e.Admin, nil)["items"].([]any))
	}

	d := e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin, map[string]any{
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
	stored := e.OK(http.StatusOK, http.MethodGet, fmt.Sprintf("/v1/documents/%v/links", d["ref"]), e.Admin, nil)["items"].([]any)
	backlinks := e.OK(http.StatusOK, http.MethodGet, fmt.Sprintf("/v1/tasks/%d/links", task), e.Admin, nil)["items"].([]any)
	if len(stored) != 3 || len(backlinks) != 2 {
		t.Fatalf("stored links: %d from the document, %d at the task", len(stored), len(backlinks))
	}
	plain := e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin, map[string]any{"title": "No links"})
	if _, ok := plain["links"]; ok {
		t.Fatalf("a document created without links answers the Document alone: %v", plain)
	}

	// A private project the reader is not in: its task answers like none.
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "hr", "title": "HR", "visibility": "private"})
	hidden := e.TaskRef(e.Admin, map[string]any{"title": "Salary review", "project": "hr"})
	bob := e.Member("bob", "member")

	before := documents()
	for _, c := range []struct {
		token  string
		links  any
		status int
		code   string
		loc    string
	}{
		{e.Admin, []any{map[string]any{"link_type": "relates_to", "target": task}, map[string]any{"link_type": "inspires", "target": task}}, 422, "validation", "body.links.1.link_type"},
		{e.Admin, []any{map[string]any{"link_type": "relates_to", "target": 9999}}, 422, "validation", "body.links.0.target"},
		{e.Admin, []any{map[string]any{"link_type": "relates_to", "target": "abc"}}, 422, "validation", "body.links.0.target"},
		{e.Admin, []any{map[string]any{"target": task}}, 422, "validation", "body.links.0.link_type"},
		{e.Admin, []any{map[string]any{"link_type": "relates_to", "target": task, "direction": "sideways"}}, 422, "validation", "body.links.0.direction"},
		{e.Admin, []any{map[string]any{"link_type": "relates_to", "target": task, "target_type": "project"}}, 422, "validation", "body.links.0.target_type"},
		{e.Admin, []any{map[string]any{"link_type": "relates_to", "target": spec, "target_type": "task"}}, 422, "validation", "body.links.0.target"},
		{e.Admin, []any{map[string]any{"link_type": "relates_to", "target": task, "colour": "red"}}, 422, "validation", "body.colour"},
		{e.Admin, []any{map[string]any{"link_type": "relates_to", "target": task}, map[string]any{"link_type": "relates_to", "target": task}}, 409, "conflict", ""},
		{e.Admin, manyLinks(task, 101), 422, "over_limit", "body.links"},
		{bob, []any{map[string]any{"link_type": "relates_to", "target": hidden}}, 422, "validation", "body.links.0.target"},
	} {
		p := e.Problem(c.status, c.code, http.MethodPost, "/v1/documents", c.token, map[string]any{"title": "A finding", "type": "finding", "links": c.links})
		if loc := webtest.LocOfProblem(p); loc != c.loc {
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
