package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCLILogin: tend login checks the credential, stores the server and
// the token readable by the user only, and sends the commands there until
// tend logout; a credential the server refuses stores nothing.
func TestCLILogin(t *testing.T) {
	m := newCLIMode(t)
	file := filepath.Join(m.dir, "tend", "login.json")
	run := func(stdin string, args ...string) (string, string, int) {
		t.Helper()
		return runIn(t, m.env(""), stdin, args...)
	}
	if _, errOut, code := run("", "login", m.e.Srv.URL, "--token", "tend_aaaaaaaaaa_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"); code != 1 ||
		!strings.HasPrefix(errOut, "error: unauthorized: ") {
		t.Fatalf("a refused credential: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("a refused login stored %s: %v", file, err)
	}
	if _, errOut, code := run("", "login", "127.0.0.1:8421"); code != 2 || !strings.HasPrefix(errOut, "error: login takes the server's URL") {
		t.Fatalf("a URL without a scheme: exit %d, %q", code, errOut)
	}
	out, errOut, code := run(m.e.Admin+"\n", "login", m.e.Srv.URL+"/")
	if code != 0 || out != "logged in to "+m.e.Srv.URL+" as admin: tend add, ls, done and the others now go there (tend logout undoes it)\n" {
		t.Fatalf("login with the token on stdin: exit %d, %q %q", code, out, errOut)
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the login file: %v, mode %v; want 0600", err, st.Mode())
	}
	if dir, _ := os.Stat(filepath.Dir(file)); dir.Mode().Perm() != 0o700 {
		t.Errorf("the login directory's mode is %v, want 0700", dir.Mode().Perm())
	}
	var stored login
	b, _ := os.ReadFile(file)
	if err := json.Unmarshal(b, &stored); err != nil || stored != (login{URL: m.e.Srv.URL, Token: m.e.Admin}) {
		t.Fatalf("stored %s: %v", b, err)
	}
	if out, _, _ := run("", "whoami"); out != "admin on "+m.e.Srv.URL+"\n" {
		t.Errorf("whoami after login: %q", out)
	}
	if _, errOut, code := run("", "ls", "--user", "bob"); code != 2 || !strings.HasPrefix(errOut, "error: --user is for the database file") {
		t.Errorf("--user on a server: exit %d, %q", code, errOut)
	}
	m.vars = map[string]string{"TEND_URL": m.e.Srv.URL}
	if _, errOut, code := run("", "ls"); code != 2 || !strings.HasPrefix(errOut, "error: TEND_URL is set without TEND_TOKEN") {
		t.Errorf("TEND_URL alone: exit %d, %q", code, errOut)
	}
	m.vars = nil
	if out, _, code := run("", "logout"); code != 0 || out != "logged out of "+m.e.Srv.URL+": the terminal commands work on the database file\n" {
		t.Errorf("logout: exit %d, %q", code, out)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("logout left %s: %v", file, err)
	}
	if out, _, _ := run("", "logout"); out != "not logged in: the terminal commands work on the database file\n" {
		t.Errorf("logout again: %q", out)
	}
}

// runIn runs one command line in env, as main() does.
func runIn(t *testing.T, env *Env, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb strings.Builder
	root := NewRoot(&out, &errb, env, nil)
	root.SetArgs(args)
	root.SetIn(strings.NewReader(stdin))
	if err := root.ExecuteContext(t.Context()); err != nil {
		errb.WriteString("error: " + err.Error() + "\n")
		code = ExitCode(err)
	}
	return out.String(), errb.String(), code
}

// TestCLILocalAccount: on the file the commands act as the oldest active
// administrator, or as --user (TEND_USER): a person, or an agent whose
// person is active; nobody else.
func TestCLILocalAccount(t *testing.T) {
	m := newCLIMode(t)
	m.e.OK(http.StatusCreated, http.MethodPost, "/v1/users", m.e.Admin, map[string]any{"username": "carol"})
	m.e.Join("carol", "member")
	m.e.Issue(m.e.Admin, map[string]any{"username": "claude", "answers_to": "bob"})
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"whoami"}, 0, "admin on "},
		{[]string{"whoami", "--user", "bob"}, 0, "bob on "},
		{[]string{"whoami", "--user", "claude"}, 0, "claude on "},
		{[]string{"whoami", "--user", "nobody"}, 3,
			"error: not_found: no such account (--user (or TEND_USER) names an account of this file; tend token issue --user NAME makes one)\n"},
	} {
		out, errOut, code := m.run(t, "", "", c.args...)
		if code != c.code || !strings.HasPrefix(out+errOut, c.want) {
			t.Errorf("tend %s: exit %d, %q %q; want %d, %q", strings.Join(c.args, " "), code, out, errOut, c.code, c.want)
		}
	}
	m.e.OK(http.StatusOK, http.MethodPatch, "/v1/users/bob", m.e.Admin, map[string]any{"active": false})
	for _, user := range []string{"bob", "claude"} {
		if _, errOut, code := m.run(t, "", "", "add", "x", "--user", user); code != 4 || !strings.HasPrefix(errOut, "error: account_inactive: ") {
			t.Errorf("as %s, deactivated or answering to who is: exit %d, %q", user, code, errOut)
		}
	}
}

// TestCLICreatesTheDefaultDatabase: with no server and no --db or TEND_DB,
// the first command creates the default database and acts as its
// administrator; a database named that does not exist is refused, so a
// typo creates nothing.
func TestCLICreatesTheDefaultDatabase(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv("TEND_DB", "")
	env := newCLIMode(t).env("")
	out, errOut, code := runIn(t, env, "", "add", "First task")
	path := filepath.Join(data, "tend", "tend.db")
	if code != 0 || out != "added #1 First task\n  todo · inbox\n" ||
		errOut != "tend: created "+path+", acting as its administrator (tend serve serves it; tend signin signs a browser in)\n" {
		t.Fatalf("first add: exit %d, %q %q", code, out, errOut)
	}
	if out, errOut, _ := runIn(t, env, "", "ls", "--format", "compact"); out != "#1  todo  inbox  First task\n" || errOut != "" {
		t.Errorf("then ls: %q %q", out, errOut)
	}
	typo := filepath.Join(t.TempDir(), "typo", "tend.db")
	if _, errOut, code := runIn(t, env, "", "--db", typo, "ls"); code != 1 || !strings.HasPrefix(errOut, "error: not_found: no database at "+typo) {
		t.Errorf("--db naming no file: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Dir(typo)); !os.IsNotExist(err) {
		t.Errorf("the refused --db created %s", filepath.Dir(typo))
	}
}

// TestCLILoginBrowser: tend login --browser prints the approval link,
// opens it at a terminal, and polls at the server's interval (the test's
// wait moves the server's clock on instead of sleeping) until the person
// approves in the signed-in browser; it stores the token it receives, a
// new one of that person's pinned to the workspace chosen. A denied
// request stores nothing and says why.
func TestCLILoginBrowser(t *testing.T) {
	m := newCLIMode(t)
	file := filepath.Join(m.dir, "tend", "login.json")
	session := m.e.SignIn(m.e.MintLink(m.e.Admin, nil)).Value
	login := func(decision string) (string, string, int, []time.Duration) {
		t.Helper()
		var opened string
		var waits []time.Duration
		env := m.env("")
		env.terminal = func(any) bool { return true }
		env.browse = func(u string) error { opened = u; return nil }
		env.wait = func(_ context.Context, d time.Duration) error {
			waits = append(waits, d)
			if len(waits) == 2 { // the person acts between the first poll and the second
				u, err := url.Parse(opened)
				if err != nil {
					t.Fatal(err)
				}
				m.e.Browser(http.MethodPost, "/device", session, "", url.Values{"user_code": {u.Query().Get("user_code")},
					"workspace": {"default"}, "decision": {decision}})
			}
			m.e.Clock.Advance(d)
			return nil
		}
		out, errOut, code := runIn(t, env, "", "login", m.e.Srv.URL, "--browser")
		if !strings.Contains(errOut, "Open "+opened+" in a browser signed in to tend and approve the code ") {
			t.Errorf("the link opened (%q) is not the one printed: %q", opened, errOut)
		}
		return out, errOut, code, waits
	}
	out, errOut, code, waits := login("approve")
	if code != 0 || out != "logged in to "+m.e.Srv.URL+" as admin: tend add, ls, done and the others now go there (tend logout undoes it)\n" {
		t.Fatalf("login --browser: exit %d, %q %q", code, out, errOut)
	}
	if len(waits) != 2 || waits[0] != 5*time.Second || waits[1] != 5*time.Second {
		t.Errorf("waited %v; want 5s before each of two polls", waits)
	}
	var stored struct{ Token string }
	b, _ := os.ReadFile(file)
	if err := json.Unmarshal(b, &stored); err != nil || !strings.HasPrefix(stored.Token, "tend_") || stored.Token == m.e.Admin {
		t.Fatalf("stored %s: %v", b, err)
	}
	me := m.e.OK(http.StatusOK, http.MethodGet, "/v1/me", stored.Token, nil)
	if cred := me["credential"].(map[string]any); cred["workspace_id"] == nil || !strings.HasPrefix(cred["title"].(string), "tend") {
		t.Errorf("the token received: %v", cred)
	}
	if _, errOut, code := runIn(t, m.env(""), "", "login", m.e.Srv.URL, "--browser", "--token", "x"); code != 2 || !strings.HasPrefix(errOut, "error: --browser and --token") {
		t.Errorf("--browser with --token: exit %d, %q", code, errOut)
	}
	_ = os.Remove(file)
	if _, errOut, code, _ := login("deny"); code != 1 || !strings.Contains(errOut, "error: access_denied: ") {
		t.Errorf("a denied sign-in: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("a denied sign-in stored %s: %v", file, err)
	}
}
