package web_test

import (
	"net/http"
	"testing"
	"time"

	"tend/store/storetest"
)

func stampOf(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func TestCalendarReach(t *testing.T) {
	e := newEnv(t)
	pat := e.person("pat")
	e.join("pat", "member")
	kim := e.person("kim")
	e.join("kim", "member")
	_, pc := e.calendar(pat, map[string]any{"title": "pat's"})
	_, kc := e.calendar(kim, map[string]any{"title": "kim's"})
	e.problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/calendars/"+pc["id"].(string), kim, nil)
	e.problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/calendars/"+pc["prefix"].(string)+"/reset", kim, nil)
	e.problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/calendars/nope", kim, nil)
	mine := e.ok(http.StatusOK, http.MethodGet, "/v1/calendars", kim, nil)["items"].([]any)
	if len(mine) != 1 || mine[0].(map[string]any)["id"] != kc["id"] {
		t.Errorf("kim sees %v", mine)
	}
	all := e.ok(http.StatusOK, http.MethodGet, "/v1/calendars", e.admin, nil)["items"].([]any)
	if len(all) != 2 {
		t.Errorf("an administrator sees every feed, got %d", len(all))
	}
	e.ok(http.StatusOK, http.MethodDelete, "/v1/calendars/"+pc["id"].(string), e.admin, nil)
	e.problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/calendars", "", nil)
}

func TestCalendarRefusals(t *testing.T) {
	e := newEnv(t)
	e.ok(http.StatusCreated, http.MethodPost, "/v1/projects", e.admin, map[string]any{"key": "ops", "title": "Ops"})
	for name, body := range map[string]map[string]any{
		"audience":         {"audience": "team"},
		"empty item_types": {"item_types": []string{}},
		"unknown type":     {"item_types": []string{"saga"}},
		"unknown project":  {"project": "nope"},
		"past expiry":      {"expires_at": storetest.Epoch.Add(-time.Hour).Format(time.RFC3339)},
		"empty title":      {"title": "   "},
	} {
		t.Run(name, func(t *testing.T) {
			lstSub(e, t).problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/calendars", e.admin, body)
		})
	}
	narrow := e.issue(e.admin, map[string]any{"project_scope": []string{"ops"}, "expires_at": storetest.Epoch.Add(24 * time.Hour).Format(time.RFC3339)})["token"].(string)
	e.problem(http.StatusForbidden, "calendar_wider", http.MethodPost, "/v1/calendars", narrow, map[string]any{})
	e.problem(http.StatusForbidden, "calendar_wider", http.MethodPost, "/v1/calendars", narrow,
		map[string]any{"project": "ops", "expires_at": storetest.Epoch.Add(48 * time.Hour).Format(time.RFC3339)})
	c := e.ok(http.StatusCreated, http.MethodPost, "/v1/calendars", narrow, map[string]any{"project": "ops"})
	if c["expires_at"] != stampOf(storetest.Epoch.Add(24*time.Hour)) || c["project_key"] != "ops" {
		t.Errorf("a narrowed credential's feed inherits its expiry: %v", c)
	}
	e.problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/calendars", e.admin, `{"audience":`)
	e.problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/calendars", e.admin, map[string]any{"color": "red"})
}
