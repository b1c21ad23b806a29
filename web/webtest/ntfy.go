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
	status  int
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
