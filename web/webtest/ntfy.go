package webtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// NtfyMessage is a message as ntfy's documentation gives JSON publishing
// (docs.ntfy.sh/publish, "Publish as JSON"): the receiver decodes strictly
// into it, so a field ntfy does not know fails the test.
type NtfyMessage struct {
	Topic      string       `json:"topic"`
	Message    string       `json:"message"`
	Title      string       `json:"title"`
	Tags       []string     `json:"tags"`
	Priority   int          `json:"priority"`
	Actions    []NtfyAction `json:"actions"`
	Click      string       `json:"click"`
	Attach     string       `json:"attach"`
	Markdown   bool         `json:"markdown"`
	Icon       string       `json:"icon"`
	Filename   string       `json:"filename"`
	Delay      string       `json:"delay"`
	Email      string       `json:"email"`
	Call       string       `json:"call"`
	SequenceID string       `json:"sequence_id"`
}

// NtfyAction is an action button as ntfy takes it.
type NtfyAction struct {
	Action  string            `json:"action"`
	Label   string            `json:"label"`
	URL     string            `json:"url"`
	Method  string            `json:"method"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	Clear   bool              `json:"clear"`
}

// Ntfy is a loopback stand-in for an ntfy server: it checks each publish
// against the documented format and keeps what it got. Arrived has a value
// after each message.
type Ntfy struct {
	*httptest.Server
	Arrived chan struct{}
	t       testing.TB
	token   string
	mu      sync.Mutex
	got     []NtfyMessage
	cleared []string
	status  int
	noClear bool
}

// NewNtfy starts an ntfy stand-in that expects token (none when "") and
// answers 200.
func NewNtfy(t testing.TB, token string) *Ntfy {
	n := &Ntfy{t: t, token: token, status: http.StatusOK, Arrived: make(chan struct{}, 1)}
	n.Server = httptest.NewServer(http.HandlerFunc(n.serve))
	t.Cleanup(n.Close)
	return n
}

func (n *Ntfy) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPut {
		n.clear(w, r)
		return
	}
	var m NtfyMessage
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	switch {
	case r.Method != http.MethodPost || r.URL.Path != "/":
		n.t.Errorf("ntfy got %s %s, want POST / (JSON publishing goes to the root)", r.Method, r.URL.Path)
	case r.Header.Get("Content-Type") != "application/json":
		n.t.Errorf("ntfy got Content-Type %q", r.Header.Get("Content-Type"))
	case n.token != "" && r.Header.Get("Authorization") != "Bearer "+n.token:
		n.t.Errorf("ntfy got Authorization %q", r.Header.Get("Authorization"))
	case dec.Decode(&m) != nil:
		n.t.Errorf("ntfy got a body that is not its JSON message")
	case m.Topic == "" || m.Message == "" || !strings.HasPrefix(m.SequenceID, "ntf_"):
		n.t.Errorf("ntfy got %+v", m)
	}
	for _, a := range m.Actions {
		if a.Action != "http" || a.Method != http.MethodPost || !a.Clear || !strings.Contains(a.URL, "/v1/actions/") {
			n.t.Errorf("ntfy got action %+v", a)
		}
	}
	n.mu.Lock()
	n.got = append(n.got, m)
	status := n.status
	n.mu.Unlock()
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `{"id":"x","event":"message","topic":%q}`, m.Topic)
	select {
	case n.Arrived <- struct{}{}:
	default:
	}
}

// clear takes PUT /<topic>/<sequence_id>/clear as ntfy 2.16 does, or
// answers 404 as an older ntfy would.
func (n *Ntfy) clear(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if len(parts) != 3 || parts[2] != "clear" || !strings.HasPrefix(parts[1], "ntf_") {
		n.t.Errorf("ntfy got PUT %s, want PUT /<topic>/<sequence_id>/clear", r.URL.Path)
	}
	if n.token != "" && r.Header.Get("Authorization") != "Bearer "+n.token {
		n.t.Errorf("ntfy got Authorization %q", r.Header.Get("Authorization"))
	}
	n.mu.Lock()
	old := n.noClear
	if !old {
		n.cleared = append(n.cleared, strings.Join(parts[:2], "/"))
	}
	n.mu.Unlock()
	if old {
		http.NotFound(w, r)
		return
	}
	_, _ = fmt.Fprintf(w, `{"id":"y","event":"message_clear","topic":%q,"sequence_id":%q}`, parts[0], parts[1])
	select {
	case n.Arrived <- struct{}{}:
	default:
	}
}

// Cleared is what was cleared, in order, as topic/sequence_id.
func (n *Ntfy) Cleared() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.cleared...)
}

// Old makes the stand-in an ntfy before 2.16, which answers a clear 404.
func (n *Ntfy) Old() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.noClear = true
}

// Messages is what arrived, in order.
func (n *Ntfy) Messages() []NtfyMessage {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]NtfyMessage(nil), n.got...)
}

// Answer makes the stand-in answer status from now on.
func (n *Ntfy) Answer(status int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.status = status
}
