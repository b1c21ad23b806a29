package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestDocsCommands runs every command block of README.md, docs/*.md and
// web/docs/agent.md (served as GET /v1/docs/agent) against a fresh
// `tend serve`, so that a documented example can never again be wrong.
//
// Which fences are commands:
//   - ```sh is a command block. A document's sh blocks run in order in one
//     bash (set -euo pipefail), as a reader pastes them into one terminal:
//     a block may use what an earlier one set.
//   - ```json, a plain ``` and any other language are samples (of output,
//     configuration or grammar) and are not run.
//   - ```bash, ```shell, ```console and ```zsh are refused, and so is an
//     indented code block: a command is fenced ```sh, so none escapes this
//     test, and a sample is fenced as what it is.
//   - An sh block followed by a paragraph that is just "prints" and a plain
//     ``` block must print exactly that block (stdout and stderr together).
//   - An sh block right after <!-- docs-test: skip: REASON --> is not run.
//     Only the blocks in skipsAllowed may carry it: they build tend from
//     source or install packages from the network.
//
// What the test changes before a block runs, and what stands in:
//   - 127.0.0.1:8421, in a URL or alone, becomes the fresh server's address (it listens
//     on 127.0.0.1, port chosen by the system), and tend_k3j9x2ab7q_… (the
//     README's example of the first token) the administrator token that
//     server printed on its first start. No other placeholder is replaced:
//     the documents capture the secrets they issue in variables.
//   - curl is a shell function adding --fail-with-body, so an HTTP error
//     fails the block (jq and curl are Debian's; .ci/run installs them).
//   - tend on PATH is the binary built once for these tests (builtTend).
//   - claude on PATH stands in for Claude Code's `claude mcp add`: it
//     connects with what the block gave it (the URL and header, or the
//     command and environment for stdio) through the go-sdk MCP client, as
//     the host would, lists the tools and calls service_whoami, and fails
//     the block if any of that fails.
//
// Nothing reaches beyond loopback: HOME is a temporary directory (so the
// default database is there), and --public-url values are only printed.
func TestDocsCommands(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("TEND_DOCS_REQUIRED") == "1" {
				t.Fatalf("%s is needed to run the documents' commands: %v", tool, err)
			}
			t.Skipf("%s is not installed; the documents' commands need bash, curl and jq (TEND_DOCS_REQUIRED=1 makes this a failure)", tool)
		}
	}
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"README.md", "web/docs/agent.md"}, files...)
	var skipped []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blocks, errs := parseBlocks(f, string(src))
		for _, err := range errs {
			t.Error(err)
		}
		var run []docBlock
		for _, b := range blocks {
			switch {
			case b.info != "sh":
			case b.skip != "":
				skipped = append(skipped, b.file+": "+b.firstLine())
			default:
				run = append(run, b)
			}
		}
		if len(run) == 0 {
			continue
		}
		t.Run(f, func(t *testing.T) {
			t.Parallel() // each document has a server and a home of its own
			out := runDocBlocks(t, run)
			if f == "README.md" {
				checkReadmeOutcomes(t, out)
			}
			for _, b := range run {
				if got := strings.TrimRight(out.out[b.line], "\n"); b.prints != nil && got != *b.prints {
					t.Errorf("%s:%d: the block printed\n%s\nwhere the document says it prints\n%s", b.file, b.line, got, *b.prints)
				}
			}
		})
	}
	if !slices.Equal(skipped, skipsAllowed) {
		t.Errorf("sh blocks marked docs-test: skip are\n%s\nwant\n%s", strings.Join(skipped, "\n"), strings.Join(skipsAllowed, "\n"))
	}
}

// skipsAllowed are the only command blocks not run, by file and first line.
var skipsAllowed = []string{
	"README.md: go run . serve   # run tend on its embedded default database",
	"docs/web.md: sudo apt-get install chromium",
}

// docBlock is one fenced block of a document.
type docBlock struct {
	file string
	line int // of the opening fence
	info string
	text string
	skip string // the reason given by a docs-test: skip marker
	// prints is what the document says an sh block prints, nil when it
	// says nothing.
	prints *string
}

func (b docBlock) firstLine() string {
	first, _, _ := strings.Cut(b.text, "\n")
	return first
}

var skipRE = regexp.MustCompile(`^<!-- docs-test: skip: (.+) -->$`)

// parseBlocks reads the fenced blocks of a Markdown document and reports
// the fences and indented blocks the rules above refuse.
func parseBlocks(file, src string) ([]docBlock, []error) {
	var out []docBlock
	var errs []error
	lines := strings.Split(src, "\n")
	var cur *docBlock
	var body []string
	prev := func(i int) string { // the nearest non-blank line before i
		for j := i - 1; j >= 0; j-- {
			if strings.TrimSpace(lines[j]) != "" {
				return lines[j]
			}
		}
		return ""
	}
	for i, l := range lines {
		if cur != nil {
			if strings.HasPrefix(l, "```") {
				cur.text = strings.Join(body, "\n")
				if n := len(out); cur.info == "" && n > 0 && out[n-1].info == "sh" && strings.TrimSpace(prev(cur.line-1)) == "prints" {
					out[n-1].prints = &cur.text
				}
				out = append(out, *cur)
				cur, body = nil, nil
				continue
			}
			body = append(body, l)
			continue
		}
		if info, ok := strings.CutPrefix(l, "```"); ok {
			cur = &docBlock{file: file, line: i + 1, info: strings.TrimSpace(info)}
			switch cur.info {
			case "bash", "shell", "console", "zsh":
				errs = append(errs, fmt.Errorf("%s:%d: a ```%s block: fence a command as ```sh, so it is run, or a sample as what it is", file, i+1, cur.info))
			}
			if m := skipRE.FindStringSubmatch(prev(i)); m != nil {
				cur.skip = m[1]
			}
			continue
		}
		indented := strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t")
		if indented && strings.TrimSpace(l) != "" && i > 0 && strings.TrimSpace(lines[i-1]) == "" && !listText(prev(i)) {
			errs = append(errs, fmt.Errorf("%s:%d: an indented code block: fence a command as ```sh, or a sample as ``` ", file, i+1))
		}
	}
	if cur != nil {
		errs = append(errs, fmt.Errorf("%s:%d: a fence that is never closed", file, cur.line))
	}
	return out, errs
}

var listRE = regexp.MustCompile(`^\s*([-*+]|\d+[.)])\s|^\s{2,}\S`)

// listText reports whether a line belongs to a list item, whose indented
// continuation is not a code block.
func listText(l string) bool { return listRE.MatchString(l) }

// docRun is what one document's blocks printed, by block.
type docRun struct {
	addr, token string
	out         map[int]string // by the block's line
}

// runDocBlocks starts a fresh server and runs blocks in one bash.
func runDocBlocks(t *testing.T, blocks []docBlock) docRun {
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tend := builtTend(t)
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, script := range map[string]string{
		"tend":   "exec " + strconv.Quote(tend) + " \"$@\"",
		"claude": "TEND_TEST_RUN_CLAUDE=1 exec " + strconv.Quote(self) + " \"$@\"",
	} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + home, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"TMPDIR=" + t.TempDir(), "LANG=C.UTF-8", "TZ=UTC", "GORACE=" + os.Getenv("GORACE"),
		// The webhook examples send to a receiver on this machine.
		"TEND_OUTBOUND_ALLOW=127.0.0.1/32"}
	srv := startServe(t, env, true, "serve", "--addr", "127.0.0.1:0")
	addr := srv.addr
	run := docRun{addr: addr, token: srv.token, out: map[int]string{}}

	var script strings.Builder
	script.WriteString("set -euo pipefail\nexec 2>&1\n")
	script.WriteString("curl() { command curl --silent --show-error --fail-with-body --max-time 60 \"$@\"; }\n")
	for _, b := range blocks {
		text := strings.ReplaceAll(b.text, "127.0.0.1:8421", addr)
		text = strings.ReplaceAll(text, "tend_k3j9x2ab7q_…", srv.token)
		fmt.Fprintf(&script, "printf '\\n::docs-block %d\\n'\n%s\n", b.line, text)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir, cmd.Env = home, env
	var out bytes.Buffer
	cmd.Stdout = &out
	runErr := cmd.Run()

	last := 0
	for _, part := range strings.Split(out.String(), "\n::docs-block ")[1:] {
		n, rest, _ := strings.Cut(part, "\n")
		last, _ = strconv.Atoi(n)
		run.out[last] = rest
	}
	if runErr != nil {
		for _, b := range blocks {
			if b.line == last {
				t.Fatalf("%s:%d: the block failed (%v):\n%s\n--- it printed:\n%s", b.file, b.line, runErr, b.text, run.out[last])
			}
		}
		t.Fatalf("the blocks failed before the first ran: %v\n%s", runErr, out.String())
	}
	for _, b := range blocks {
		t.Logf("%s:%d:\n%s\n--- printed:\n%s", b.file, b.line, b.text, run.out[b.line])
	}
	return run
}

// checkReadmeOutcomes checks what the README says its blocks do, beyond
// their succeeding.
func checkReadmeOutcomes(t *testing.T, run docRun) {
	has := func(what, want string) {
		t.Helper()
		for _, out := range run.out {
			if strings.Contains(out, want) {
				return
			}
		}
		t.Errorf("no block printed %s (%q)", what, want)
	}
	has("the agent's claim", `"claimed_by":"claude"`)
	has("a sign-in link to the server", "http://"+run.addr+"/signin?link=tend_")
	has("the HTTP agent connected", "claude stand-in: tend over http: 15 tools; service_whoami: you are coder")
	has("the stdio agent connected", "claude stand-in: tend over stdio: 15 tools; service_whoami: you are coder")
}

// fakeClaude stands in for `claude mcp add` (see TestDocsCommands) and
// returns the exit status.
func fakeClaude(args []string) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "claude stand-in: "+format+"\n", a...)
		return 1
	}
	if len(args) < 3 || args[0] != "mcp" || args[1] != "add" {
		return fail("only `claude mcp add` is stood in for, not %q", args)
	}
	var transport, name, url string
	var env, command []string
	header := http.Header{}
	for i := 2; i < len(args); i++ {
		a := args[i]
		value := func() string {
			if i++; i < len(args) {
				return args[i]
			}
			return ""
		}
		switch {
		case a == "--":
			command, i = args[i+1:], len(args)
		case a == "--transport" || a == "-t":
			transport = value()
		case a == "--header" || a == "-H":
			k, v, _ := strings.Cut(value(), ":")
			header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
		case a == "-e" || a == "--env":
			env = append(env, value())
		case name == "":
			name = a
		case url == "":
			url = a
		default:
			return fail("unexpected argument %q", a)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var tr mcp.Transport
	how := "stdio"
	switch {
	case transport == "http" && url != "":
		how = "http"
		tr = &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1,
			HTTPClient: &http.Client{Transport: headerTransport(header)}}
	case len(command) > 0:
		cmd := exec.CommandContext(ctx, command[0], command[1:]...)
		cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "TEND_TEST_RUN_CLAUDE=") })
		cmd.Env, cmd.Stderr = append(cmd.Env, env...), os.Stderr
		tr = &mcp.CommandTransport{Command: cmd}
	default:
		return fail("neither --transport http with a URL nor a command after --: %q", args)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-stand-in", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		return fail("connecting to %s: %v", name, err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return fail("tools/list: %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "service_whoami", Arguments: map[string]any{}})
	if err != nil {
		return fail("service_whoami: %v", err)
	}
	var text string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if res.IsError {
		return fail("service_whoami: %s", text)
	}
	first, _, _ := strings.Cut(text, "\n")
	fmt.Printf("claude stand-in: %s over %s: %d tools; service_whoami: %s\n", name, how, len(tools.Tools), first)
	return 0
}

// headerTransport sends the configured headers on every request, as an
// MCP host does with `--header`.
type headerTransport http.Header

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header[k] = v
	}
	return http.DefaultTransport.RoundTrip(r)
}

func TestParseBlocks(t *testing.T) {
	t.Parallel()
	src := strings.Join([]string{
		"# A document",
		"",
		"```sh",
		"curl http://127.0.0.1:8421/v1/me",
		"```",
		"",
		"```json",
		`{"a": 1}`,
		"```",
		"",
		"<!-- docs-test: skip: needs the network -->",
		"```sh",
		"apt-get install x",
		"```",
		"",
		"- a list item",
		"",
		"    its second paragraph, not code",
		"",
		"Text.",
		"",
		"    tend serve",
		"",
		"```bash",
		"echo refused",
		"```",
		"```",
		"never closed",
	}, "\n")
	blocks, errs := parseBlocks("x.md", src)
	var got []string
	for _, b := range blocks {
		got = append(got, fmt.Sprintf("%d %s %q %q", b.line, b.info, b.text, b.skip))
	}
	want := []string{
		`3 sh "curl http://127.0.0.1:8421/v1/me" ""`,
		`7 json "{\"a\": 1}" ""`,
		`12 sh "apt-get install x" "needs the network"`,
		`24 bash "echo refused" ""`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("blocks\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var msgs []string
	for _, err := range errs {
		msgs = append(msgs, err.Error())
	}
	wantErrs := []string{"x.md:22: an indented code block", "x.md:24: a ```bash block", "x.md:27: a fence that is never closed"}
	if len(msgs) != len(wantErrs) {
		t.Fatalf("errors %q, want %q", msgs, wantErrs)
	}
	for i, w := range wantErrs {
		if !strings.HasPrefix(msgs[i], w) {
			t.Errorf("error %q, want it to begin %q", msgs[i], w)
		}
	}
}
