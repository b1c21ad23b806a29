package cli

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestCLIInvites makes, lists and revokes an invite on the database file,
// refuses what the Service refuses, and redeems the printed link.
func TestCLIInvites(t *testing.T) {
	t.Parallel()
	m := newCLIMode(t)
	runSteps(t, m, []cliStep{
		{args: line("invite", "list"), out: "no invites\n"},
		{args: line("invite", "--role", "boss"), code: ExitError, err: "error: validation: --role"},
		{args: line("invite", "--role", "member", "--expires", "31d"), code: ExitError, err: "error: validation: --expires"},
		{args: line("invite", "--role", "member", "--uses", "101"), code: ExitError, err: "error: validation: --uses"},
		{args: line("invite", "--role", "member"), as: "bob", code: ExitError, err: "error: forbidden"},
		{args: line("invite", "revoke", "no-such-invite"), code: ExitNotFound, err: "error: not_found"},
	})
	out, errOut, code := m.run(t, "", "", "invite", "--role", "member", "--uses", "2", "--note", "Welcome")
	link := regexp.MustCompile(`(?m)^link (http://127\.0\.0\.1:8421/join/(tend_\S+)) \(shown once\)$`).FindStringSubmatch(out)
	id := regexp.MustCompile(`(?m)^invite (\S+)  member  usable  0 of 2 used  expires \S+  Welcome$`).FindStringSubmatch(out)
	if code != 0 || link == nil || id == nil || errOut != "" {
		t.Fatalf("tend invite: %d\n%s%s", code, out, errOut)
	}
	m.e.OK(http.StatusCreated, http.MethodPost, "/v1/invites/accept", "", map[string]any{"invite": link[2], "username": "zoe", "timezone": "UTC"})
	if out, _, _ := m.run(t, "", "", "invite", "list"); !strings.Contains(out, id[1]+"  member  usable  1 of 2 used") || !strings.Contains(out, "joined: zoe") {
		t.Errorf("tend invite list:\n%s", out)
	}
	runSteps(t, m, []cliStep{{args: line("invite", "revoke", id[1]), out: "revoked " + id[1] + "\n"}})
	if out, _, _ := m.run(t, "", "", "invite", "ls"); !strings.Contains(out, id[1]+"  member  revoked  1 of 2 used") {
		t.Errorf("after revoking:\n%s", out)
	}
}
