package hook_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"tend/internal/npmclient"
)

// docsGoReceiver is the Go receiver of docs/webhooks.md, "Verifying a
// delivery", written here so that it compiles and runs: the body between
// the markers must be the document's ```go block, line for line.
func docsGoReceiver() {
	// docs:begin
	wh, err := standardwebhooks.NewWebhook(os.Getenv("WEBHOOK_SECRET"))
	if err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("/hook", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := wh.Verify(body, r.Header); err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	// docs:end
}

// TestDocsGoReceiver: the document's Go receiver is the one above, and it
// takes a delivery tend signed and refuses the same delivery altered.
func TestDocsGoReceiver(t *testing.T) {
	doc, err := os.ReadFile("../../docs/webhooks.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("docs_receiver_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if want, got := between(string(doc), "```go\n", "```\n"), dedent(between(string(src), "// docs:begin\n", "\t// docs:end\n")); want == "" || got != want {
		t.Fatalf("docs/webhooks.md's Go receiver is not the one tested here:\n--- docs\n%s--- here\n%s", want, got)
	}

	e := newHookEnv(t)
	rcv := newReceiver(t)
	w := e.webhook(e.Admin, rcv.URL+"/in", "task.created")
	e.CreateTask(e.Admin, map[string]any{"title": "Boil water"})
	if n := e.run(); n != 1 {
		t.Fatalf("sent %d, want 1", n)
	}
	sent := rcv.requests()[0]

	t.Setenv("WEBHOOK_SECRET", w["secret"].(string))
	docsGoReceiver()
	receiver := httptest.NewServer(http.DefaultServeMux)
	t.Cleanup(receiver.Close)
	for _, tc := range []struct {
		name string
		body []byte
		want int
	}{
		{"as tend sent it", sent.body, http.StatusNoContent},
		{"altered", bytes.Replace(sent.body, []byte("Boil water"), []byte("Boil wine!"), 1), http.StatusUnauthorized},
	} {
		req, _ := http.NewRequest(http.MethodPost, receiver.URL+"/hook", bytes.NewReader(tc.body))
		req.Header = sent.header.Clone()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != tc.want {
			t.Errorf("%s: the receiver answered %d, want %d", tc.name, res.StatusCode, tc.want)
		}
	}
}

// TestDocsNodeReceiver: docs/webhooks.md's Node receiver, run with the
// Standard Webhooks package from npm, takes a delivery tend signed and
// refuses the same delivery altered. The package is among the npm
// packages CI installs for the real-client tests: the test skips unless
// TEND_MCP_CLIENTS names their node_modules (npm ci --prefix
// .ci/mcpclients), and fails instead when TEND_MCP_CLIENTS_REQUIRED=1.
func TestDocsNodeReceiver(t *testing.T) {
	node, modules := npmclient.Node(t, "standardwebhooks")
	doc, err := os.ReadFile("../../docs/webhooks.md")
	if err != nil {
		t.Fatal(err)
	}
	block := between(string(doc), "```js\n", "```\n")
	if block == "" {
		t.Fatal("docs/webhooks.md has no ```js block")
	}
	// The block verifies rawBody and headers, which a receiver's framework
	// hands it: here the process's arguments. An import is hoisted, so they
	// may come first.
	stage := t.TempDir()
	if err := os.Symlink(modules, filepath.Join(stage, "node_modules")); err != nil {
		t.Fatal(err)
	}
	script := "const rawBody = process.argv[2];\nconst headers = JSON.parse(process.argv[3]);\n" + block + "console.log(payload.type);\n"
	if err := os.WriteFile(filepath.Join(stage, "receiver.mjs"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}

	e := newHookEnv(t)
	rcv := newReceiver(t)
	w := e.webhook(e.Admin, rcv.URL, "task.created")
	e.CreateTask(e.Admin, map[string]any{"title": "Boil water"})
	if n := e.run(); n != 1 {
		t.Fatalf("sent %d, want 1", n)
	}
	sent := rcv.requests()[0]
	headers := map[string]string{}
	for _, h := range []string{"webhook-id", "webhook-timestamp", "webhook-signature"} {
		headers[h] = sent.header.Get(h)
	}
	hj, _ := json.Marshal(headers)
	for _, tc := range []struct {
		name string
		body []byte
		ok   bool
	}{
		{"as tend sent it", sent.body, true},
		{"altered", bytes.Replace(sent.body, []byte("Boil water"), []byte("Boil wine!"), 1), false},
	} {
		cmd := exec.Command(node, "receiver.mjs", string(tc.body), string(hj))
		cmd.Dir = stage
		cmd.Env = append(os.Environ(), "WEBHOOK_SECRET="+w["secret"].(string))
		out, err := cmd.CombinedOutput()
		if tc.ok && (err != nil || strings.TrimSpace(string(out)) != "task.created") {
			t.Errorf("%s: %v\n%s", tc.name, err, out)
		}
		if !tc.ok && err == nil {
			t.Errorf("%s: the receiver took it: %s", tc.name, out)
		}
	}
}

// between is the text of s after the first open and up to the next close.
func between(s, open, close string) string {
	_, after, ok := strings.Cut(s, open)
	if !ok {
		return ""
	}
	in, _, _ := strings.Cut(after, close)
	return in
}

// dedent takes one tab off each line: the function body's indent.
func dedent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "\t")
	}
	return strings.Join(lines, "")
}
