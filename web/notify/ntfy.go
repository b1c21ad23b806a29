package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"tend/app"
)

// NtfyMessage is a message as ntfy's JSON publishing takes it: POSTed to
// the server's root, naming its topic (docs.ntfy.sh, "Publish as JSON").
// SequenceID is the notification's stable id: ntfy 2.16 and later keep it
// as the message's sequence id, so a repeat replaces the first on the
// phone rather than showing twice.
type NtfyMessage struct {
	Topic      string       `json:"topic"`
	Title      string       `json:"title"`
	Message    string       `json:"message"`
	Click      string       `json:"click,omitempty"`
	Tags       []string     `json:"tags,omitempty"`
	Actions    []NtfyAction `json:"actions,omitempty"`
	SequenceID string       `json:"sequence_id"`
}

// NtfyAction is an action button; tend's are http actions, a POST to the
// single-use link, clearing the notification once tapped.
type NtfyAction struct {
	Action string `json:"action"`
	Label  string `json:"label"`
	URL    string `json:"url"`
	Method string `json:"method"`
	Clear  bool   `json:"clear"`
}

// NewNtfyMessage is s as ntfy is sent it, and the server root it goes to.
func NewNtfyMessage(s app.NotifySend) (root string, m NtfyMessage, err error) {
	u, err := url.Parse(s.Channel.URL)
	if err != nil {
		return "", NtfyMessage{}, fmt.Errorf("the channel's URL does not parse: %w", err)
	}
	i := strings.LastIndex(strings.TrimRight(u.Path, "/"), "/")
	topic := strings.Trim(u.Path[i+1:], "/")
	u.Path, u.RawQuery, u.Fragment = u.Path[:i+1], "", ""
	p := NewPayload(s)
	m = NtfyMessage{Topic: topic, Title: p.Title, Message: p.Body, Click: p.URL, SequenceID: p.ID}
	if m.Message == "" {
		m.Message = p.Title
	}
	if p.Late {
		m.Tags = []string{"hourglass"}
	}
	for _, a := range p.Actions {
		m.Actions = append(m.Actions, NtfyAction{Action: "http", Label: a.Title, URL: a.URL, Method: http.MethodPost, Clear: true})
	}
	return u.String(), m, nil
}

// ntfy publishes s, or for a clear clears the message it names, and
// answers the server's status.
func (w *Worker) ntfy(ctx context.Context, s app.NotifySend) (int, error) {
	root, m, err := NewNtfyMessage(s)
	if err != nil {
		return 0, err
	}
	var req *http.Request
	if s.Notification.Kind == "clear" {
		// ntfy 2.16: PUT /<topic>/<sequence_id>/clear marks the message
		// read and takes it off every device subscribed.
		req, err = http.NewRequestWithContext(ctx, http.MethodPut,
			root+url.PathEscape(m.Topic)+"/"+url.PathEscape(s.Notification.Clears)+"/clear", nil)
	} else {
		var body []byte
		if body, err = json.Marshal(m); err != nil {
			return 0, err
		}
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, root, bytes.NewReader(body))
		if req != nil {
			req.Header.Set("Content-Type", "application/json")
		}
	}
	if err != nil {
		return 0, err
	}
	req.Header.Set("User-Agent", "tend-notify")
	if s.Channel.Token != "" {
		req.Header.Set("Authorization", "Bearer "+s.Channel.Token)
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return 0, err
	}
	drain(resp)
	return resp.StatusCode, nil
}
