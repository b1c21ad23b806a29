package webtest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tend/web/webtest"
)

// spy is a testing.TB that keeps what Validated reports instead of failing.
type spy struct {
	testing.TB
	errs []string
}

func (s *spy) Errorf(format string, args ...any) {
	s.errs = append(s.errs, fmt.Sprintf(format, args...))
}

// TestValidatedCatchesMismatches serves answers the document does not
// allow through Validated, and requires each to be reported, naming the
// operation; and a right answer not to be.
func TestValidatedCatchesMismatches(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, method, path, body string
		status                   int
		answer                   string
		want                     string // in the report; "" for none
	}{
		{"a field the wire type lacks", "GET", "/v1/me", "", 200, `{"nonsense":1}`, "GET /v1/me"},
		{"a field of the wrong type", "GET", "/v1/projects/1", "", 200, `{"key":7}`, "GET /v1/projects/{project}"},
		{"an undocumented status", "GET", "/v1/tasks", "", 202, `{}`, "the 202 answer"},
		{"a problem with an unknown code", "GET", "/v1/tags", "", 409, `{"type":"x","title":"x","status":409,"code":"made_up"}`, "GET /v1/tags"},
		{"a refused request taken", "POST", "/v1/tasks", `{"title":5}`, 201, `{"title":"x"}`, "the server took (201) a request the document refuses"},
		{"a route the document lacks, answered", "GET", "/v1/nowhere", "", 200, `{}`, "is not in the document"},
		{"a field a referred record lacks", "GET", "/v1/tasks/1/links", "", 200, `{"items":[{"other":{"nonsense":1}}]}`, "GET /v1/tasks/{task}/links"},
		{"a wrong type in a record that may be null", "GET", "/v1/tasks", "", 200, `{"items":[],"page":{"has_more":"x"}}`, "GET /v1/tasks"},
		{"a referred record that is null", "GET", "/v1/tasks", "", 200, `{"items":[],"page":null}`, ""},
		{"a right answer", "GET", "/v1/tags", "", 200, `{"items":[{"name":"x"}],"page":{"has_more":false}}`, ""},
		{"a refused request refused", "POST", "/v1/tasks", `{"title":5}`, 400, `{"type":"x","title":"x","status":400,"code":"invalid"}`, ""},
		{"a route the document lacks, 404", "GET", "/v1/nowhere", "", 404, `{"type":"x","title":"x","status":404,"code":"not_found"}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sp := &spy{TB: t}
			h := webtest.Validated(sp, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				ct := "application/json"
				if c.status >= 400 {
					ct = "application/problem+json"
				}
				w.Header().Set("Content-Type", ct)
				w.WriteHeader(c.status)
				_, _ = w.Write([]byte(c.answer))
			}))
			req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
			req.Header.Set("Authorization", "Bearer tend_x")
			if c.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			h.ServeHTTP(httptest.NewRecorder(), req)
			got := strings.Join(sp.errs, "\n")
			switch {
			case c.want == "" && got != "":
				t.Errorf("reported a right exchange:\n%s", got)
			case c.want != "" && !strings.Contains(got, c.want):
				t.Errorf("report %q does not say %q", got, c.want)
			}
		})
	}
}
