package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/app"
	"tend/web/wire"
)

type callAPIArgs struct {
	Method string            `json:"method" jsonschema:"GET, POST, PATCH or DELETE"`
	Path   string            `json:"path" jsonschema:"a /v1 route, e.g. /v1/tasks/42/verifications"`
	Body   map[string]any    `json:"body,omitempty" jsonschema:"the JSON body, sent as is (the captured-line grammar is not applied)"`
	Query  map[string]string `json:"query,omitempty" jsonschema:"query parameters"`
}

type callAPIOut struct {
	Status int `json:"status"`
	// Body is any JSON value, so its schema must say so in words: an
	// undescribed one is the boolean schema MCP clients refuse.
	Body any `json:"body" jsonschema:"the route's JSON answer; null when it sent none"`
}

// apiTextLimit bounds the response text shown to the model; the whole
// response is in structuredContent.
const apiTextLimit = 4000

func (m *toolbox) addAPITools() {
	no := false
	addTool(m, &mcp.Tool{Name: "service_call_api", Annotations: &mcp.ToolAnnotations{OpenWorldHint: &no},
		Description: "Call any /v1 route of the HTTP API as yourself, e.g. POST /v1/tasks/42/verifications."}, m.toolCallAPI)
}

// toolCallAPI serves a /v1 request in-process, as the MCP caller: the
// route's own handler and the same Service, no loopback connection, and
// events recorded as coming through mcp.
func (m *toolbox) toolCallAPI(ctx context.Context, a app.Actor, in callAPIArgs) (string, callAPIOut, error) {
	method, clean, err := apiRoute(in)
	if err != nil {
		return "", callAPIOut{}, err
	}
	q := url.Values{}
	for k, v := range in.Query {
		q.Set(k, v)
	}
	var body []byte
	if in.Body != nil {
		body, _ = json.Marshal(in.Body)
	}
	status, answer, err := m.s.callAPI(ctx, a, method, clean, q, body)
	if err != nil {
		return "", callAPIOut{}, err
	}
	out := callAPIOut{Status: status}
	if len(answer) > 0 {
		if err := json.Unmarshal(answer, &out.Body); err != nil {
			out.Body = string(answer)
		}
	}
	u := url.URL{Path: clean, RawQuery: q.Encode()}
	text := method + " " + u.String() + " → " + strconv.Itoa(status) + "\n" + strings.TrimSpace(string(answer))
	if r := []rune(text); len(r) > apiTextLimit {
		text = string(r[:apiTextLimit]) + "\n(cut; the whole response is in structuredContent)"
	}
	return text, out, nil
}

// callAPI serves method and path (a route of the JSON API) with query and
// a JSON body through the API's in-process transport, as a: the status and
// body the route answered, or its refusal as the error of its code, as the
// tools' own refusals are.
func (s *Server) callAPI(ctx context.Context, a app.Actor, method, path string, query url.Values, body []byte) (int, []byte, error) {
	u := url.URL{Path: path, RawQuery: query.Encode()}
	r, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	r.Header.Set("Content-Type", "application/json")
	res, err := s.api(a).RoundTrip(r)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil, err
	}
	if res.Header.Get("Content-Type") == "application/problem+json" {
		return 0, nil, problemError(answer)
	}
	return res.StatusCode, answer, nil
}

// problemError is the error a problem document reports: its code, its
// detail or the fields a 422 names, and its extension members.
func problemError(doc []byte) error {
	var p struct {
		Code   app.Code        `json:"code"`
		Detail json.RawMessage `json:"detail"`
	}
	var extra map[string]any
	if err := json.Unmarshal(doc, &p); err != nil {
		return err
	}
	_ = json.Unmarshal(doc, &extra)
	e := &app.Error{Code: p.Code}
	var fields []wire.ValidationItem
	if json.Unmarshal(p.Detail, &fields) == nil {
		for _, f := range fields {
			e.Fields = append(e.Fields, app.FieldError{Loc: f.Loc, Msg: f.Msg})
		}
	} else {
		_ = json.Unmarshal(p.Detail, &e.Detail)
	}
	for _, k := range []string{"type", "title", "status", "detail", "instance", "code"} {
		delete(extra, k)
	}
	if len(extra) > 0 {
		e.Extra = extra
	}
	return e
}

// apiRoute checks the method and that the path is a /v1 route.
func apiRoute(in callAPIArgs) (method, clean string, err error) {
	method = strings.ToUpper(in.Method)
	switch method {
	case http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodDelete:
	default:
		return "", "", app.Invalidf("arguments.method", "method is GET, POST, PATCH or DELETE")
	}
	clean = path.Clean("/" + strings.TrimPrefix(in.Path, "/"))
	if !strings.HasPrefix(clean, "/v1/") || strings.ContainsAny(in.Path, "?#") {
		return "", "", app.Invalidf("arguments.path", "path is a /v1 route without a query string (send that in query); e.g. /v1/tasks/42")
	}
	return method, clean, nil
}
