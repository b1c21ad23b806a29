package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/internal/golden"
	"tend/web/webtest"
	"tend/web/wire"
)

// specTools is SPEC.md's "MCP tools" table: each tool's arguments, the
// required ones starred, and whether it only reads. service_update may
// take, beyond these, any field a task update sets as text (a field added
// to the task reaches the tool by its JSON name). Beyond the table,
// service_done records a verification with the completion and
// service_document files a new document with its links (issue 19: the
// agent's loop in three calls).
var specTools = map[string]struct {
	args     string
	readOnly bool
}{
	"service_list":     {"assignee filter limit order project ready to_act_on today workspace", true},
	"service_search":   {"q* limit project workspace", true},
	"service_show":     {"ref* from history tree workspace", true},
	"service_add":      {"text* description parent type workspace", false},
	"service_comment":  {"body* ref* remove workspace", false},
	"service_document": {"body expected_version links parent project ref status tags title type workspace", false},
	"service_update": {"ref* applies_to assignee defer description estimate expected_version importance plan repeat status title " +
		"type until urgency workspace", false},
	"service_link":     {"other* ref* remove type workspace", false},
	"service_project":  {"key parent private title workspace", false},
	"service_changes":  {"filter limit mine since wait workspace", true},
	"service_journal":  {"by filter limit oldest workspace", true},
	"service_claim":    {"ref* release workspace", false},
	"service_whoami":   {"", true},
	"service_call_api": {"method* path* body query", false},
	"service_done":     {"ref* skip verification workspace", false},
}

func TestMCPToolsListMatchesSpec(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.Connect(t, e.Admin, webtest.EraHandshake)
	res, err := m.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(specTools) {
		t.Fatalf("%d tools, want %d", len(res.Tools), len(specTools))
	}
	for _, tool := range res.Tools {
		spec, ok := specTools[tool.Name]
		if !ok {
			t.Fatalf("tool %s is not in SPEC.md", tool.Name)
		}
		var schema struct {
			Type       string                    `json:"type"`
			Properties map[string]map[string]any `json:"properties"`
			Required   []string                  `json:"required"`
		}
		b, _ := json.Marshal(tool.InputSchema)
		if err := json.Unmarshal(b, &schema); err != nil || schema.Type != "object" {
			t.Fatalf("%s input schema: %s", tool.Name, b)
		}
		var names, required []string
		for _, a := range strings.Fields(spec.args) {
			names = append(names, strings.TrimSuffix(a, "*"))
			if strings.HasSuffix(a, "*") {
				required = append(required, strings.TrimSuffix(a, "*"))
			}
		}
		var got []string
		for name, p := range schema.Properties {
			got = append(got, name)
			if d, _ := p["description"].(string); d == "" || strings.Contains(d, "\n") {
				t.Errorf("%s.%s: every argument is described in one short line, got %q", tool.Name, name, d)
			}
		}
		sort.Strings(names)
		sort.Strings(got)
		sort.Strings(required)
		sort.Strings(schema.Required)
		if tool.Name == "service_update" {
			got = slices.DeleteFunc(got, func(n string) bool { return !slices.Contains(names, n) && slices.Contains(wire.TaskUpdateFields, n) })
		}
		if !slices.Equal(got, names) {
			t.Errorf("%s arguments %v, SPEC.md says %v", tool.Name, got, names)
		}
		if !slices.Equal(schema.Required, required) && !(len(required) == 0 && len(schema.Required) == 0) {
			t.Errorf("%s required %v, SPEC.md says %v", tool.Name, schema.Required, required)
		}
		if tool.Annotations == nil || tool.Annotations.ReadOnlyHint != spec.readOnly {
			t.Errorf("%s: readOnlyHint should be %v", tool.Name, spec.readOnly)
		}
		if tool.OutputSchema == nil || tool.Description == "" {
			t.Errorf("%s: needs a description and an output schema", tool.Name)
		}
	}
	for _, ref := range []string{"service_show.ref", "service_claim.ref", "service_link.ref", "service_link.other", "service_add.parent"} {
		name, arg, _ := strings.Cut(ref, ".")
		for _, tool := range res.Tools {
			if tool.Name != name {
				continue
			}
			var schema struct {
				Properties map[string]struct {
					Type []string `json:"type"`
				} `json:"properties"`
			}
			b, _ := json.Marshal(tool.InputSchema)
			_ = json.Unmarshal(b, &schema)
			if typ := schema.Properties[arg].Type; len(typ) < 2 || typ[0] != "integer" || typ[1] != "string" {
				t.Errorf("%s accepts refs as integers or strings: %s", ref, b)
			}
		}
	}
	tools, err := json.MarshalIndent(res.Tools, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "mcp_tools_list.json"), tools)
	wire, _ := json.Marshal(res)
	if len(wire) > 24<<10 {
		t.Errorf("tools/list is %d bytes; the budget is 24 KB", len(wire))
	}
	t.Logf("tools/list: %d bytes", len(wire))
}

func TestMCPBothErasOnOneURL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ref := e.TaskRef(e.Admin, map[string]any{"title": "Write the report"})
	for _, era := range webtest.Eras {
		t.Run(era, func(t *testing.T) {
			m := e.Connect(t, e.Admin, era)
			r := m.OK("service_whoami", nil)
			if !strings.HasPrefix(r.Text, "you are admin") || r.Structured["user"].(map[string]any)["username"] != "admin" {
				t.Fatalf("whoami: %+v", r)
			}
			m.OK("service_claim", map[string]any{"ref": ref})
			m.OK("service_claim", map[string]any{"ref": ref, "release": true})
		})
	}
	evs := e.OK(http.StatusOK, http.MethodGet, fmt.Sprintf("/v1/tasks/%d/events", ref), e.Admin, nil)["items"].([]any)
	mcpEvents := 0
	for _, ev := range evs {
		if ev.(map[string]any)["action"] == "task.claimed" {
			if ev.(map[string]any)["actor_interface"] != "mcp" {
				t.Fatalf("an MCP call records actor_interface mcp: %v", ev)
			}
			mcpEvents++
		}
	}
	if mcpEvents != 2 {
		t.Fatalf("%d claim events, want one per era", mcpEvents)
	}
}

// postMCP sends one raw JSON-RPC request to /mcp.
func (e *env) postMCP(token, host, origin string) *http.Response {
	e.T.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
	req, err := http.NewRequest(http.MethodPost, e.Srv.URL+"/mcp", strings.NewReader(body))
	if err != nil {
		e.T.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
	}
	res, err := e.Srv.Client().Do(req)
	if err != nil {
		e.T.Fatal(err)
	}
	res.Body.Close()
	return res
}

func TestMCPRefusesWithoutCredentialHostOrOrigin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if res := e.postMCP("", "", ""); res.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Fatalf("no credential: %d %q", res.StatusCode, res.Header.Get("WWW-Authenticate"))
	}
	if res := e.postMCP("tend_nonsense", "", ""); res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("bad credential: %d", res.StatusCode)
	}
	if res := e.postMCP(e.Admin, "", ""); res.StatusCode != http.StatusOK || res.Header.Get("WWW-Authenticate") != "" {
		t.Fatalf("good credential: %d %q", res.StatusCode, res.Header.Get("WWW-Authenticate"))
	}
	if res := e.postMCP(e.Admin, "evil.example", ""); res.StatusCode != http.StatusForbidden {
		t.Fatalf("a rebinding Host on a loopback listener: %d, want 403", res.StatusCode)
	}
	if res := e.postMCP(e.Admin, "", "https://evil.example"); res.StatusCode != http.StatusForbidden {
		t.Fatalf("a cross-origin browser request: %d, want 403", res.StatusCode)
	}
	e.Handler().MCP().AllowHosts("tend.example.ts.net")
	if res := e.postMCP(e.Admin, "tend.example.ts.net", ""); res.StatusCode != http.StatusOK {
		t.Fatalf("an allowed proxy Host: %d, want 200", res.StatusCode)
	}
	if res := e.postMCP(e.Admin, "localhost:9999", ""); res.StatusCode != http.StatusOK {
		t.Fatalf("localhost on any port: %d, want 200", res.StatusCode)
	}
}

func TestMCPRevocationAndDeactivationStopTheNextCall(t *testing.T) {
	t.Parallel()
	for _, era := range webtest.Eras {
		t.Run(era, func(t *testing.T) {
			e := newEnv(t)
			e.Member("alice", "member")
			bot := e.Agent("bot", "alice")
			spare := e.Agent("spare", "alice")
			m := e.Connect(t, bot, era)
			m.OK("service_whoami", nil)
			id := e.OK(http.StatusOK, http.MethodGet, "/v1/me", bot, nil)["credential"].(map[string]any)["id"].(string)
			e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+id, e.Admin, nil)
			if _, err := m.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "service_whoami", Arguments: map[string]any{}}); err == nil {
				t.Fatal("a revoked credential's next call went through")
			}
			m2 := e.Connect(t, spare, era)
			m2.OK("service_whoami", nil)
			e.OK(http.StatusOK, http.MethodPatch, "/v1/users/alice", e.Admin, map[string]any{"active": false})
			if _, err := m2.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "service_whoami", Arguments: map[string]any{}}); err == nil {
				t.Fatal("a deactivated person's agent made its next call")
			}
			if res := e.postMCP(spare, "", ""); res.StatusCode != http.StatusUnauthorized {
				t.Fatalf("deactivated person's agent: %d, want 401", res.StatusCode)
			}
		})
	}
}
