package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/store"
	"tend/web"
	"tend/web/webtest"
)

// cliMode is one way the terminal commands reach tend: a server over the
// JSON API (remote: the agent's loop, with its own credential) or the
// database file, whose JSON API the same client reaches through the router
// a server runs, in process (local: every other test; TestCLITransport
// holds that the two answer alike). Each has its own fresh instance on the
// fixed test clock.
type cliMode struct {
	local  bool
	e      *webtest.Env
	dir    string            // the config directory tend login writes to
	tokens map[string]string // remote: each account's credential
	vars   map[string]string // more environment, for every command
	client *http.Client      // the HTTP client of a command m.follow starts, when not the server's
}

// newCLIMode is the file's mode, with the administrator and a member, bob.
func newCLIMode(t *testing.T) *cliMode {
	t.Helper()
	e := webtest.New(t)
	m := &cliMode{local: true, e: e, dir: t.TempDir(), vars: map[string]string{}}
	e.Person("bob")
	e.Join("bob", "member")
	return m
}

// env is the process a command runs in, acting as the account as ("" the
// administrator): its credential on a server, TEND_USER on the file.
func (m *cliMode) env(as string) *Env {
	vars := map[string]string{}
	for k, v := range m.vars {
		vars[k] = v
	}
	if m.local {
		if as != "" {
			vars["TEND_USER"] = as
		}
	} else {
		vars["TEND_URL"], vars["TEND_TOKEN"] = m.e.Srv.URL, m.tokens[as]
	}
	return &Env{getenv: func(k string) string { return vars[k] }, now: m.e.Clock.Now, zone: time.UTC,
		configDir: func() (string, error) { return m.dir, nil }, http: m.e.Srv.Client(), terminal: func(any) bool { return false },
		version: "test", open: openFile, wait: sleep}
}

// openFile opens the database file as main's does, with the store and the
// router themselves: the tests may import them, the package may not.
func openFile(ctx context.Context, path string, now func() time.Time, logTo io.Writer) (File, error) {
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		return File{}, err
	}
	db.Now = now
	svc := app.New(db, app.Options{})
	log := slog.New(slog.NewTextHandler(logTo, &slog.HandlerOptions{Level: slog.LevelError}))
	return File{Service: svc, Close: func() { _ = db.Close() },
		API: func(a app.Actor) http.RoundTripper { return web.NewServer(svc, log).Transport(a) }}, nil
}

// run runs one command line as main() does: what it printed on stdout and
// stderr (the error line included) and its exit status.
func (m *cliMode) run(t *testing.T, as, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if m.local {
		args = append([]string{"--db", m.e.DB.Path()}, args...)
	}
	return runIn(t, m.env(as), stdin, args...)
}

// newest is the seq of the newest change: every write records one, so a
// refusal leaves it where it was.
func (m *cliMode) newest(t *testing.T) float64 {
	t.Helper()
	items, _ := m.e.OK(http.StatusOK, http.MethodGet, "/v1/changes?limit=1", m.e.Admin, nil)["items"].([]any)
	if len(items) == 0 {
		return 0
	}
	return items[len(items)-1].(map[string]any)["seq"].(float64)
}

// where is what the mode prints for where it works, and the web app's address.
func (m *cliMode) where() (where, web string) {
	if m.local {
		return m.e.DB.Path(), "http://" + DefaultAddr
	}
	return m.e.Srv.URL, m.e.Srv.URL
}

// cliStep is one command line and what it must do.
type cliStep struct {
	args  []string
	as    string // the account it acts as; "" the administrator
	stdin string
	code  int
	// out is the whole of stdout, {where} and {web} standing for the
	// mode's (see where); with code ≠ 0, stdout must be empty.
	out string
	// err is how the one line on stderr begins; "" when nothing is printed.
	err string
}

func line(args ...string) []string { return args }

// cliSteps exercise every terminal command on the same fresh instance, in
// order, with the bad input each refuses: a refusal prints one line, exits
// with its status and writes nothing.
var cliSteps = []cliStep{
	{args: line("add", "Call the bank tomorrow 9am #finance !4"),
		out: "added #1 Call the bank\n  todo · inbox · due tomorrow 09:00 · #finance · !4\n"},
	{args: line("add", "Write the release notes by friday ~1h", "--tag", "docs"),
		out: "added #2 Write the release notes\n  todo · inbox · due in 4 days · #docs · ~1h\n"},
	{args: line("add", "Deploy", "--importance", "2", "--urgency", "5"),
		out: "added #3 Deploy\n  todo · inbox · !2/5\n"},
	{args: line("add", "tomorrow #x"), code: 1, err: "error: validation: the line: the line has no title words"},
	{args: line("add", "Bad", "--importance", "9"), code: 1, err: "error: validation: --importance: from 1 to 5"},
	{args: line("add", "Bad\x00line"), code: 1, err: "error: validation: the line: text may not contain U+0000"},
	{args: line("add"), code: 2, err: `error: give the task as a line: tend add "Call the bank tomorrow 9am"`},
	{args: line("add", "x", "--estimate", "soon"), code: 2, err: `error: --estimate is minutes or a duration`},
	{args: line("ls"), out: "REF  STATUS  PROJECT  TITLE                          WHO  DUE\n" +
		"#1   todo    inbox    Call the bank !4 #finance           tomorrow 09:00\n" +
		"#2   todo    inbox    Write the release notes #docs       in 4 days\n" +
		"#3   todo    inbox    Deploy !2\n"},
	{args: line("ls", "--format", "compact", "--tag", "docs"), out: "#2  todo  inbox  Write the release notes    due 2026-03-06\n"},
	{args: line("ls", "--filter", "estimate_minutes.lte=60", "--format", "compact"), out: "#2  todo  inbox  Write the release notes    due 2026-03-06\n"},
	{args: line("ls", "--status", "nope"), code: 1, err: `error: validation: --status: no task status "nope"`},
	{args: line("ls", "--mine", "--assignee", "bob"), code: 2, err: "error: --mine and --assignee ask for opposite things: give one"},
	{args: line("ls", "--json", "--format", "compact"), code: 2, err: "error: --json and --format compact ask for two forms: give one"},
	{args: line("ls", "--format", "yaml"), code: 2, err: `error: --format is compact or json, not "yaml"`},
	{args: line("ls", "--filter", "nonsense"), code: 2, err: `error: --filter is FIELD=VALUE`},
	{args: line("ls", "--limit", "0"), code: 1, err: "error: validation: --limit: limit is at least 1"},
	{args: line("ls", "--bogus"), code: 2, err: "error: unknown flag: --bogus (tend ls --help shows the usage)\n"},
	{args: line("show", "1"), out: "#1 Call the bank\n  todo · inbox · due tomorrow 09:00 · #finance · !4 · version 1\n"},
	{args: line("show", "99"), code: 3, err: "error: not_found: no such task or document (tend search WORDS finds the refs you may see)\n"},
	{args: line("show"), code: 2, err: "error: accepts 1 arg(s), received 0 (tend show --help shows the usage)\n"},
	{args: line("claim", "1", "--minutes", "30"),
		out: "claimed #1 Call the bank\n  todo · inbox · due tomorrow 09:00 · #finance · !4 · claimed by admin until today 09:30\n"},
	{args: line("claim", "1"), as: "bob", code: 4,
		err: "error: claim_held: #1 is claimed by admin until 2026-03-02T09:30:00Z; try again after that or ask them to release it (take other work: tend claim next)\n"},
	{args: line("claim", "next", "--format", "compact"), as: "bob", out: "#2  todo  inbox  Write the release notes  @bob (claimed)  due 2026-03-06\n"},
	{args: line("claim", "next"), as: "bob", out: "claimed #3 Deploy\n  todo · inbox · !2/5 · claimed by bob until today 09:30\n"},
	{args: line("claim", "next"), as: "bob", code: 3, err: "error: nothing_ready: "},
	{args: line("claim", "1", "--project", "inbox"), code: 2, err: "error: --project narrows what claim next picks"},
	{args: line("release", "1"), out: "released #1 Call the bank\n  todo · inbox · due tomorrow 09:00 · #finance · !4\n"},
	{args: line("comment", "1", "Called; they call back on Monday"), out: "commented on #1\n"},
	{args: line("comment", "1"), stdin: "Checked on staging\n", out: "commented on #1\n"},
	{args: line("comment", "99", "x"), code: 3, err: "error: not_found: "},
	{args: line("link", "1", "blocks", "2"), out: "#1 blocks #2 Write the release notes\n"},
	{args: line("link", "1", "blocks", "2"), code: 4, err: "error: conflict: "},
	{args: line("link", "1", "nonsense", "2"), code: 1, err: "error: validation: TYPE: "},
	{args: line("link", "1", "blocks", "99"), code: 1, err: "error: validation: OTHER: "},
	{args: line("edit", "3", "--due", "friday 5pm", "--importance", "4"),
		out: "updated #3 Deploy\n  todo · inbox · due friday 17:00 · !4/5 · claimed by bob until today 09:30\n"},
	{args: line("edit", "3", "--title", "Deploy it", "--version", "1"), code: 4, err: "error: version_conflict: "},
	{args: line("edit", "3", "--due", "no such day at all"), code: 1, err: "error: validation: --due: "},
	{args: line("done", "3", "--verify", "go test ./... green", "--passed", "--commit", "3f2a9c1"),
		out: "done #3 Deploy\n  done · inbox · due friday 17:00 · !4/5\n"},
	{args: line("done", "2", "--passed", "--failed"), code: 2, err: "error: --passed and --failed ask for opposite things: give one"},
	{args: line("done", "2", "--verify", "checked"), code: 2, err: "error: say whether the check passed: --passed or --failed"},
	{args: line("claim", "3"), code: 4, err: "error: task_closed: "},
	{args: line("reopen", "3"), out: "reopened #3 Deploy\n  todo · inbox · due friday 17:00 · !4/5\n"},
	{args: line("doc", "new", "--type", "finding", "--title", "Flaky test", "--link", "1"), stdin: "The test waited on a real clock.\n",
		out: "wrote #4 Flaky test\n  finding · current · inbox · version 1\n  linked  relates to  #1  Call the bank\n"},
	{args: line("doc", "new", "--type", "nonsense", "--title", "X"), stdin: "body", code: 1, err: "error: validation: --type: "},
	{args: line("doc", "new", "--type", "note", "--title", "X", "--link", "99"), stdin: "body", code: 1, err: "error: validation: --link: "},
	{args: line("doc", "new", "--type", "note"), stdin: "body", code: 2, err: "error: give the document a --title"},
	{args: line("doc", "show", "4"), out: "#4 Flaky test\n  finding · current · inbox · version 1\n\nThe test waited on a real clock.\n"},
	{args: line("doc", "show", "1"), code: 3, err: "error: not_found: "},
	{args: line("link", "3", "relates_to", "4"), out: "#3 relates to #4 Flaky test\n"},
	{args: line("show", "1", "--format", "compact"), out: "#1  todo  inbox  Call the bank    due 2026-03-03 09:00 UTC\n" +
		"links:\n  blocks      #2  todo     Write the release notes\n  relates to  #4  current  Flaky test\n" +
		"comments:\n  2026-03-02T09:00:00Z  @admin  Called; they call back on Monday\n  2026-03-02T09:00:00Z  @admin  Checked on staging\n"},
	{args: line("search", "bank"), out: "REF  STATUS  PROJECT  TITLE                      WHO  DUE\n#1   todo    inbox    Call the bank !4 #finance       tomorrow 09:00\nno documents\n"},
	{args: line("search", "flaky", "--format", "compact"), out: "no tasks\n#4  current  finding  inbox  Flaky test\n"},
	// The last word matches as it is being typed (issue 34 §5).
	{args: line("search", "call", "ba"), out: "REF  STATUS  PROJECT  TITLE                      WHO  DUE\n#1   todo    inbox    Call the bank !4 #finance       tomorrow 09:00\nno documents\n"},
	{args: line("search", "fla", "--format", "compact"), out: "no tasks\n#4  current  finding  inbox  Flaky test\n"},
	{args: line("add", "Water the plants every day"), out: "added #5 Water the plants\n  todo · inbox · due today · every day\n"},
	{args: line("skip", "5"), out: "skipped #5 Water the plants\n  cancelled · inbox · due today · every day\n" +
		"next #6 Water the plants\n  todo · inbox · due tomorrow · every day\n"},
	{args: line("skip", "1"), code: 4, err: "error: not_repeating: "},
	{args: line("open", "4"), out: "{web}/documents/4\n"},
	{args: line("open", "99"), code: 3, err: "error: not_found: "},
	{args: line("whoami"), out: "admin on {where}\n"},
	{args: line("whoami"), as: "bob", out: "bob on {where}\n"},
	{args: line("edit", "2", "--assignee", "bob", "--format", "compact"), out: "#2  todo  inbox  Write the release notes  @bob (claimed)  due 2026-03-06\n"},
	// #2 is blocked by #1 and held by bob; #5 was skipped, #6 is the next occurrence.
	{args: line("ls", "--ready", "--format", "compact"), out: "#1  todo  inbox  Call the bank       due 2026-03-03 09:00 UTC\n" +
		"#3  todo  inbox  Deploy              due 2026-03-06 17:00 UTC\n#6  todo  inbox  Water the plants    due 2026-03-03\n"},
	{args: line("ls", "--mine", "--format", "compact"), as: "bob", out: "#2  todo  inbox  Write the release notes  @bob (claimed)  due 2026-03-06\n"},
	{args: line("ls", "--mine", "--format", "compact"), out: "no tasks\n"},
	{args: line("ls", "--due-before", "in 2 days", "--format", "compact"), out: "#1  todo  inbox  Call the bank       due 2026-03-03 09:00 UTC\n#6  todo  inbox  Water the plants    due 2026-03-03\n"},
	{args: line("ls", "-q", "bank", "--format", "compact"), out: "#1  todo  inbox  Call the bank    due 2026-03-03 09:00 UTC\n"},
	{args: line("ls", "--project", "inbox", "--status", "todo", "--tag", "docs", "--format", "compact"),
		out: "#2  todo  inbox  Write the release notes  @bob (claimed)  due 2026-03-06\n"},
	{args: line("today"), out: "agenda for 2026-03-02 (UTC)\nupcoming:\n" +
		"  #6  todo  inbox  Water the plants                               tomorrow\n" +
		"  #1  todo  inbox  Call the bank !4 #finance                      tomorrow 09:00\n" +
		"  #3  todo  inbox  Deploy !4                                      friday 17:00\n" +
		"waiting:\n  #2  todo  inbox  Write the release notes #docs  @bob (claimed)  in 4 days\n" +
		"not listed: 0 deferred, 0 later, 0 passed, 0 paused, 1 assigned elsewhere\n"},
	{args: line("today", "--format", "compact"), as: "bob", out: "agenda for 2026-03-02 (UTC)\nupcoming:\n" +
		"#6  todo  inbox  Water the plants                         due 2026-03-03\n" +
		"#1  todo  inbox  Call the bank                            due 2026-03-03 09:00 UTC\n" +
		"#2  todo  inbox  Write the release notes  @bob (claimed)  due 2026-03-06\n" +
		"#3  todo  inbox  Deploy                                   due 2026-03-06 17:00 UTC\n" +
		"not listed: 0 deferred, 0 later, 0 passed, 0 paused, 0 assigned elsewhere\n"},
	{args: line("today", "--date", "someday"), code: 1, err: "error: validation: --date: "},
	{args: line("ls", "--all", "--format", "compact"), out: "#1  todo       inbox  Call the bank                            due 2026-03-03 09:00 UTC\n" +
		"#3  todo       inbox  Deploy                                   due 2026-03-06 17:00 UTC\n" +
		"#5  cancelled  inbox  Water the plants                         due 2026-03-02\n" +
		"#6  todo       inbox  Water the plants                         due 2026-03-03\n" +
		"#2  todo       inbox  Write the release notes  @bob (claimed)  due 2026-03-06\n"},
}

// TestCLICommands runs every terminal command on the database file: each
// prints what it must, exits as it must, and a refusal writes nothing.
func TestCLICommands(t *testing.T) {
	t.Parallel()
	runSteps(t, newCLIMode(t), cliSteps)
}

// runSteps runs steps in order in mode m.
func runSteps(t *testing.T, m *cliMode, steps []cliStep) {
	t.Helper()
	where, web := m.where()
	for i, s := range steps {
		before := m.newest(t)
		out, errOut, code := m.run(t, s.as, s.stdin, s.args...)
		name := fmt.Sprintf("step %d, tend %s", i, strings.Join(s.args, " "))
		if code != s.code {
			t.Errorf("%s: exit status %d, want %d\nstdout: %s\nstderr: %s", name, code, s.code, out, errOut)
			continue
		}
		want := strings.NewReplacer("{where}", where, "{web}", web).Replace(s.out)
		if out != want {
			t.Errorf("%s: stdout\n%s\nwant\n%s", name, out, want)
		}
		if !strings.HasPrefix(errOut, s.err) || (s.err == "") != (errOut == "") {
			t.Errorf("%s: stderr %q, want it to begin %q", name, errOut, s.err)
		}
		if n := strings.Count(errOut, "\n"); s.err != "" && n != 1 {
			t.Errorf("%s: stderr has %d lines, want one: %q", name, n, errOut)
		}
		if after := m.newest(t); s.code != 0 && after != before {
			t.Errorf("%s: refused, yet the newest change moved from %v to %v", name, before, after)
		}
	}
}
