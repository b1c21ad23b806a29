package web_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"tend/internal/pushtest"
	"tend/store/storetest"
	"tend/web/notify"
)

// TestWebPushReminder: a reminder reaches a browser's subscription through
// the push-service stand-in, which checks the VAPID token against the key
// GET /v1/push/key gives and decrypts the payload with its own RFC 8291
// receiver; once the browser has unsubscribed (410) the channel is gone.
func TestWebPushReminder(t *testing.T) {
	t.Parallel()
	e, w := notifyEnv(t)
	push := pushtest.NewServer()
	srv := httptest.NewServer(push)
	t.Cleanup(srv.Close)
	key := e.OK(http.StatusOK, http.MethodGet, "/v1/push/key", "", nil)["vapid_public_key"].(string)
	b := push.Subscribe(srv.URL, key)
	ch := e.OK(http.StatusCreated, http.MethodPost, "/v1/me/channels", e.Admin, map[string]any{"type": "webpush", "endpoint": b.Endpoint,
		"keys": map[string]any{"p256dh": b.P256dh, "auth": b.Auth}, "name": "laptop"})
	e.CreateTask(e.Admin, map[string]any{"title": "Renew passport", "due_at": storetest.Epoch.Add(time.Hour).Format(time.RFC3339),
		"reminders": []any{map[string]any{"before": "30m"}}})
	e.Clock.Advance(30 * time.Minute)
	if n := e.sendDue(w); n != 1 {
		t.Fatalf("sent %d, want 1", n)
	}
	got := push.Messages()
	if len(got) != 1 || got[0].Refused != "" || got[0].Subject != "https://tend.example" || got[0].TTL <= 0 {
		t.Fatalf("the push service got %+v", got)
	}
	var p notify.Payload
	if err := json.Unmarshal(got[0].Payload, &p); err != nil || p.Title != "Renew passport" || p.Kind != "reminder" || len(p.Actions) != 2 {
		t.Fatalf("payload %s (%v)", got[0].Payload, err)
	}

	push.Unsubscribe(b)
	e.OK(http.StatusAccepted, http.MethodPost, "/v1/me/channels/"+ch["id"].(string)+"/test", e.Admin, nil)
	e.sendDue(w)
	if items := e.OK(http.StatusOK, http.MethodGet, "/v1/me/channels", e.Admin, nil)["items"].([]any); len(items) != 0 {
		t.Fatalf("after a 410 the channels are %v", items)
	}
}
