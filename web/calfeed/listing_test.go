package calfeed_test

import (
	"net/http"
	"testing"

	"tend/web/webtest"
)

// TestCalendarListingAgreesWithFeed: GET /v1/calendars lists a feed as
// usable exactly when its URL answers. A feed whose owner is not a member
// of its workspace (planted by a crafted import, or left behind when the
// owner left) is listed as unusable, answers 404, cannot be reset to a
// URL that would not answer either, and can be revoked by its owner.
func TestCalendarListingAgreesWithFeed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pat := e.Member("pat", "member")
	mine, mc := e.Calendar(pat, map[string]any{"title": "mine"})
	planted, pc := e.Calendar(pat, map[string]any{"title": "planted"})
	other := e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces", e.Admin, map[string]any{"slug": "other", "name": "Other"})
	// As an import that names a workspace pat is not in would write it.
	e.rawSQL(`UPDATE calendars SET workspace_id = ? WHERE id = ?`, other["id"], pc["id"])

	agree := func(step, token string, want map[string]bool) {
		t.Helper()
		urls := map[string]string{mc["id"].(string): mine, pc["id"].(string): planted}
		for _, it := range e.OK(http.StatusOK, http.MethodGet, "/v1/calendars", token, nil)["items"].([]any) {
			c := it.(map[string]any)
			id, usable := c["id"].(string), c["usable"].(bool)
			if usable != want[c["title"].(string)] {
				t.Errorf("%s: %s listed with usable %v", step, c["title"], usable)
			}
			if got := e.FetchFeed(urls[id], nil).Status; (got == http.StatusOK) != usable {
				t.Errorf("%s: %s listed with usable %v answers %d", step, c["title"], usable, got)
			}
		}
	}
	agree("planted", pat, map[string]bool{"mine": true, "planted": false})
	agree("planted, as the administrator lists it", e.Admin, map[string]bool{"mine": true, "planted": false})
	p := e.Problem(http.StatusConflict, "calendar_unusable", http.MethodPost, "/v1/calendars/"+pc["prefix"].(string)+"/reset", pat, nil)
	if p["detail"] == "" {
		t.Errorf("the refusal to reset says nothing: %v", p)
	}
	webtest.AssertProblem(t, e.FetchFeed(planted, nil).Response, http.StatusNotFound, "not_found")

	e.OK(http.StatusNoContent, http.MethodDelete, "/v1/workspaces/default/members/pat", e.Admin, nil)
	agree("pat left the workspace", pat, map[string]bool{"mine": false, "planted": false})
	e.Join("pat", "member")
	agree("pat is back", pat, map[string]bool{"mine": true, "planted": false})

	if r := e.OK(http.StatusOK, http.MethodDelete, "/v1/calendars/"+pc["id"].(string), pat, nil); r["revoked_at"] == nil || r["usable"] != false {
		t.Errorf("revoking the planted feed: %v", r)
	}
	agree("planted revoked", pat, map[string]bool{"mine": true, "planted": false})
}
