package hook_test

import (
	"bytes"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
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
