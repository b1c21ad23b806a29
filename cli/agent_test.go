package cli

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tend/web/webtest"
)

// cliLoopBudget is the most output, in bytes, the agent's loop at a shell
// may print in compact form (issue 23): a fraction of the tool schemas an
// MCP host loads before its first call.
const cliLoopBudget = 2048

// TestCLIAgentLoop runs the agent's loop through the terminal commands
// against a server, as an agent with a shell and its own credential would:
// claim the next task, complete it with what was checked, leave a finding
// linked to it. It measures what the agent reads (stdout, compact form)
// and keeps the figure web/docs/agent.md states true.
func TestCLIAgentLoop(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	ref := e.TaskRef(e.Admin, map[string]any{"title": "Fix the flaky login test", "importance": 4, "urgency": 3,
		"tags": []string{"testing"}, "description": "The login test fails one run in twenty on CI."})
	agent := &cliMode{e: e, dir: t.TempDir(), tokens: map[string]string{"claude": e.Agent("claude", "admin")}}

	var commands, read int
	run := func(stdin string, args ...string) string {
		t.Helper()
		out, errOut, code := agent.run(t, "claude", stdin, args...)
		if code != 0 {
			t.Fatalf("tend %s: exit %d: %s", strings.Join(args, " "), code, errOut)
		}
		commands, read = commands+1, read+len(out)
		t.Logf("tend %s: %d bytes\n%s", strings.Join(args, " "), len(out), out)
		return out
	}
	r := strconv.Itoa(ref)
	claimed := run("", "claim", "next", "--format", "compact")
	if !strings.HasPrefix(claimed, "#"+r+" ") || !strings.Contains(claimed, "@claude (claimed)") {
		t.Fatalf("claim next: %q", claimed)
	}
	done := run("", "done", r, "--verify", "go test -run Login -count=50 passes", "--passed", "--commit", "3f2a9c1", "--format", "compact")
	if !strings.HasPrefix(done, "#"+r+"  done ") {
		t.Fatalf("done: %q", done)
	}
	finding := run("The test slept instead of advancing the clock.\n", "doc", "new", "--type", "finding",
		"--title", "Login test raced on the session clock", "--link", r, "--format", "compact")
	if !strings.Contains(finding, "finding") || !strings.Contains(finding, "linked  relates to  #"+r+"  Fix the flaky login test") {
		t.Fatalf("the finding with its link: %q", finding)
	}

	show := e.OK(http.StatusOK, http.MethodGet, "/v1/items/"+r, e.Admin, nil)
	if show["task"].(map[string]any)["is_complete"] != true || show["verifications_total"] != float64(1) || len(show["links"].([]any)) != 1 {
		t.Fatalf("after the loop: %v", show)
	}
	if v := show["verifications"].([]any)[0].(map[string]any); v["passed"] != true || v["commit_sha"] != "3f2a9c1" || v["actor"] != "claude" {
		t.Fatalf("the verification: %v", v)
	}
	if _, errOut, code := agent.run(t, "claude", "", "claim", "next", "--format", "compact"); code != 3 || !strings.HasPrefix(errOut, "error: nothing_ready: ") {
		t.Fatalf("claim next with nothing left: exit %d, %q", code, errOut)
	}
	t.Logf("the loop: %d commands, %d bytes of output", commands, read)
	if commands != 3 || read > cliLoopBudget {
		t.Fatalf("the loop took %d commands and printed %d bytes; the target is 3 commands and at most %d bytes", commands, read, cliLoopBudget)
	}
	guide, err := os.ReadFile("../web/docs/agent.md")
	if err != nil {
		t.Fatal(err)
	}
	stated := regexp.MustCompile(`three\s+commands\s+print\s+([\d,]+)\s+bytes`).FindStringSubmatch(string(guide))
	if stated == nil || stated[1] != fmt.Sprint(read) {
		t.Fatalf("web/docs/agent.md (The loop at a shell) must say: \"the three commands print %d bytes\"; it says %q", read, stated)
	}
}
