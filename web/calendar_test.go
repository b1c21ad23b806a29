package web_test

import (
	"net/http"
	"testing"
	"time"

	"tend/store/storetest"
)

func stampOf(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func TestCalendarReach(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pat := e.Member("pat", "member")
	kim := e.Member("kim", "member")
	_, pc := e.Calendar(pat, map[string]any{"title": "pat's"})
	_, kc := e.Calendar(kim, map[string]any{"title": "kim's"})
	e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/calendars/"+pc["id"].(string), kim, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/calendars/"+pc["prefix"].(string)+"/reset", kim, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/calendars/nope", kim, nil)
	mine := e.OK(http.StatusOK, http.MethodGet, "/v1/calendars", kim, nil)["items"].([]any)
	if len(mine) != 1 || mine[0].(map[string]any)["id"] != kc["id"] {
		t.Errorf("kim sees %v", mine)
	}
	all := e.OK(http.StatusOK, http.MethodGet, "/v1/calendars", e.Admin, nil)["items"].([]any)
	if len(all) != 2 {
		t.Errorf("an administrator sees every feed, got %d", len(all))
	}
	e.OK(http.StatusOK, http.MethodDelete, "/v1/calendars/"+pc["id"].(string), e.Admin, nil)
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/calendars", "", nil)
}

func TestCalendarRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "ops", "title": "Ops"})
	for name, body := range map[string]map[string]any{
		"audience":         {"audience": "team"},
		"empty item_types": {"item_types": []string{}},
		"unknown type":     {"item_types": []string{"saga"}},
		"unknown project":  {"project": "nope"},
		"past expiry":      {"expires_at": storetest.Epoch.Add(-time.Hour).Format(time.RFC3339)},
		"empty title":      {"title": "   "},
	} {
		t.Run(name, func(t *testing.T) {
			e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/calendars", e.Admin, body)
		})
	}
	narrow := e.Issue(e.Admin, map[string]any{"project_scope": []string{"ops"}, "expires_at": storetest.Epoch.Add(24 * time.Hour).Format(time.RFC3339)})["token"].(string)
	e.Problem(http.StatusForbidden, "calendar_wider", http.MethodPost, "/v1/calendars", narrow, map[string]any{})
	e.Problem(http.StatusForbidden, "calendar_wider", http.MethodPost, "/v1/calendars", narrow,
		map[string]any{"project": "ops", "expires_at": storetest.Epoch.Add(48 * time.Hour).Format(time.RFC3339)})
	c := e.OK(http.StatusCreated, http.MethodPost, "/v1/calendars", narrow, map[string]any{"project": "ops"})
	if c["expires_at"] != stampOf(storetest.Epoch.Add(24*time.Hour)) || c["project_key"] != "ops" {
		t.Errorf("a narrowed credential's feed inherits its expiry: %v", c)
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/calendars", e.Admin, `{"audience":`)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/calendars", e.Admin, map[string]any{"color": "red"})
}
