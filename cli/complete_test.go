package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestCLICompletion: the shell completes refs of open tasks (with their
// titles), projects, tags and statuses, asking the server or the file.
func TestCLICompletion(t *testing.T) {
	t.Parallel()
	m := seededCLI(t)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"show", ""}, []string{"1\tCall the bank", "2\tFix the login bug"}},
		{[]string{"done", "#2"}, []string{"2\tFix the login bug"}},
		{[]string{"claim", "n"}, []string{"next"}},
		{[]string{"ls", "--project", ""}, []string{"inbox\tInbox", "web\tWeb site"}},
		{[]string{"ls", "--tag", ""}, []string{"auth", "finance"}},
		{[]string{"ls", "--status", "in"}, []string{"in_progress\tin_progress"}},
		{[]string{"add", "x", "--project", "w"}, []string{"web\tWeb site"}},
	} {
		out, errOut, code := m.run(t, "", "", append([]string{"__complete"}, c.args...)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || len(lines) == 0 || lines[len(lines)-1] != ":4" {
			t.Fatalf("__complete %q: exit %d, %q %q", c.args, code, out, errOut)
		}
		if got := lines[:len(lines)-1]; !slices.Equal(got, c.want) {
			t.Errorf("__complete %q = %q, want %q", c.args, got, c.want)
		}
	}
}
