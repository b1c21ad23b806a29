package web_test

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
	eraHandshake = "2025-11-25"
	eraStateless = "2026-07-28"
)

var eras = []string{eraHandshake, eraStateless}

// bearer adds the credential to every request of the MCP client.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// mcpClient is a go-sdk client session against the real endpoint, with the
// tool schemas to check structuredContent against.
type mcpClient struct {
	t       *testing.T
	cs      *mcp.ClientSession
	outputs map[string]*jsonschema.Resolved
}

// connect opens a session over HTTP in the given era as token.
func (e *env) connect(t *testing.T, token, era string) *mcpClient {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "tend-test", Version: "1"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: e.srv.URL + "/mcp", MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearer{token: token, base: e.srv.Client().Transport}}}
	cs, err := c.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: era})
	if err != nil {
		t.Fatalf("connect (%s): %v", era, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != era {
		t.Fatalf("negotiated %s, want %s", got, era)
	}
	return newMCPClient(t, cs)
}

func newMCPClient(t *testing.T, cs *mcp.ClientSession) *mcpClient {
	m := &mcpClient{t: t, cs: cs, outputs: map[string]*jsonschema.Resolved{}}
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

// toolResult is one tool call's answer.
type toolResult struct {
	Text       string
	Structured map[string]any
	IsError    bool
}

// call calls a tool; a JSON-RPC error fails the test (no tool failure is one).
func (m *mcpClient) call(name string, args map[string]any) toolResult {
	m.t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	res, err := m.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		m.t.Fatalf("%s: JSON-RPC error %v", name, err)
	}
	var out toolResult
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

// ok calls a tool that must succeed.
func (m *mcpClient) ok(name string, args map[string]any) toolResult {
	m.t.Helper()
	r := m.call(name, args)
	if r.IsError {
		m.t.Fatalf("%s %v: %s", name, args, r.Text)
	}
	if r.Structured == nil || r.Text == "" {
		m.t.Fatalf("%s: a result carries text and structuredContent: %+v", name, r)
	}
	return r
}

// refused calls a tool that must fail with code, as an isError result whose
// text begins with the code.
func (m *mcpClient) refused(code, name string, args map[string]any) string {
	m.t.Helper()
	r := m.call(name, args)
	if !r.IsError || !strings.HasPrefix(r.Text, code+": ") {
		m.t.Fatalf("%s %v: want an isError result with code %s, got %+v", name, args, code, r)
	}
	return r.Text
}

// taskRef creates a task over HTTP and returns its ref.
func (e *env) taskRef(token string, body map[string]any) int {
	e.t.Helper()
	return int(e.ok(http.StatusCreated, http.MethodPost, "/v1/tasks", token, body)["ref"].(float64))
}

// agent creates a service account answering to person, joins it to the
// default workspace and returns its token.
func (e *env) agent(name, person string) string {
	e.t.Helper()
	e.ok(http.StatusCreated, http.MethodPost, "/v1/users", e.admin, map[string]any{"username": name, "is_service_account": true, "answers_to": person})
	e.join(name, "member")
	return e.issue(e.admin, map[string]any{"username": name})["token"].(string)
}

// srvHandler is the web.Server behind the test server.
func (e *env) srvHandler() *web.Server { return e.srv.Config.Handler.(*web.Server) }

// with is the client reporting to t, for use in a subtest.
func (m *mcpClient) with(t *testing.T) *mcpClient {
	c := *m
	c.t = t
	return &c
}
