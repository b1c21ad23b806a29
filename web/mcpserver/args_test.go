package mcpserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"tend/web/webtest"
)

// newArgsEnv is what the argument tests refuse against: the
// administrator's stateless session and the ref of one task to name.
func newArgsEnv(t *testing.T) (*env, *webtest.MCPClient, int) {
	t.Helper()
	e := newEnv(t)
	m := e.Connect(t, e.Admin, webtest.EraStateless)
	return e, m, e.TaskRef(e.Admin, map[string]any{"title": "Water the plants"})
}

// A mistyped argument is refused as itself, with the name it most likely
// meant and the names there are, never reported as the required argument
// it left out; nested objects are held to the same.
func TestMCPUnknownArgumentsNamed(t *testing.T) {
	t.Parallel()
	e, m, ref := newArgsEnv(t)
	for _, c := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"service_add", map[string]any{"txt": "Buy milk"}, []string{`arguments.txt: unknown argument "txt" (did you mean text?); ` +
			`the arguments are description, parent, text, type, workspace`}},
		{"service_list", map[string]any{"limt": 5}, []string{`unknown argument "limt" (did you mean limit?)`}},
		{"service_show", map[string]any{"ref": ref, "histroy": true}, []string{`(did you mean history?)`}},
		{"service_search", map[string]any{"query": "milk"}, []string{`unknown argument "query"; the arguments are limit, project, q, workspace`}},
		{"service_whoami", map[string]any{"verbose": true}, []string{`unknown argument "verbose"; this tool takes no arguments`}},
		{"service_done", map[string]any{"ref": ref, "verification": map[string]any{"passd": true}},
			[]string{`arguments.verification.passd: unknown field "passd" in verification (did you mean passed?); its fields are commit_sha, passed, summary`}},
		{"service_done", map[string]any{"ref": ref, "verification": map[string]any{"summary": "ran it"}}, []string{"arguments.verification.passed: passed is required"}},
		{"service_done", map[string]any{"ref": ref, "skip": true, "verification": map[string]any{"passed": true}}, []string{"arguments.verification: a skipped occurrence was not done"}},
		{"service_document", map[string]any{"title": "A note", "links": []any{map[string]any{"link_typ": "relates_to", "target": ref}}},
			[]string{`arguments.links.0.link_typ: unknown field "link_typ" in links.0 (did you mean link_type?)`}},
		{"service_document", map[string]any{"title": "A note", "links": []any{map[string]any{"target": ref}}}, []string{"arguments.links.0.link_type: link_type is required"}},
		{"service_list", map[string]any{"filter": map[string]any{"stauts": "todo"}}, []string{`arguments.filter.stauts: filter key "stauts" selects nothing (did you mean status?); ` +
			`the keys are answers_to, assignee, claimed_at,`, "status, status_category,", "due_at.gte"}},
	} {
		text := m.Refused("validation", c.tool, c.args)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v:\n%s\nwants %q", c.tool, c.args, text, w)
			}
		}
		if strings.Contains(text, "text is required") {
			t.Errorf("%s %v: a mistyped name reported as a missing one:\n%s", c.tool, c.args, text)
		}
	}
	if e.IsComplete(ref) {
		t.Fatal("a refused service_done completed the task")
	}
}

// A ref that cannot name an item is a validation error naming the
// argument; a well-formed ref that names nothing visible stays not_found.
func TestMCPMalformedRefsNamed(t *testing.T) {
	t.Parallel()
	e, m, ref := newArgsEnv(t)
	for _, c := range []struct {
		tool string
		args map[string]any
		loc  string
	}{
		{"service_show", map[string]any{"ref": "abc"}, "arguments.ref"},
		{"service_show", map[string]any{"ref": ""}, "arguments.ref"},
		{"service_done", map[string]any{"ref": "#abc"}, "arguments.ref"},
		{"service_update", map[string]any{"ref": "4.5", "title": "x"}, "arguments.ref"},
		{"service_claim", map[string]any{"ref": "nest"}, "arguments.ref"},
		{"service_claim", map[string]any{"ref": "next", "release": true}, "arguments.ref"},
		{"service_comment", map[string]any{"ref": "-3", "body": "hello"}, "arguments.ref"},
		{"service_add", map[string]any{"text": "Repot the fern", "parent": "fern"}, "arguments.parent"},
		{"service_link", map[string]any{"ref": ref, "other": []any{ref, "abc"}}, "arguments.other.1"},
		{"service_link", map[string]any{"ref": "x", "other": ref}, "arguments.ref"},
		{"service_document", map[string]any{"ref": "abc", "title": "x"}, "arguments.ref"},
		{"service_document", map[string]any{"title": "x", "links": []any{map[string]any{"link_type": "relates_to", "target": "abc"}}}, "arguments.links.0.target"},
	} {
		text := m.Refused("validation", c.tool, c.args)
		if !strings.HasPrefix(text, "validation: "+c.loc+": ") {
			t.Errorf("%s %v: want the refusal at %s:\n%s", c.tool, c.args, c.loc, text)
		}
	}
	m.Refused("not_found", "service_show", map[string]any{"ref": 9999})
	m.Refused("not_found", "service_show", map[string]any{"ref": "0190a5c4-9f2e-7c4b-8f3e-2b1d4c5e6f70"})
	m.OK("service_show", map[string]any{"ref": fmt.Sprintf("#%d", ref)})
	m.OK("service_claim", map[string]any{"ref": "next"})

	// In a URL the ref is part of the path: one that cannot name an item
	// names no resource, and answers 404 as any other path that names
	// nothing does. A body's ref is a field, refused as one.
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/abc", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/tasks/abc/complete", e.Admin, nil)
	p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, fmt.Sprintf("/v1/tasks/%d/links", ref), e.Admin,
		map[string]any{"link_type": "relates_to", "target": "abc"})
	if loc := webtest.LocOfProblem(p); loc != "body.target" {
		t.Fatalf("a link target that cannot name an item: refused at %s", loc)
	}
}

// service_list's arguments are the task listing's parameters: a refusal,
// the listing's own or the Service's, names the argument where the caller
// wrote it, at the top level or in filter.
func TestMCPListRefusalsNameTheArgument(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.Connect(t, e.Admin, webtest.EraStateless)
	for _, c := range []struct {
		args map[string]any
		loc  string
	}{
		{map[string]any{"project": "nope"}, "arguments.project"},
		{map[string]any{"order": "colour"}, "arguments.order"},
		{map[string]any{"order": "relevance"}, "arguments.order"},
		{map[string]any{"limit": -1}, "arguments.limit"},
		{map[string]any{"assignee": "nobody"}, "arguments.assignee"},
		{map[string]any{"filter": map[string]any{"project": "nope"}}, "arguments.filter.project"},
		{map[string]any{"filter": map[string]any{"q": "status:nope"}}, "arguments.filter.q"},
		{map[string]any{"filter": map[string]any{"include_completed": "maybe"}}, "arguments.filter.include_completed"},
		{map[string]any{"filter": map[string]any{"status_category": "nope"}}, "arguments.filter.status_category"},
		{map[string]any{"assignee": "me", "filter": map[string]any{"assignee": "nobody"}}, "arguments.filter.assignee"},
	} {
		if text := m.Refused("validation", "service_list", c.args); !strings.HasPrefix(text, "validation: "+c.loc+": ") {
			t.Errorf("%v: want the refusal at %s:\n%s", c.args, c.loc, text)
		}
	}
}
