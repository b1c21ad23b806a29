package dav_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"tend/internal/npmclient"
)

// tsdavRun runs testdata/clients/tsdav.mjs with node from a directory
// whose node_modules is the npm clients' install (TEND_MCP_CLIENTS, as
// the MCP client tests use it); it skips, or fails when
// TEND_MCP_CLIENTS_REQUIRED=1, without one holding tsdav.
type tsdavRun struct {
	t         *testing.T
	node, dir string
	env       []string
}

func newTsdav(t *testing.T, url, user, token, list string) *tsdavRun {
	t.Helper()
	node, modules := npmclient.Node(t, "tsdav")
	script, err := os.ReadFile(filepath.Join("testdata", "clients", "tsdav.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tsdav.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return &tsdavRun{t: t, node: node, dir: dir,
		env: append(os.Environ(), "TEND_URL="+url, "TEND_USER="+user, "TEND_TOKEN="+token, "TEND_LIST="+list)}
}

// run runs the script's step with extra variables and decodes what it
// prints into v. The timeout only ends a hung client.
func (r *tsdavRun) run(step string, v any, extra ...string) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.node, "tsdav.mjs", step)
	cmd.Dir, cmd.Env = r.dir, append(slices.Clone(r.env), extra...)
	var stderr []byte
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = ee.Stderr
	}
	if err != nil {
		r.t.Fatalf("tsdav %s: %v\n%s%s", step, err, out, stderr)
	}
	if err := json.Unmarshal(out, v); err != nil {
		r.t.Fatalf("tsdav %s printed no JSON: %v\n%s", step, err, out)
	}
}

// syncDelta is a sync-collection answer as the script reports it: the
// names of the tasks changed and gone, and the next token.
type syncDelta struct {
	Changed []string `json:"changed"`
	Gone    []string `json:"gone"`
	Token   string   `json:"token"`
}

// TestDavTsdav drives the server with npm's tsdav from the bare address:
// login and discovery, the task lists, the tasks of one, a create, an
// update with the ETag and one with a stale ETag, a delete, and
// sync-collection before and after a change made through the API; then
// checks through the API what it did.
func TestDavTsdav(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "garden", "title": "Garden", "parent": "home"}, http.StatusCreated)
	made := f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "Made in tend", "project": "home"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "Water the plants", "project": "home"}, http.StatusCreated)
	r := newTsdav(t, f.srv.URL+"/", f.user, f.admin, "default.home")

	var first struct {
		Calendars []struct {
			URL         string   `json:"url"`
			DisplayName string   `json:"displayName"`
			Components  []string `json:"components"`
			SyncToken   string   `json:"syncToken"`
		} `json:"calendars"`
		Objects []string  `json:"objects"`
		Events  int       `json:"events"`
		Created []int     `json:"created"`
		Updated int       `json:"updated"`
		Stale   int       `json:"stale"`
		Deleted int       `json:"deleted"`
		After   []string  `json:"after"`
		Initial syncDelta `json:"initial"`
	}
	r.run("first", &first)
	t.Logf("%+v", first)

	var urls []string
	for _, c := range first.Calendars {
		urls = append(urls, c.URL)
		if !slices.Equal(c.Components, []string{"VTODO"}) || c.SyncToken == "" {
			t.Errorf("tsdav's view of %s: components %v, sync token %q", c.URL, c.Components, c.SyncToken)
		}
	}
	if want := []string{"/dav/calendars/default.garden/", "/dav/calendars/default.home/", "/dav/calendars/default.inbox/"}; !slices.Equal(urls, want) {
		t.Errorf("tsdav's lists %v, want %v", urls, want)
	}
	if want := []string{"Made in tend", "Water the plants"}; !slices.Equal(first.Objects, want) || first.Events != 0 {
		t.Errorf("tsdav's tasks %v, want %v; its events %d, want none", first.Objects, want, first.Events)
	}
	if !slices.Equal(first.Created, []int{http.StatusCreated, http.StatusCreated}) || first.Updated != http.StatusNoContent ||
		first.Stale != http.StatusPreconditionFailed || first.Deleted != http.StatusNoContent {
		t.Errorf("tsdav's writes answered created %v, updated %d, stale %d, deleted %d", first.Created, first.Updated, first.Stale, first.Deleted)
	}
	if want := []string{"Changed by tsdav", "Made in tend", "Water the plants"}; !slices.Equal(first.After, want) {
		t.Errorf("tsdav's tasks after its writes %v, want %v", first.After, want)
	}
	if len(first.Initial.Changed) != 3 || len(first.Initial.Gone) != 0 || first.Initial.Token == "" || !slices.Contains(first.Initial.Changed, "tsdav-1.ics") {
		t.Errorf("tsdav's first sync: %+v", first.Initial)
	}

	home := f.tasksIn(f.admin, "home", false)
	if x := home["Changed by tsdav"]; len(home) != 3 || x == nil || x["due_at"] != "2026-12-24T00:00:00Z" || x["due_is_all_day"] != true {
		t.Errorf("home after tsdav's writes: %v", home)
	}
	if trash := f.tasksIn(f.admin, "home", true); len(trash) != 1 || trash["Gone soon"] == nil {
		t.Errorf("the trash after tsdav's delete: %v", trash)
	}

	// What the API changes is what the next delta names: a change, a new
	// task and a task trashed.
	f.api(http.MethodPatch, "/v1/tasks/"+refOf(made), f.admin, map[string]any{"title": "Made in tend, then changed"}, http.StatusOK)
	added := f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "Added in tend", "project": "home"}, http.StatusCreated)
	f.api(http.MethodDelete, "/v1/tasks/"+refOf(home["Changed by tsdav"]), f.admin, nil, http.StatusOK)
	var second struct {
		Delta syncDelta `json:"delta"`
	}
	r.run("delta", &second, "TEND_SYNC_TOKEN="+first.Initial.Token)
	changed := []string{made["id"].(string) + ".ics", added["id"].(string) + ".ics"}
	slices.Sort(changed)
	if d := second.Delta; !slices.Equal(d.Changed, changed) || !slices.Equal(d.Gone, []string{"tsdav-1.ics"}) || d.Token == "" || d.Token == first.Initial.Token {
		t.Errorf("tsdav's delta %+v, want changed %v and gone [tsdav-1.ics] with a new token", d, changed)
	}
}

// refOf is a task's reference as the API's paths take it.
func refOf(task map[string]any) string {
	b, _ := json.Marshal(task["ref"])
	return string(b)
}
