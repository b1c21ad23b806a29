package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/app"
)

// inProcessActor carries, on a request made by service_call_api, the actor
// the MCP call was authenticated as. Only code in this package can set it.
type inProcessActor struct{}

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

func (m *mcpTools) addAPITools() {
	no := false
	addTool(m, &mcp.Tool{Name: "service_call_api", Annotations: &mcp.ToolAnnotations{OpenWorldHint: &no},
		Description: "Call any /v1 route of the HTTP API as yourself, e.g. POST /v1/tasks/42/verifications."}, m.toolCallAPI)
}

// toolCallAPI serves a /v1 request through the same router as HTTP,
// in-process, as the MCP caller: the same handlers, the same Service, no
// loopback connection, and events recorded as coming through mcp.
func (m *mcpTools) toolCallAPI(ctx context.Context, a app.Actor, in callAPIArgs) (string, callAPIOut, error) {
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
	u := &url.URL{Path: clean, RawQuery: q.Encode()}
	req, err := http.NewRequestWithContext(context.WithValue(ctx, inProcessActor{}, a), method, u.String(), bytes.NewReader(body))
	if err != nil {
		return "", callAPIOut{}, app.Invalidf("arguments.path", "path is not a valid URL path")
	}
	req.Header.Set("Content-Type", "application/json")
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	m.s.router.ServeHTTP(rec, req)
	out := callAPIOut{Status: rec.status}
	if rec.body.Len() > 0 {
		if err := json.Unmarshal(rec.body.Bytes(), &out.Body); err != nil {
			out.Body = rec.body.String()
		}
	}
	if rec.status >= 400 {
		return "", callAPIOut{}, apiError(rec.body.Bytes())
	}
	text := method + " " + u.String() + " → " + strconv.Itoa(rec.status) + "\n" + strings.TrimSpace(rec.body.String())
	if r := []rune(text); len(r) > apiTextLimit {
		text = string(r[:apiTextLimit]) + "\n(cut; the whole response is in structuredContent)"
	}
	return text, out, nil
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

// apiError turns a problem document back into the error it was made from,
// so the tool reports the same code and detail.
func apiError(b []byte) error {
	var p struct {
		Code   app.Code        `json:"code"`
		Detail json.RawMessage `json:"detail"`
	}
	if err := json.Unmarshal(b, &p); err != nil || p.Code == "" {
		return app.Errorf(app.CodeInternal, "the route answered without a problem document")
	}
	e := &app.Error{Code: p.Code}
	var items []validationItem
	if json.Unmarshal(p.Detail, &items) == nil {
		for _, it := range items {
			e.Fields = append(e.Fields, app.FieldError{Loc: it.Loc, Msg: it.Msg})
		}
		if len(items) > 0 {
			e.Detail = items[0].Msg
		}
		return e
	}
	_ = json.Unmarshal(p.Detail, &e.Detail)
	return e
}

// recorder is the ResponseWriter of an in-process API call.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(status int)      { r.status = status }
