package cli

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// editor writes a script standing in for $EDITOR: it runs sed with expr on
// the file it is given, as a person's edit would change it.
func editor(t *testing.T, expr string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "editor")
	script := "#!/bin/sh\nsed -i -e '" + expr + "' \"$1\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCLIEditInEditor: tend edit with no field flag opens the task in
// $EDITOR and saves what changed; text that cannot be read back, or comes
// back unchanged, writes nothing.
func TestCLIEditInEditor(t *testing.T) {
	t.Parallel()
	m := seededCLI(t)
	for _, c := range []struct {
		name, expr string
		code       int
		out, err   string
	}{
		{"fields and text", `s/^# .*/# Call the bank about the loan/; s/^importance: .*/importance: 2/; s/^tags: .*/tags: finance, loan/; $a\` + "\n" + `Ask for Ms Weber.`,
			0, "updated #1 Call the bank about the loan\n  todo · inbox · due tomorrow 09:00 · #finance #loan · !2\n", ""},
		{"the due in words", `s/^due: .*/due: friday 5pm/`, 0, "updated #1 Call the bank about the loan\n  todo · inbox · due friday 17:00 · #finance #loan · !2\n", ""},
		{"nothing changed", `s/^x//`, 0, "no change\n", ""},
		{"no heading", `s/^# //`, 2, "", "error: the text must begin with the title as a heading"},
		{"an unknown field", `s/^status:/state:/`, 2, "", `error: line 3, "state: todo": the field lines are`},
		{"a value refused", `s/^status: .*/status: nope/`, 1, "", "error: validation: --status: "},
	} {
		m.vars = map[string]string{"EDITOR": editor(t, c.expr)}
		before := m.newest(t)
		out, errOut, code := m.run(t, "", "", "edit", "1")
		if code != c.code || out != c.out || !strings.HasPrefix(errOut, c.err) {
			t.Errorf("%s: exit %d, %q %q; want %d, %q %q", c.name, code, out, errOut, c.code, c.out, c.err)
		}
		if after := m.newest(t); c.code != 0 && after != before {
			t.Errorf("%s: refused, yet something was written", c.name)
		}
	}
	if out, _, _ := m.run(t, "", "", "show", "1"); !strings.Contains(out, "\nAsk for Ms Weber.\n") {
		t.Errorf("the description written in the editor is not on the task:\n%s", out)
	}
}

// atTerminal runs one command line as m.run does, but with stdin and
// stdout a terminal: the editor and the browser are for people only.
func (m *cliMode) atTerminal(t *testing.T, env *Env, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	env.terminal = func(any) bool { return true }
	if m.local {
		args = append([]string{"--db", m.e.DB.Path()}, args...)
	}
	return runIn(t, env, "", args...)
}

// TestCLIDocInEditor: tend doc new with nothing piped in writes the body
// in $EDITOR; an editor that fails writes nothing.
func TestCLIDocInEditor(t *testing.T) {
	t.Parallel()
	m := newCLIMode(t)
	m.vars = map[string]string{"EDITOR": editor(t, `$a\`+"\n"+`Retry twice, then page.`), "NO_COLOR": "1"}
	out, errOut, code := m.atTerminal(t, m.env(""), "doc", "new", "--type", "decision", "--title", "Retries")
	if code != 0 || out != "wrote #1 Retries\n  decision · current · inbox · version 1\n" {
		t.Fatalf("doc new: exit %d, %q %q", code, out, errOut)
	}
	if d := m.e.OK(http.StatusOK, http.MethodGet, "/v1/documents/1", m.e.Admin, nil); d["body"] != "Retry twice, then page." {
		t.Errorf("the body written in the editor: %q", d["body"])
	}
	m.vars["EDITOR"] = "false"
	before := m.newest(t)
	if _, errOut, code := m.atTerminal(t, m.env(""), "doc", "new", "--type", "note", "--title", "X"); code != 1 ||
		!strings.HasPrefix(errOut, "error: the editor (false) failed, nothing was saved") {
		t.Errorf("a failing editor: exit %d, %q", code, errOut)
	}
	if m.newest(t) != before {
		t.Error("a failing editor wrote something")
	}
}

// TestCLIOpenBrowser: tend open prints the address and, at a terminal,
// opens it in the browser; piped, it only prints it.
func TestCLIOpenBrowser(t *testing.T) {
	t.Parallel()
	m := seededCLI(t)
	_, web := m.where()
	var opened []string
	env := m.env("")
	env.browse = func(u string) error { opened = append(opened, u); return nil }
	if out, _, code := runIn(t, env, "", append(m.dbFlag(), "open", "2")...); code != 0 || out != web+"/tasks/2\n" || opened != nil {
		t.Errorf("piped: exit %d, %q; opened %q", code, out, opened)
	}
	if out, _, code := m.atTerminal(t, env, "open", "3"); code != 0 || out != web+"/documents/3\n" ||
		len(opened) != 1 || opened[0] != web+"/documents/3" {
		t.Errorf("at a terminal: exit %d, %q; opened %q", code, out, opened)
	}
}

// dbFlag is --db and the file in local mode, nothing on a server.
func (m *cliMode) dbFlag() []string {
	if m.local {
		return []string{"--db", m.e.DB.Path()}
	}
	return nil
}

// TestEditFlagsUpdate: tend edit's flags become the PATCH body they name,
// "" (or 0 for a number) clearing what can be cleared (null, as the API
// says it) and sent as it is where a field cannot be.
func TestEditFlagsUpdate(t *testing.T) {
	for _, c := range []struct {
		args []string
		body string
		set  bool
	}{
		{nil, `{}`, false},
		{[]string{"--title", "Call", "--importance", "4", "--tag", "#a", "--tag", "b", "--parent", "#12", "--due", "friday",
			"--estimate", "1h30m", "--applies-to", "this_one", "--version", "3"},
			`{"title":"Call","parent":"12","tags":["a","b"],"importance":4,"estimate_minutes":90,"applies_to":"this_one","until":"friday","expected_version":3}`, true},
		{[]string{"--description", "", "--assignee", "", "--importance", "0", "--estimate", "", "--parent", "", "--tag", "",
			"--due", "", "--plan", "", "--defer", "", "--repeat", ""},
			`{"description":null,"parent":null,"tags":null,"assignee":null,"importance":null,"estimate_minutes":null,"repeat":null,"defer":null,"plan":null,"until":null}`, true},
		{[]string{"--title", "", "--status", "", "--type", "", "--applies-to", ""}, `{"title":"","type":"","status":"","applies_to":""}`, true},
		{[]string{"--remind", "30m", "--remind", "1d", "--remind", "2026-05-01T07:00:00Z"},
			`{"reminders":[{"before":"30m"},{"before":"1d"},{"at":"2026-05-01T07:00:00Z"}]}`, true},
		{[]string{"--remind", "none"}, `{"reminders":null}`, true},
	} {
		var f editFlags
		cmd := &cobra.Command{}
		f.define(cmd)
		if err := cmd.ParseFlags(c.args); err != nil {
			t.Fatal(err)
		}
		in, set, err := f.update(cmd)
		body, _ := json.Marshal(in)
		if err != nil || set != c.set || string(body) != c.body {
			t.Errorf("%q: %s, set %v (%v); want %s", c.args, body, set, err, c.body)
		}
	}
}
