package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCLIAddRemind: tend add --remind sets the new task's reminders, each
// flag one, over what the line says; a spec that is none is refused before
// anything is sent, and a list the API refuses names --remind.
func TestCLIAddRemind(t *testing.T) {
	t.Parallel()
	m := seededCLI(t)
	before := m.newest(t)
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"add", "Dentist", "--remind", "soon"}, 2, `error: --remind: "soon" is neither an offset before the due`},
		{[]string{"add", "Dentist", "--remind", "1m", "--remind", "2m", "--remind", "3m", "--remind", "4m", "--remind", "5m",
			"--remind", "6m", "--remind", "7m", "--remind", "8m", "--remind", "9m", "--remind", "10m", "--remind", "11m"},
			1, "error: over_limit: --remind: at most 10 reminders"},
	} {
		if _, errOut, code := m.run(t, "", "", c.args...); code != c.code || !strings.HasPrefix(errOut, c.err) {
			t.Errorf("%q: exit %d\n%s", c.args, code, errOut)
		}
	}
	if m.newest(t) != before {
		t.Fatal("a refused add wrote")
	}
	out, errOut, code := m.run(t, "", "", "add", "Dentist friday 2pm remind 5m before", "--remind", "1h", "--remind", "2026-03-05T07:00:00Z",
		"--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var task struct {
		Reminders []struct {
			Before string `json:"before"`
			At     string `json:"at"`
		} `json:"reminders"`
	}
	if err := json.Unmarshal([]byte(out), &task); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got, _ := json.Marshal(task.Reminders)
	if string(got) != `[{"before":"1h","at":""},{"before":"","at":"2026-03-05T07:00:00Z"}]` {
		t.Fatalf("reminders %s", got)
	}
}
