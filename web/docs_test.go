package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/web/webtest"
)

type docExample struct {
	Title string `json:"title"`
	HTTP  *struct {
		Method string          `json:"method"`
		Path   string          `json:"path"`
		Body   json.RawMessage `json:"body"`
	} `json:"http"`
	MCP *struct {
		Tool      string         `json:"tool"`
		Arguments map[string]any `json:"arguments"`
	} `json:"mcp"`
	Status   int            `json:"status"`
	IsError  bool           `json:"is_error"`
	Text     string         `json:"text"`
	Response map[string]any `json:"response"`
}

// Every worked call of GET /v1/docs/examples is made, in order, against a
// fresh instance, and answers as documented.
func TestDocsExamplesRunAgainstAFreshInstance(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var examples []docExample
	b, err := os.ReadFile("docs/examples.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &examples); err != nil {
		t.Fatal(err)
	}
	m := e.Connect(t, e.Admin, webtest.EraStateless)
	for i, ex := range examples {
		var got any
		switch {
		case ex.HTTP != nil:
			var body any
			if len(ex.HTTP.Body) > 0 {
				body = string(ex.HTTP.Body)
			}
			r := e.Do(ex.HTTP.Method, ex.HTTP.Path, e.Admin, body)
			if r.Status != ex.Status {
				t.Fatalf("example %d (%s): status %d, documented %d\n%s", i+1, ex.Title, r.Status, ex.Status, r.Body)
			}
			got = r.JSON(t)
		default:
			r := m.Call(ex.MCP.Tool, ex.MCP.Arguments)
			if r.IsError != ex.IsError || !strings.HasPrefix(r.Text, ex.Text) {
				t.Fatalf("example %d (%s): isError %v, text:\n%s\ndocumented isError %v, text beginning:\n%s", i+1, ex.Title, r.IsError, r.Text, ex.IsError, ex.Text)
			}
			got = r.Structured
		}
		if ex.Response != nil && !subset(ex.Response, got) {
			b, _ := json.Marshal(got)
			t.Fatalf("example %d (%s): the answer\n%s\ndoes not hold the documented\n%v", i+1, ex.Title, b, ex.Response)
		}
	}
	page := e.Do(http.MethodGet, "/v1/docs/examples", e.Admin, nil)
	if page.Status != http.StatusOK || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/markdown") ||
		!strings.Contains(string(page.Body), "## 2. Claim the next ready task over HTTP") {
		t.Fatalf("GET /v1/docs/examples: %d %s", page.Status, page.Body)
	}
	res, err := m.Session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "service://docs/examples"})
	if err != nil || res.Contents[0].Text != string(page.Body) {
		t.Fatalf("service://docs/examples is the same document: %v", err)
	}
}

// subset reports whether every field of want is in got with the same value.
func subset(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			if gv, ok := g[k]; !ok || !subset(v, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !subset(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	wb, _ := json.Marshal(want)
	gb, _ := json.Marshal(got)
	return string(wb) == string(gb)
}

func TestDocsAgentGuide(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	page := e.Do(http.MethodGet, "/v1/docs/agent", e.Admin, nil)
	text := string(page.Body)
	if page.Status != http.StatusOK || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/markdown") {
		t.Fatalf("GET /v1/docs/agent: %d", page.Status)
	}
	first := strings.Index(text, "1. **Claim the next ready task**")
	if first < 0 || !strings.Contains(text[first:], `service_claim ref "next"`) {
		t.Fatalf("the loop starts with next:\n%s", text)
	}
	for _, tool := range []string{"service_list", "service_search", "service_show", "service_add", "service_comment", "service_document",
		"service_update", "service_link", "service_project", "service_changes", "service_journal", "service_claim", "service_whoami",
		"service_call_api", "service_done", "nothing_ready", "claim_held", "version_conflict", "1200 characters", "--allowed-hosts"} {
		if !strings.Contains(text, tool) {
			t.Errorf("the guide does not mention %s", tool)
		}
	}
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/docs/agent", "", nil)
}

func TestMCPResources(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin,
		map[string]any{"title": "Every change has a test", "type": "decision", "body": "No change lands without a test that fails first."})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin, map[string]any{"title": "Lunch notes", "type": "note"})
	m := e.Connect(t, e.Admin, webtest.EraHandshake)
	list, err := m.Session.ListResources(context.Background(), nil)
	if err != nil || len(list.Resources) != 3 {
		t.Fatalf("resources/list: %v %v", err, list)
	}
	read := func(uri string) string {
		res, err := m.Session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		return res.Contents[0].Text
	}
	conv := read("service://conventions")
	if !strings.Contains(conv, "#1 Every change has a test (decision, inbox): No change lands") || strings.Contains(conv, "Lunch") ||
		!strings.Contains(conv, "- blocks (sequencing)") || !strings.Contains(conv, "(todo, default)") {
		t.Fatalf("conventions:\n%s", conv)
	}
	var meta map[string]any
	if err := json.Unmarshal([]byte(read("service://meta")), &meta); err != nil || meta["link_types"] == nil || meta["error_codes"] == nil {
		t.Fatalf("meta: %v", err)
	}
	if _, err := m.Session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "service://nothing"}); err == nil {
		t.Fatal("an unknown resource is an error")
	}
}
