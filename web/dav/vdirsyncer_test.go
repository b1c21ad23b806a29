package dav_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// todoTools answers the paths of Debian's vdirsyncer and todoman, and
// skips (or fails, under clientsRequired) when either is missing.
func todoTools(t *testing.T) (vdirsyncer, todoman string) {
	t.Helper()
	v, errV := exec.LookPath("vdirsyncer")
	m, errM := exec.LookPath("todoman")
	if errV != nil || errM != nil {
		if os.Getenv(clientsRequired) == "1" {
			t.Fatalf("vdirsyncer or todoman is missing and %s=1: %v %v", clientsRequired, errV, errM)
		}
		t.Skipf("vdirsyncer and todoman are not both installed (apt-get install vdirsyncer todoman); set %s=1 to make this a failure", clientsRequired)
	}
	return v, m
}

// syncer is a vdirsyncer and todoman pair with their own HOME and XDG
// directories in a temporary directory, so nothing of the machine's account
// is read or written, and the configuration docs/caldav.md gives users,
// where it tells them to put it.
type syncer struct {
	t                   *testing.T
	vdirsyncer, todoman string
	home, tasks         string
	env                 []string
}

func newSyncer(t *testing.T, url, user, token string) *syncer {
	v, m := todoTools(t)
	home := t.TempDir()
	s := &syncer{t: t, vdirsyncer: v, todoman: m, home: home, tasks: filepath.Join(home, ".local", "share", "tasks")}
	doc, err := os.ReadFile("../../docs/caldav.md")
	if err != nil {
		t.Fatal(err)
	}
	// The document's example account stands for this server's.
	conf := strings.NewReplacer(`"https://tend.example.org"`, strconv.Quote(url), `"alice"`, strconv.Quote(user),
		`"tend_…"`, strconv.Quote(token)).Replace(fenced(t, string(doc), "ini"))
	for name, body := range map[string]string{"vdirsyncer/config": conf, "todoman/config.py": fenced(t, string(doc), "python")} {
		path := filepath.Join(home, ".config", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"TZ=UTC", "LANG=C.UTF-8", "NO_PROXY=*"}
	return s
}

// fenced answers the one block of a document fenced as lang.
func fenced(t *testing.T, doc, lang string) string {
	t.Helper()
	parts := strings.Split(doc, "```"+lang+"\n")
	if len(parts) != 2 {
		t.Fatalf("docs/caldav.md has %d blocks fenced ```%s, want 1", len(parts)-1, lang)
	}
	block, _, ok := strings.Cut(parts[1], "```\n")
	if !ok {
		t.Fatalf("docs/caldav.md's ```%s block is not closed", lang)
	}
	return block
}

// run runs one command of the pair with the pair's environment, extra
// variables and stdin as its input, and fails the test when it fails. The timeout only ends a
// hung client; nothing is asserted on how long a run takes.
func (s *syncer) run(stdin string, extra []string, name string, args ...string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(slices.Clone(s.env), extra...)
	cmd.Dir = s.home
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (s *syncer) sync() {
	s.t.Helper()
	s.run("", nil, s.vdirsyncer, "sync")
}

// todo runs todoman.
func (s *syncer) todo(extra []string, args ...string) string {
	s.t.Helper()
	return s.run("", extra, s.todoman, args...)
}

// todoTask is a task as todoman's stable JSON output lists it.
type todoTask struct {
	ID        int    `json:"id"`
	List      string `json:"list"`
	Summary   string `json:"summary"`
	Completed bool   `json:"completed"`
}

// list answers every task todoman shows, done ones included, by title.
func (s *syncer) list() map[string]todoTask {
	s.t.Helper()
	var ts []todoTask
	out := s.todo(nil, "--porcelain", "list", "--status", "ANY")
	if err := json.Unmarshal([]byte(out), &ts); err != nil {
		s.t.Fatalf("todoman's list: %v\n%s", err, out)
	}
	m := map[string]todoTask{}
	for _, x := range ts {
		m[x.Summary] = x
	}
	return m
}

// collections answers the directories vdirsyncer made, one a collection.
func (s *syncer) collections() []string {
	s.t.Helper()
	es, err := os.ReadDir(s.tasks)
	if err != nil {
		s.t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// tasksIn answers the API's tasks of a project, not of its subprojects,
// by title (deleted: its trash).
func (f *fix) tasksIn(token, project string, deleted bool) map[string]map[string]any {
	f.t.Helper()
	q := "/v1/tasks?project=" + project + "&include_completed=true"
	if deleted {
		q = "/v1/tasks?deleted=true&project=" + project
	}
	m := map[string]map[string]any{}
	for _, x := range f.api(http.MethodGet, q, token, nil, http.StatusOK)["items"].([]any) {
		if task := x.(map[string]any); task["project"] == project {
			m[task["title"].(string)] = task
		}
	}
	return m
}

// TestDavVdirsyncerTodoman: vdirsyncer discovers and syncs every list a
// member can see into a directory, todoman adds, edits, completes and
// deletes tasks there, and after the next sync tend's API shows exactly
// those changes; a change made through the API reaches todoman in turn.
func TestDavVdirsyncerTodoman(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/users", f.admin, map[string]any{"username": "sam"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/workspaces/default/members", f.admin, map[string]any{"username": "sam", "role": "member"}, http.StatusCreated)
	sam := f.api(http.MethodPost, "/v1/tokens", f.admin, map[string]any{"username": "sam"}, http.StatusCreated)["token"].(string)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "garden", "title": "Garden", "parent": "home"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "work", "title": "Work"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "secret", "title": "Secret", "visibility": "private"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "Made in tend", "project": "home"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "Prune the roses", "project": "garden"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "Old chore", "project": "work"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "Weekly report", "project": "work"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "Hidden plan", "project": "secret"}, http.StatusCreated)

	s := newSyncer(t, f.srv.URL+"/", "sam", sam)
	// discover asks before it makes each local directory: yes to all.
	s.run(strings.Repeat("y\n", 20), nil, s.vdirsyncer, "discover")
	s.sync()

	// One directory a project sam can see, the subproject its own; the
	// private project is not there.
	var want []string
	for _, x := range f.api(http.MethodGet, "/v1/projects", sam, nil, http.StatusOK)["items"].([]any) {
		want = append(want, "default."+x.(map[string]any)["key"].(string))
	}
	slices.Sort(want)
	if got := s.collections(); !slices.Equal(got, want) || !slices.Contains(got, "default.garden") || slices.Contains(got, "default.secret") {
		t.Fatalf("vdirsyncer's collections %v, want %v (with default.garden, without default.secret)", got, want)
	}

	listed := s.list()
	for _, title := range []string{"Made in tend", "Prune the roses", "Old chore"} {
		if _, ok := listed[title]; !ok {
			t.Fatalf("todoman does not list %q: %v", title, listed)
		}
	}
	if _, ok := listed["Hidden plan"]; ok {
		t.Fatalf("todoman lists a task of the private project: %v", listed)
	}
	id := func(title string) string { return fmt.Sprint(listed[title].ID) }

	s.todo(nil, "new", "--list", "default.home", "--due", "2026-12-20", "Buy seeds")
	s.todo(nil, "edit", id("Made in tend"), "--due", "2026-12-24")
	// todoman edits a title in an editor: here one that rewrites SUMMARY.
	s.todo([]string{`EDITOR=sed -i -e 's/^SUMMARY:Made in tend/SUMMARY:Made in tend, renamed/'`}, "edit", "--raw", id("Made in tend"))
	s.todo(nil, "done", id("Prune the roses"))
	s.todo(nil, "delete", "--yes", id("Old chore"))
	s.sync()

	home := f.tasksIn(sam, "home", false)
	if len(home) != 2 {
		t.Fatalf("home after the sync: %v", home)
	}
	seeds, renamed := home["Buy seeds"], home["Made in tend, renamed"]
	if seeds == nil || renamed == nil {
		t.Fatalf("home after the sync lacks the new or the renamed task: %v", home)
	}
	// todoman writes a date without a time as an all-day DUE.
	if seeds["due_at"] != "2026-12-20T00:00:00Z" || seeds["due_is_all_day"] != true || renamed["due_at"] != "2026-12-24T00:00:00Z" || renamed["due_is_all_day"] != true {
		t.Errorf("dues after the sync: new %v %v, edited %v %v", seeds["due_at"], seeds["due_is_all_day"], renamed["due_at"], renamed["due_is_all_day"])
	}
	if rose := f.tasksIn(sam, "garden", false)["Prune the roses"]; rose == nil || rose["is_complete"] != true {
		t.Errorf("the task todoman completed: %v", rose)
	}
	// and nothing else: the task todoman did not touch is as it was.
	if work := f.tasksIn(sam, "work", false); len(work) != 1 || work["Weekly report"]["version"] != 1.0 {
		t.Errorf("work after todoman's delete: %v", work)
	}
	if trash := f.tasksIn(sam, "work", true); len(trash) != 1 || trash["Old chore"] == nil {
		t.Errorf("the trash after todoman's delete: %v", trash)
	}

	// A change made in tend arrives in todoman after the next sync.
	f.api(http.MethodPatch, "/v1/tasks/"+fmt.Sprint(seeds["ref"]), sam, map[string]any{"title": "Buy seeds and bulbs"}, http.StatusOK)
	f.api(http.MethodPost, "/v1/tasks", sam, map[string]any{"title": "Made in the API", "project": "work"}, http.StatusCreated)
	weekly := f.tasksIn(sam, "work", false)["Weekly report"]
	f.api(http.MethodPost, "/v1/tasks/"+fmt.Sprint(weekly["ref"])+"/complete", sam, map[string]any{}, http.StatusOK)
	s.sync()
	listed = s.list()
	if _, ok := listed["Buy seeds and bulbs"]; !ok {
		t.Errorf("todoman lacks the title changed in tend: %v", listed)
	}
	if x, ok := listed["Made in the API"]; !ok || x.List != "default.work" {
		t.Errorf("todoman lacks the task made in tend: %v", listed)
	}
	if renamed, ok := listed["Made in tend, renamed"]; !ok || renamed.Completed || !listed["Weekly report"].Completed || !listed["Prune the roses"].Completed {
		t.Errorf("todoman's done tasks after the sync: %v", listed)
	}
	if _, ok := listed["Old chore"]; ok {
		t.Errorf("todoman still lists the deleted task: %v", listed)
	}
}

// TestDavBareComma: a SUMMARY or DESCRIPTION with a comma left unescaped,
// as a file of a vdir edited by hand has it, keeps all of its text.
func TestDavBareComma(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	f.want(f.dav(http.MethodPut, "/dav/calendars/default.home/c.ics", f.user, f.admin,
		vtodo("c", `SUMMARY:Eggs, milk\, bread`, "DESCRIPTION:two, three")), http.StatusCreated)
	got := f.tasksIn(f.admin, "home", false)["Eggs, milk, bread"]
	if got == nil || got["description"] != "two, three" {
		t.Fatalf("the task after the PUT: %v", f.tasksIn(f.admin, "home", false))
	}
}
