package web_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tend/internal/golden"
	"tend/web/webtest"
)

// goldenJSON compares body, indented, with testdata/name byte for byte;
// with -update it writes the file first (golden.Check).
func goldenJSON(t *testing.T, name string, body []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, bytes.TrimSpace(body), "", "  "); err != nil {
		t.Fatalf("%s: body is not JSON: %v\n%s", name, err, body)
	}
	buf.WriteByte('\n')
	golden.Check(t, filepath.Join("testdata", name), buf.Bytes())
}

// probRaw sends body as it is with the given Content-Type, for requests e.do
// cannot make.
func (e *env) probRaw(method, path, token, contentType string, body io.Reader) webtest.Response {
	e.T.Helper()
	req := e.Request(method, path, body)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return e.Send(req)
}

func TestRouterProblems(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	t.Run("unknown path", func(t *testing.T) {
		for _, path := range []string{"/v1/nothing", "/nothing", "/v1/users/admin/nothing", "/v1/me/"} {
			p := e.Problem(http.StatusNotFound, "not_found", http.MethodGet, path, e.Admin, nil)
			if p["instance"] != path {
				t.Errorf("%s: instance %v", path, p["instance"])
			}
		}
	})
	t.Run("unknown path without a credential", func(t *testing.T) {
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/nothing", "", nil)
	})
	t.Run("wrong method", func(t *testing.T) {
		r := e.Do(http.MethodPut, "/v1/users", e.Admin, map[string]any{})
		webtest.AssertProblem(t, r, http.StatusMethodNotAllowed, "method_not_allowed")
		allow := r.Header.Get("Allow")
		if !strings.Contains(allow, "GET") || !strings.Contains(allow, "POST") {
			t.Errorf("Allow %q, want GET and POST", allow)
		}
		r = e.Do(http.MethodPost, "/healthz", "", nil)
		webtest.AssertProblem(t, r, http.StatusMethodNotAllowed, "method_not_allowed")
	})
}

func TestValidationProblemCarriesDetailArray(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		name string
		path string
		body any
		loc  []any
	}{
		{"bad username", "/v1/users", map[string]any{"username": "not a name!"}, []any{"body", "username"}},
		{"unknown field", "/v1/users", map[string]any{"username": "ok", "colour": "red"}, []any{"body", "colour"}},
		{"wrong type", "/v1/users", map[string]any{"username": 7}, []any{"body", "username"}},
		{"not JSON", "/v1/users", `{"username":`, []any{"body"}},
		{"two values", "/v1/users", `{"username":"a"} {}`, []any{"body"}},
		{"bad slug", "/v1/workspaces", map[string]any{"slug": "Not OK", "name": "x"}, []any{"body", "slug"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, c.path, e.Admin, c.body)
			d := p["detail"].([]any)
			found := false
			for _, it := range d {
				m := it.(map[string]any)
				if m["type"] != "validation" {
					t.Errorf("item type %v, want validation", m["type"])
				}
				if len(m) != 3 {
					t.Errorf("item has members beyond loc, msg, type: %v", m)
				}
				if slices.Equal(m["loc"].([]any), c.loc) {
					found = true
				}
			}
			if !found {
				t.Errorf("no item at %v in %v", c.loc, d)
			}
		})
	}
	t.Run("several fields at once", func(t *testing.T) {
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/users", e.Admin,
			map[string]any{"username": "not a name!", "email": "nope", "timezone": "Mars/Olympus"})
		if d := p["detail"].([]any); len(d) != 3 {
			t.Errorf("want one item per field, got %v", d)
		}
	})
	t.Run("query parameter", func(t *testing.T) {
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/users?limit=many", e.Admin, nil)
		loc := p["detail"].([]any)[0].(map[string]any)["loc"].([]any)
		if !slices.Equal(loc, []any{"query", "limit"}) {
			t.Errorf("loc %v", loc)
		}
	})
}
