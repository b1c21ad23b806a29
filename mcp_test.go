package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/app"
	"tend/store"
	"tend/web/webtest"
)

// startMCP starts `tend mcp` (this test binary running the real main) with
// secret in TEND_TOKEN and connects a go-sdk client to its stdio.
func startMCP(t *testing.T, dbPath, secret string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(os.Args[0], "--db", dbPath, "mcp")
	cmd.Env = append(os.Environ(), "TEND_TEST_RUN_MAIN=1", "TEND_TOKEN="+secret)
	cmd.Stderr = &webtest.LogBuffer{}
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
	t.Parallel()
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

// TestMCPStdioMalformed sends the real `tend mcp` each line issue 19 found
// to stop it, each followed by a tool call, and closes stdin right after
// the last: every line gets its JSON-RPC error, every call its answer,
// stdout nothing else, and the process exits 0.
func TestMCPStdioMalformed(t *testing.T) {
	t.Parallel()
	dbPath := freshDB(t)
	secret := strings.TrimSpace(mustRun(t, "--db", dbPath, "token", "issue", "--user", "alice"))
	lines := []struct {
		line string
		code int
		id   string
	}{
		{"garbage", -32700, "null"},
		{"{", -32700, "null"},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xff\"}}", -32700, "null"},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\x00\x00", -32700, "null"},
		{"null", -32600, "null"},
		{"[]", -32600, "null"},
		{`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, -32600, "null"},
		{strings.Repeat("[", 5000) + strings.Repeat("]", 5000), -32600, "null"},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"a":` + strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000) + `}}`, -32600, "3"},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null"},
		{`{"jsonrpc":"1.0","id":4,"method":"ping"}`, -32600, "4"},
		{`{"jsonrpc":"2.0","id":99999999999999999999999999,"method":"nothing/here"}`, -32601, "99999999999999999999999999"},
		{`{"jsonrpc":"2.0","id":"x","method":"ping","params":{"x":"` + strings.Repeat("a", 1<<20) + `"}}`, -32600, "null"},
	}
	in := []string{`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`}
	for i, l := range lines {
		in = append(in, l.line, fmt.Sprintf(`{"jsonrpc":"2.0","id":"ok-%d","method":"tools/call","params":{"name":"service_whoami","arguments":{}}}`, i))
	}
	cmd := exec.Command(os.Args[0], "--db", dbPath, "mcp")
	cmd.Env = append(os.Environ(), "TEND_TEST_RUN_MAIN=1", "TEND_TOKEN="+secret)
	cmd.Stdin = strings.NewReader(strings.Join(in, "\n") + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tend mcp: %v\nstderr: %s", err, stderr.String())
	}
	var errs []string
	answered := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n") {
		var a struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  *struct {
				Content []struct{ Text string }
			}
			Error *struct{ Code int }
		}
		if err := json.Unmarshal([]byte(l), &a); err != nil || a.JSONRPC != "2.0" || (a.Result == nil) == (a.Error == nil) {
			t.Fatalf("not a JSON-RPC answer on stdout: %.300q", l)
		}
		switch id := string(a.ID); {
		case strings.HasPrefix(id, `"ok-`) && a.Result != nil && len(a.Result.Content) == 1 && strings.HasPrefix(a.Result.Content[0].Text, "you are alice"):
			answered[id] = true
		case id == `"init"` && a.Result != nil:
		case a.Error != nil:
			errs = append(errs, fmt.Sprintf("%d %s", a.Error.Code, id))
		default:
			t.Fatalf("unexpected answer %.300s", l)
		}
	}
	var want []string
	for i, l := range lines {
		want = append(want, fmt.Sprintf("%d %s", l.code, l.id))
		if !answered[fmt.Sprintf(`"ok-%d"`, i)] {
			t.Errorf("the call after line %d was not answered", i)
		}
	}
	// Calls are answered as they finish, so the order is not fixed.
	slices.Sort(errs)
	slices.Sort(want)
	if !slices.Equal(errs, want) {
		t.Fatalf("errors\n%q\nwant\n%q", errs, want)
	}
}
