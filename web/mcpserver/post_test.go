package mcpserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"tend/web/webtest"
)

// rawPost is one answer of POST /mcp, its body as sent.
type rawPost struct {
	status      int
	contentType string
	body        []byte
}

// rpc decodes the body as a JSON-RPC answer, its id kept as sent.
func (p rawPost) rpc(t *testing.T) rpcLine {
	t.Helper()
	if err := checkRPCLine(p.body); err != nil {
		t.Fatalf("not a JSON-RPC answer (%d %s): %v\n%.300s", p.status, p.contentType, err, p.body)
	}
	var a rpcLine
	if err := json.Unmarshal(p.body, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// post sends body to /mcp as admin with the headers a client sends and
// those given (an empty value removes one).
func (e *env) post(t *testing.T, headers map[string]string, body string) rawPost {
	t.Helper()
	r := mcpPost(t, e.Srv.URL+"/mcp", e.Admin, headers, body)
	return rawPost{status: r.Status, contentType: r.Header.Get("Content-Type"), body: r.Body}
}

// TestMCPPostMalformed: a body that is no JSON-RPC message is answered
// 400 with a JSON-RPC error (-32700 not JSON, -32600 no valid message),
// its id echoed when one can be read; the stdio lines' table, over HTTP.
func TestMCPPostMalformed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	handshake := map[string]string{"Mcp-Protocol-Version": webtest.EraHandshake}
	for _, c := range malformedLines {
		t.Run(c.name, func(t *testing.T) {
			got := e.post(t, handshake, c.line)
			switch {
			case strings.TrimSpace(c.line) == "":
				c.code, c.id = -32700, "null"
			case c.name == "an unknown notification": // the SDK's refusal; over stdio it goes unanswered
				c.code, c.id = -32600, "null"
			case c.code == 0: // a response or notification: accepted, as the SDK accepts them
				if got.status != http.StatusAccepted || len(got.body) != 0 {
					t.Fatalf("%d %s %s", got.status, got.contentType, got.body)
				}
				return
			}
			a := got.rpc(t)
			if got.status != http.StatusBadRequest || got.contentType != "application/json" ||
				a.Error == nil || a.Error.Code != c.code || string(a.ID) != c.id {
				t.Fatalf("want 400 application/json, error %d, id %s; got %d %s %s", c.code, c.id, got.status, got.contentType, got.body)
			}
		})
	}
}

// TestMCPPostRefusals: what the SDK refuses in plain text, and a body over
// the limit, are answered as JSON-RPC errors with the HTTP status of the
// refusal.
func TestMCPPostRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
	cases := []struct {
		name    string
		headers map[string]string
		body    string
		status  int
		code    int
		id      string
		says    string
	}{
		{"a 3 MB body", nil, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"` + strings.Repeat("x", 3<<20) + `"}}`,
			http.StatusRequestEntityTooLarge, -32600, "null", "over 1048576 bytes"},
		{"one byte over 1 MiB", nil, list + strings.Repeat(" ", 1<<20-len(list)+1), http.StatusRequestEntityTooLarge, -32600, "null", "over 1048576 bytes"},
		{"text/plain", map[string]string{"Content-Type": "text/plain"}, list, http.StatusUnsupportedMediaType, -32600, "null", "Content-Type"},
		{"no event stream in Accept", map[string]string{"Accept": "application/json"}, list, http.StatusBadRequest, -32600, "1", "Accept"},
		{"an unknown method", map[string]string{"Mcp-Protocol-Version": webtest.EraHandshake}, `{"jsonrpc":"2.0","id":"m","method":"nothing/here"}`,
			http.StatusBadRequest, -32600, `"m"`, "nothing/here"},
		{"a call without id", map[string]string{"Mcp-Protocol-Version": webtest.EraHandshake}, `{"jsonrpc":"2.0","method":"tools/list"}`,
			http.StatusBadRequest, -32600, "null", "missing id"},
		{"an unknown protocol version", map[string]string{"Mcp-Protocol-Version": "2020-01-01"}, list, http.StatusBadRequest, -32600, "1", "protocol version"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := e.post(t, c.headers, c.body)
			a := got.rpc(t)
			if got.status != c.status || got.contentType != "application/json" || a.Error == nil || a.Error.Code != c.code ||
				string(a.ID) != c.id || !strings.Contains(a.Error.Message, c.says) {
				t.Fatalf("want %d application/json, error %d with id %s saying %q; got %d %s %.300s",
					c.status, c.code, c.id, c.says, got.status, got.contentType, got.body)
			}
		})
	}
	// Just under the limit is served.
	if got := e.post(t, nil, list+strings.Repeat(" ", 1<<20-len(list))); got.status != http.StatusOK || got.rpc(t).Result == nil {
		t.Fatalf("a body of exactly 1 MiB: %d %.200s", got.status, got.body)
	}
}

// TestMCPPostEchoesIDs: every id comes back byte for byte over HTTP, in
// both eras, whether tend's fast path or the SDK answers, with a result or
// an error.
func TestMCPPostEchoesIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	stateless := func(method, name string) map[string]string {
		return map[string]string{"Mcp-Protocol-Version": webtest.EraStateless, "Mcp-Method": method, "Mcp-Name": name}
	}
	ids := []string{`99999999999999999999999999`, `-99999999999999999999999999`, `1.50`, `1e3`, `-0`, `9007199254740993`,
		`7`, `"\u0041b"`, `"é"`, `"<&>"`, `"a\/b"`, `"plain"`}
	for _, id := range ids {
		cases := []struct {
			name    string
			headers map[string]string
			body    string
			result  bool
		}{
			{"handshake tools/list", map[string]string{"Mcp-Protocol-Version": webtest.EraHandshake},
				`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list","params":{}}`, true},
			{"stateless tools/call (fast path)", stateless("tools/call", "service_whoami"),
				`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"service_whoami",` + meta + `}}`, true},
			{"stateless resources/list (SDK)", stateless("resources/list", ""),
				`{"jsonrpc":"2.0","id":` + id + `,"method":"resources/list","params":{` + meta + `}}`, true},
			{"stateless unknown method (SDK error)", stateless("nothing/here", ""),
				`{"jsonrpc":"2.0","id":` + id + `,"method":"nothing/here","params":{` + meta + `}}`, false},
			{"jsonrpc 1.0 (tend's error)", nil, `{"jsonrpc":"1.0","id":` + id + `,"method":"tools/list"}`, false},
		}
		for _, c := range cases {
			got := e.post(t, c.headers, c.body)
			a := got.rpc(t)
			if string(a.ID) != id || (a.Result != nil) != c.result {
				t.Errorf("%s with id %s: %d %.300s", c.name, id, got.status, got.body)
			}
		}
	}
}
