package pages_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var valueRE = regexp.MustCompile(`<input id="quick-add-text" [^>]*value="([^"]*)"`)

// TestQuickAddRefusedKeepsTheLine: without the script, a refused line
// comes back in the box on Today, with the refusal beside it and the
// problem's status; nothing is stored.
func TestQuickAddRefusedKeepsTheLine(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	for _, c := range []struct{ line, code, says string }{
		{"tomorrow #errands !4", "validation", "no title words"},
		{"Ship it +nowhere", "validation", "no such project: nowhere"},
		{`Gym every day until dec 1 on dec 5 <script>alert(1)</script>`, "validation", "ends before its first occurrence"},
	} {
		r := p.post(t, "/tasks", url.Values{"text": {c.line}})
		body := string(r.Body)
		if r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("%q: %d\n%s", c.line, r.Status, body)
		}
		m := valueRE.FindStringSubmatch(body)
		if m == nil || html.UnescapeString(m[1]) != c.line {
			t.Fatalf("%q: the box holds %v", c.line, m)
		}
		contains(t, "Today with the refused line", body, `aria-invalid="true"`,
			`<p id="quick-add-error" class="quick-error" role="alert">`, c.says, `id="problem-code">`+c.code+`<`, `<h1>Today`)
		if strings.Contains(body, "<script>alert") {
			t.Fatalf("the line was written into the page unescaped:\n%s", body)
		}
	}
	if list := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks", p.Admin, nil); len(list["items"].([]any)) != 0 {
		t.Fatalf("a refused line stored %v", list["items"])
	}
	// The box names the page's workspace to the API calls of the script.
	today := p.get(t, "/?workspace_id=default", http.StatusOK)
	contains(t, "Today", today, `data-preview="/v1/tasks/preview?workspace_id=default"`, `data-create="/v1/tasks?workspace_id=default"`,
		`<p id="quick-add-error" class="quick-error" role="alert" hidden>`, `aria-live="polite"`)
}
