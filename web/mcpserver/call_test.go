package mcpserver_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/web/webtest"
)

// TestMCPFastPathMatchesSDK sends the same raw 2026-07-28 requests to
// POST /mcp, where tend answers a plain tools/call itself, and to the SDK's
// stateless handler serving the same tools, and wants the same answer
// from both: status, content type and JSON body. The requests the fast
// path leaves to the SDK (a header or _meta that does not fit, an unknown
// tool, a field it does not know) must come back as the SDK answers them,
// but for its plain-text refusals, which tend answers as JSON-RPC errors
// with the same status and text. (What tend refuses before the SDK sees
// it is TestMCPPostMalformed's.)
func TestMCPFastPathMatchesSDK(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ref := e.TaskRef(e.Admin, map[string]any{"title": "Write the <report>", "description": "with \"quotes\" & more"})
	e.TaskRef(e.Admin, map[string]any{"title": "Second task", "importance": 4})
	s := e.Handler()
	sdk := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.MCP().For(s.MCP().StdioIdentity(e.Admin)) },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	t.Cleanup(sdk.Close)

	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
		`"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}}`
	call := func(id, tool, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `,` + meta + `}}`
	}
	headers := func(tool string) map[string]string {
		return map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool}
	}
	with := func(h map[string]string, k, v string) map[string]string {
		h[k] = v
		return h
	}
	cases := []struct {
		name    string
		headers map[string]string
		body    string
	}{
		{"list", headers("service_list"), call("1", "service_list", `{}`)},
		{"list with a string id", headers("service_list"), call(`"a-1"`, "service_list", `{"limit":1}`)},
		{"show", headers("service_show"), call("2", "service_show", `{"ref":`+strconv.Itoa(ref)+`}`)},
		{"whoami without arguments", headers("service_whoami"),
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"service_whoami",` + meta + `}}`},
		{"search", headers("service_search"), call("4", "service_search", `{"q":"report"}`)},
		{"a refusal", headers("service_show"), call("5", "service_show", `{"ref":99999}`)},
		{"an unknown argument", headers("service_list"), call("6", "service_list", `{"colour":"red"}`)},
		{"a wrongly typed argument", headers("service_list"), call("7", "service_list", `{"limit":"many"}`)},
		{"Mcp-Name differs", headers("service_show"), call("8", "service_list", `{}`)},
		{"an unknown tool", headers("service_nothing"), call("9", "service_nothing", `{}`)},
		{"_meta version differs", headers("service_list"), strings.Replace(call("10", "service_list", `{}`), `protocolVersion":"2026-07-28"`, `protocolVersion":"2026-08-01"`, 1)},
		{"no client capabilities", headers("service_list"), strings.Replace(call("11", "service_list", `{}`), `"io.modelcontextprotocol/clientCapabilities":{},`, ``, 1)},
		{"a params field of another feature", headers("service_list"), strings.Replace(call("12", "service_list", `{}`), `"params":{`, `"params":{"requestState":"x",`, 1)},
		{"a notification", headers("service_list"), strings.Replace(call("13", "service_list", `{}`), `"id":13,`, ``, 1)},
		{"no Mcp-Method", with(headers("service_list"), "Mcp-Method", ""), call("15", "service_list", `{}`)},
		{"Accept without the event stream", with(headers("service_list"), "Accept", "application/json"), call("16", "service_list", `{}`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := postRaw(t, e.Srv.URL+"/mcp", e.Admin, c.headers, c.body)
			want := postRaw(t, sdk.URL, "", c.headers, c.body)
			if strings.HasPrefix(want.contentType, "text/plain") {
				var msg struct{ ID any }
				_ = json.Unmarshal([]byte(c.body), &msg)
				want.contentType = "application/json"
				want.body = map[string]any{"jsonrpc": "2.0", "id": msg.ID,
					"error": map[string]any{"code": float64(-32600), "message": strings.TrimSpace(want.body.(string))}}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("POST /mcp answered\n%+v\nthe SDK\n%+v", got, want)
			}
		})
	}
}

type rawAnswer struct {
	status       int
	contentType  string
	cacheControl string
	body         any // decoded JSON, or the text when it is not JSON
}

func postRaw(t *testing.T, url, token string, headers map[string]string, body string) rawAnswer {
	t.Helper()
	r := mcpPost(t, url, token, headers, body)
	a := rawAnswer{status: r.Status, contentType: r.Header.Get("Content-Type"), cacheControl: r.Header.Get("Cache-Control")}
	if json.Unmarshal(r.Body, &a.body) != nil {
		a.body = string(r.Body)
	}
	return a
}

// mcpPost sends body to url with token and the headers a client of the
// streamable transport sends, changed by headers (an empty value removes
// one), and answers the response, its body read.
func mcpPost(t *testing.T, url, token string, headers map[string]string, body string) webtest.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	return webtest.Fetch(t, http.DefaultClient, req)
}
