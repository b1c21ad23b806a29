package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
// $EDITOR and saves what changed, in both modes; text that cannot be read
// back, or comes back unchanged, writes nothing.
func TestCLIEditInEditor(t *testing.T) {
	for _, m := range cliModes(t) {
		t.Run(m.name, func(t *testing.T) {
			seedCLI(t, m)
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
		})
	}
}
