package cli

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// seededCLI is the file's mode holding what the output tests read: two
// tasks, one in a project with tags and a due, a link between them and a
// document.
func seededCLI(t *testing.T) *cliMode {
	t.Helper()
	m := newCLIMode(t)
	m.e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", m.e.Admin, map[string]any{"key": "web", "title": "Web site"})
	for _, args := range [][]string{
		{"add", "Call the bank tomorrow 9am #finance !4"},
		{"add", "Fix the login bug by friday", "--project", "web", "--tag", "auth"},
		{"link", "1", "blocks", "2"},
		{"comment", "2", "Seen on staging"},
	} {
		if _, errOut, code := m.run(t, "", "", args...); code != 0 {
			t.Fatalf("tend %s: %s", strings.Join(args, " "), errOut)
		}
	}
	if _, errOut, code := m.run(t, "", "Retry twice.", "doc", "new", "--type", "decision", "--title", "Retries", "--project", "web"); code != 0 {
		t.Fatalf("doc new: %s", errOut)
	}
	return m
}

// TestCLIJSONIsTheAPIs: --json prints what the API answers for the same
// read, byte for byte, whether it came from the server or from the file.
func TestCLIJSONIsTheAPIs(t *testing.T) {
	t.Parallel()
	m := seededCLI(t)
	for _, c := range []struct {
		args []string
		path string
	}{
		{[]string{"ls"}, "/v1/tasks?order=-priority_score,due_at,ref"},
		{[]string{"ls", "--project", "web", "--all"}, "/v1/tasks?project=web&include_completed=true&order=-priority_score,due_at,ref"},
		{[]string{"show", "1"}, "/v1/items/1"},
		{[]string{"show", "3"}, "/v1/items/3"},
		{[]string{"today"}, "/v1/agenda"},
		{[]string{"search", "login"}, "/v1/search?q=login"},
		{[]string{"doc", "show", "3"}, "/v1/documents/3"},
		{[]string{"project", "ls"}, "/v1/projects"},
		{[]string{"project", "show", "web"}, "/v1/projects/web"},
	} {
		out, errOut, code := m.run(t, "", "", append(c.args, "--json")...)
		if code != 0 {
			t.Fatalf("tend %s --json: %s", strings.Join(c.args, " "), errOut)
		}
		res := m.e.Do(http.MethodGet, c.path, m.e.Admin, nil)
		if res.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", c.path, res.Status, res.Body)
		}
		if out != string(res.Body) {
			t.Errorf("tend %s --json:\n%s\nGET %s:\n%s", strings.Join(c.args, " "), out, c.path, res.Body)
		}
	}
	// A write answers as the route does: the same fields, a filed
	// document's links among them.
	out, errOut, code := m.run(t, "", "Body.", "doc", "new", "--type", "note", "--title", "Filed", "--link", "1", "--json")
	posted := m.e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", m.e.Admin, map[string]any{"type": "note", "title": "Filed",
		"body": "Body.", "links": []any{map[string]any{"link_type": "relates_to", "target": 1}}})
	var printed map[string]any
	if err := json.Unmarshal([]byte(out), &printed); code != 0 || err != nil {
		t.Fatalf("doc new --json: %v %s", err, errOut)
	}
	if got, want := slices.Sorted(maps.Keys(printed)), slices.Sorted(maps.Keys(posted)); !slices.Equal(got, want) {
		t.Errorf("doc new --json has the fields %v; POST /v1/documents answers %v", got, want)
	}
	// whoami --json is GET /v1/me's record, and where the commands work.
	out, errOut, code = m.run(t, "", "", "whoami", "--json")
	var whoami map[string]any
	if err := json.Unmarshal([]byte(out), &whoami); code != 0 || err != nil {
		t.Fatalf("whoami --json: %v %s", err, errOut)
	}
	me := m.e.OK(http.StatusOK, http.MethodGet, "/v1/me", m.e.Admin, nil)
	where, _ := m.where()
	if got, want := slices.Sorted(maps.Keys(whoami)), slices.Sorted(slices.Values(append(slices.Collect(maps.Keys(me)), "where"))); !slices.Equal(got, want) ||
		whoami["where"] != where || whoami["user"].(map[string]any)["username"] != "admin" {
		t.Errorf("whoami --json: %s; GET /v1/me has the fields %v", out, want)
	}
}

// TestCLIColour: colour on a terminal only, never with NO_COLOR or a dumb
// terminal, never in the JSON or compact forms.
func TestCLIColour(t *testing.T) {
	t.Parallel()
	m := seededCLI(t)
	for _, c := range []struct {
		name   string
		vars   map[string]string
		args   []string
		colour bool
	}{
		{"terminal", nil, []string{"ls"}, true},
		{"NO_COLOR", map[string]string{"NO_COLOR": "1"}, []string{"ls"}, false},
		{"dumb terminal", map[string]string{"TERM": "dumb"}, []string{"ls"}, false},
		{"compact", nil, []string{"ls", "--format", "compact"}, false},
		{"json", nil, []string{"ls", "--json"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m.vars = c.vars
			env := m.env("")
			env.terminal = func(any) bool { return true }
			var out, errb strings.Builder
			root := NewRoot(&out, &errb, env, nil)
			root.SetArgs(append([]string{"--db", m.e.DB.Path()}, c.args...))
			if err := root.ExecuteContext(t.Context()); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(out.String(), "\x1b["); got != c.colour {
				t.Errorf("colour %v, want %v:\n%q", got, c.colour, out.String())
			}
		})
	}
}
