package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The official MCP clients agents run, against the real `tend serve` and
// `tend mcp` on a fresh database: the TypeScript SDK's 1.x client
// (@modelcontextprotocol/sdk) and its 2.x client (@modelcontextprotocol/client),
// driven by .ci/mcpclients/check.mjs, and the MCP Inspector's CLI, all at the
// exact versions .ci/mcpclients/package-lock.json pins. The test skips unless
// TEND_MCP_CLIENTS names the node_modules directory `npm ci` installed them
// in; CI also sets TEND_MCP_CLIENTS_REQUIRED=1, and then a missing install
// fails instead.
//
//	npm ci --prefix .ci/mcpclients
//	TEND_MCP_CLIENTS=$PWD/.ci/mcpclients/node_modules go test -run TestMCPOfficialClients .

// mcpClientsDir is the node_modules directory of the pinned clients.
func mcpClientsDir(t *testing.T) string {
	dir := os.Getenv("TEND_MCP_CLIENTS")
	_, err := os.Stat(filepath.Join(dir, "@modelcontextprotocol", "sdk", "package.json"))
	if dir == "" || err != nil {
		if os.Getenv("TEND_MCP_CLIENTS_REQUIRED") == "1" {
			t.Fatalf("TEND_MCP_CLIENTS=%q holds no installed clients and TEND_MCP_CLIENTS_REQUIRED=1 (npm ci --prefix .ci/mcpclients): %v", dir, err)
		}
		t.Skip("set TEND_MCP_CLIENTS to .ci/mcpclients/node_modules after npm ci --prefix .ci/mcpclients")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func TestMCPOfficialClients(t *testing.T) {
	t.Parallel()
	modules := mcpClientsDir(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("no node on PATH to run the SDK clients with: %v", err)
	}
	// check.mjs resolves its packages from a node_modules beside it, so it
	// runs from a directory where that is the one named.
	stage := t.TempDir()
	script, err := os.ReadFile(filepath.Join(".ci", "mcpclients", "check.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stage, "check.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(modules, filepath.Join(stage, "node_modules")); err != nil {
		t.Fatal(err)
	}

	dbPath := tempDB(t)
	srv := startChild(t, dbPath, true, "--timezone", "UTC")
	secret := srv.token
	url := srv.url + "/mcp"
	// `tend mcp` is the built binary, with the credential in TEND_TOKEN.
	stdio := []string{builtTend(t), "--db", dbPath, "mcp"}
	env := append(os.Environ(), "TEND_TOKEN="+secret)

	// The Go SDK's view, which every other client must share. The runs
	// below go in parallel: each names what it creates after itself.
	want := canonicalJSON(t, goSDKTools(t, url, secret))

	for _, run := range []struct{ sdk, era, transport string }{
		{"v1", "legacy", "http"}, {"v1", "legacy", "stdio"},
		{"v2", "legacy", "http"}, {"v2", "legacy", "stdio"},
		{"v2", "modern", "http"}, {"v2", "modern", "stdio"},
	} {
		name := run.sdk + "-" + run.era + "-" + run.transport
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "tools.json")
			args := []string{filepath.Join(stage, "check.mjs"), "--sdk", run.sdk, "--era", run.era, "--tools-out", out, "--run", name}
			if run.transport == "http" {
				args = append(args, "--http", url)
			} else {
				args = append(append(args, "--stdio", "--"), stdio...)
			}
			stdout, stderr := runNode(t, env, node, args...)
			t.Logf("%s", lastLine(stdout))
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatalf("check.mjs wrote no tools: %v\nstdout: %s\nstderr: %s", err, stdout, stderr)
			}
			sameTools(t, "the Go SDK", want, name, canonicalJSON(t, got))
		})
	}

	// The MCP Inspector's CLI (which needs Node 22: the pinned `node`
	// package brings it), --strict: a tool schema with a portability error
	// fails it (exit 6); warnings are only printed.
	node22 := filepath.Join(modules, ".bin", "node")
	inspector := filepath.Join(modules, "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	for _, run := range []struct {
		name string
		args []string
	}{
		{"inspector-http", []string{url, "--header", "Authorization: Bearer " + secret}},
		{"inspector-http-modern", []string{url, "--protocol-era", "modern", "--header", "Authorization: Bearer " + secret}},
		{"inspector-stdio", append([]string{"-e", "TEND_TOKEN=" + secret, "--"}, stdio...)},
	} {
		t.Run(run.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{inspector, "--cli", "--method", "tools/list", "--strict", "--format", "json"}, run.args...)
			stdout, stderr := runNode(t, env, node22, args...)
			t.Logf("%s", lastLine(stderr))
			var res struct {
				Result struct {
					Tools json.RawMessage `json:"tools"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(stdout), &res); err != nil || len(res.Result.Tools) == 0 {
				t.Fatalf("the inspector's answer is not a tools/list result: %v\n%s", err, stdout)
			}
			sameTools(t, "the Go SDK", want, run.name, canonicalJSON(t, res.Result.Tools))
		})
	}
}

// runNode runs a Node program and fails the test, with its output, if it
// does not exit 0. The command line holds the credential, so it is not
// printed.
func runNode(t *testing.T, env []string, node string, args ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s failed: %v\nstdout: %s\nstderr: %s", filepath.Base(args[0]), err, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

// goSDKTools is the tools/list result's tools as the Go SDK's client
// receives them over HTTP.
func goSDKTools(t *testing.T, url, secret string) []byte {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "tend-test", Version: "1"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearerTransport{secret}}}
	cs, err := c.Connect(t.Context(), tr, nil)
	if err != nil {
		t.Fatalf("go-sdk connect: %v", err)
	}
	defer cs.Close()
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatalf("go-sdk tools/list: %v", err)
	}
	b, err := json.Marshal(res.Tools)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type bearerTransport struct{ secret string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.secret)
	return http.DefaultTransport.RoundTrip(r)
}

// canonicalJSON is b in one canonical encoding (object members sorted by
// name, no HTML escaping, two-space indent), so that two clients' lists are
// compared byte for byte, with no difference left to the encoders that
// wrote them: the Node clients' lists are compared with the Go SDK's
// client's, received from the same server in the same test, and that one
// is held to web/testdata/mcp_tools_list.json by TestMCPToolsListMatchesSpec.
func canonicalJSON(t *testing.T, b []byte) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// sameTools fails the test where two clients' tool lists first differ.
func sameTools(t *testing.T, wantName string, want []byte, gotName string, got []byte) {
	t.Helper()
	if bytes.Equal(want, got) {
		return
	}
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	from := max(0, i-200)
	t.Fatalf("%s sees a different tools/list than %s from byte %d:\n%s:\n%s\n%s:\n%s", gotName, wantName, i,
		wantName, excerpt(want, from, i+200), gotName, excerpt(got, from, i+200))
}

func excerpt(b []byte, from, to int) string {
	return string(b[min(from, len(b)):min(to, len(b))])
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
