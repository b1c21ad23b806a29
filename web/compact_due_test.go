package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"tend/web/webtest"
)

// Compact text shows an all-day due as its date and a timed one as the
// reader's local time with the zone's name, over MCP and in the HTTP
// listing's format=compact alike; never an all-day due as a UTC midnight.
func TestCompactDues(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/admin", e.Admin, map[string]any{"timezone": "Europe/Paris"})
	m := e.Connect(t, e.Admin, webtest.EraStateless)
	day := m.OK("service_add", map[string]any{"text": "Renew the passport by 2026-12-01"}).Structured["task"].(map[string]any)
	timed := m.OK("service_add", map[string]any{"text": "Call the bank 2026-12-01 17:30"}).Structured["task"].(map[string]any)
	if day["due_at"] != "2026-11-30T23:00:00Z" || day["due_is_all_day"] != true || timed["due_at"] != "2026-12-01T16:30:00Z" {
		t.Fatalf("the records keep the instants: %v %v", day["due_at"], timed["due_at"])
	}
	bob := e.Member("bob", "member")
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/bob", bob, map[string]any{"timezone": "America/New_York"})

	for _, c := range []struct {
		who, token  string
		date, local string
	}{
		{"admin", e.Admin, "due 2026-12-01", "due 2026-12-01 17:30 Europe/Paris"},
		{"bob", bob, "due 2026-12-01", "due 2026-12-01 11:30 America/New_York"},
	} {
		mc := e.Connect(t, c.token, webtest.EraStateless)
		texts := map[string]string{
			"service_list": mc.OK("service_list", nil).Text,
			"service_show": mc.OK("service_show", map[string]any{"ref": day["ref"]}).Text + "\n" + mc.OK("service_show", map[string]any{"ref": timed["ref"]}).Text,
		}
		compact := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?format=compact", c.token, nil)["items"].([]any)
		texts["GET /v1/tasks?format=compact"] = fmt.Sprint(compact...)
		for where, text := range texts {
			if !strings.Contains(text, c.date) || !strings.Contains(text, c.local) || strings.Contains(text, "T23:00:00Z") {
				t.Errorf("%s, read by %s:\n%s\nwants %q and %q", where, c.who, text, c.date, c.local)
			}
		}
	}
	text := m.OK("service_search", map[string]any{"q": "passport"}).Text
	if !strings.Contains(text, "due 2026-12-01") || strings.Contains(text, "T23:00:00Z") {
		t.Fatalf("search: %s", text)
	}
	updated := m.OK("service_update", map[string]any{"ref": timed["ref"], "title": "Call the bank about the card"}).Text
	if !strings.Contains(updated, "due 2026-12-01 17:30 Europe/Paris") {
		t.Fatalf("a write's line: %s", updated)
	}
}
