package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/app"
	"tend/store"
)

// startMCP starts `tend mcp` (this test binary running the real main) with
// secret in TEND_TOKEN and connects a go-sdk client to its stdio.
func startMCP(t *testing.T, dbPath, secret string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(os.Args[0], "--db", dbPath, "mcp")
	cmd.Env = append(os.Environ(), "TEND_TEST_RUN_MAIN=1", "TEND_TOKEN="+secret)
	cmd.Stderr = &lockedBuffer{}
	c := mcp.NewClient(&mcp.Implementation{Name: "tend-test", Version: "1"}, nil)
	cs, err := c.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("tend mcp: %v\nstderr: %s", err, cmd.Stderr)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// callText calls a tool and returns its text and whether it failed; a
// JSON-RPC error fails the test.
func callText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var text string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	return text, res.IsError
}

func TestMCPStdio(t *testing.T) {
	dbPath := freshDB(t)
	alice := strings.TrimSpace(mustRun(t, "--db", dbPath, "token", "issue", "--user", "alice"))
	bot := strings.TrimSpace(mustRun(t, "--db", dbPath, "token", "issue", "--user", "bot", "--agent-of", "alice"))
	spare := strings.TrimSpace(mustRun(t, "--db", dbPath, "token", "issue", "--user", "spare", "--agent-of", "alice"))

	cs := startMCP(t, dbPath, bot)
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil || len(tools.Tools) != 15 {
		t.Fatalf("tools/list over stdio: %v %v", err, tools)
	}
	if text, failed := callText(t, cs, "service_whoami", nil); failed || !strings.HasPrefix(text, "you are bot, an agent answering to alice") {
		t.Fatalf("whoami: %q", text)
	}
	mustRun(t, "--db", dbPath, "token", "revoke", bot[:len("tend_")+10])
	if text, failed := callText(t, cs, "service_whoami", nil); !failed || !strings.HasPrefix(text, "unauthorized: ") {
		t.Fatalf("the revoked credential's next call: %q", text)
	}

	cs2 := startMCP(t, dbPath, spare)
	if _, failed := callText(t, cs2, "service_whoami", nil); failed {
		t.Fatal("spare should work before alice leaves")
	}
	db, err := store.Open(t.Context(), dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := app.New(db, app.Options{})
	if _, err := svc.UpdateUser(t.Context(), app.SystemActor("cli"), "alice", app.UserUpdate{Active: app.PatchOf(false)}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if text, failed := callText(t, cs2, "service_whoami", nil); !failed || !strings.HasPrefix(text, "unauthorized: ") {
		t.Fatalf("a deactivated person's agent's next call: %q", text)
	}

	code, stderr := runMain(t, "--db", dbPath, "mcp", "--token", alice)
	if code != 1 || !strings.Contains(stderr, "unauthorized") {
		t.Fatalf("an unusable credential stops tend mcp at once: %d %q", code, stderr)
	}
	if code, _ := runMain(t, "--db", dbPath, "mcp", "--token", ""); code != 2 {
		t.Fatalf("no credential is a usage error: %d", code)
	}
}
