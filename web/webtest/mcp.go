package webtest

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/web"
)

// The two protocol eras POST /mcp serves on one URL.
const (
	EraHandshake = "2025-11-25"
	EraStateless = "2026-07-28"
)

// Eras are both protocol eras, for tests that run in each.
var Eras = []string{EraHandshake, EraStateless}

// Bearer adds the credential Token to every request it sends through
// Base: the transport of an MCP client.
type Bearer struct {
	Token string
	Base  http.RoundTripper
}

// RoundTrip sends r with the credential.
func (b Bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.Token)
	return b.Base.RoundTrip(r)
}

// MCPClient is a go-sdk client session against the real endpoint, with the
// tool schemas to check structuredContent against.
type MCPClient struct {
	t       *testing.T
	Session *mcp.ClientSession
	outputs map[string]*jsonschema.Resolved
}

// Connect opens a session over HTTP in the given era as token.
func (e *Env) Connect(t *testing.T, token, era string) *MCPClient {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "tend-test", Version: "1"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: e.Srv.URL + "/mcp", MaxRetries: -1,
		HTTPClient: &http.Client{Transport: Bearer{Token: token, Base: e.Srv.Client().Transport}}}
	cs, err := c.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: era})
	if err != nil {
		t.Fatalf("connect (%s): %v", era, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != era {
		t.Fatalf("negotiated %s, want %s", got, era)
	}
	return NewMCPClient(t, cs)
}

// NewMCPClient wraps a session, reading its tools' output schemas to check every structuredContent against.
func NewMCPClient(t *testing.T, cs *mcp.ClientSession) *MCPClient {
	m := &MCPClient{t: t, Session: cs, outputs: map[string]*jsonschema.Resolved{}}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s output schema: %v", tool.Name, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s output schema: %v", tool.Name, err)
		}
		m.outputs[tool.Name] = r
	}
	return m
}

// ToolResult is one tool call's answer.
type ToolResult struct {
	Text       string
	Structured map[string]any
	IsError    bool
}

// Call calls a tool; a JSON-RPC error fails the test (no tool failure is one).
func (m *MCPClient) Call(name string, args map[string]any) ToolResult {
	m.t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	res, err := m.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		m.t.Fatalf("%s: JSON-RPC error %v", name, err)
	}
	var out ToolResult
	out.IsError = res.IsError
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out.Text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out.Structured); err != nil {
			m.t.Fatalf("%s: structuredContent is not an object: %s", name, b)
		}
		var v any
		_ = json.Unmarshal(b, &v)
		if err := m.outputs[name].Validate(v); err != nil {
			m.t.Fatalf("%s: structuredContent does not match the output schema: %v\n%s", name, err, b)
		}
	}
	return out
}

// OK calls a tool that must succeed.
func (m *MCPClient) OK(name string, args map[string]any) ToolResult {
	m.t.Helper()
	r := m.Call(name, args)
	if r.IsError {
		m.t.Fatalf("%s %v: %s", name, args, r.Text)
	}
	if r.Structured == nil || r.Text == "" {
		m.t.Fatalf("%s: a result carries text and structuredContent: %+v", name, r)
	}
	return r
}

// Refused calls a tool that must fail with code, as an isError result whose
// text begins with the code.
func (m *MCPClient) Refused(code, name string, args map[string]any) string {
	m.t.Helper()
	r := m.Call(name, args)
	if !r.IsError || !strings.HasPrefix(r.Text, code+": ") {
		m.t.Fatalf("%s %v: want an isError result with code %s, got %+v", name, args, code, r)
	}
	return r.Text
}

// TaskRef creates a task over HTTP and returns its ref.
func (e *Env) TaskRef(token string, body map[string]any) int {
	e.T.Helper()
	return int(e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", token, body)["ref"].(float64))
}

// Agent creates a service account answering to person, joins it to the
// default workspace and returns its token.
func (e *Env) Agent(name, person string) string {
	e.T.Helper()
	e.OK(http.StatusCreated, http.MethodPost, "/v1/users", e.Admin, map[string]any{"username": name, "is_service_account": true, "answers_to": person})
	e.Join(name, "member")
	return e.Issue(e.Admin, map[string]any{"username": name})["token"].(string)
}

// Handler is the web.Server behind the test server (inside Validated).
func (e *Env) Handler() *web.Server {
	if e.server != nil {
		return e.server
	}
	h := e.Srv.Config.Handler
	if v, ok := h.(validated); ok {
		h = v.inner
	}
	return h.(*web.Server)
}

// With is the client reporting to t, for use in a subtest.
func (m *MCPClient) With(t *testing.T) *MCPClient {
	c := *m
	c.t = t
	return &c
}
