package web_test

import (
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/web/webtest"
)

// problemsUnanswered are the codes no request to the test server can
// provoke, each with the reason and where the code is asserted instead.
var problemsUnanswered = map[app.Code]string{
	app.CodeInvalid:           "the JSON API answers malformed input with validation; invalid comes from the import readers (cli, app/from) and a page's unreadable form, which answers a page",
	app.CodeBusy:              "needs the writer held past busy_timeout or a restore under way (store's tests; TestLoadShedding's words)",
	app.CodeInternal:          "needs a store that fails (TestInternalErrorLogsTheCause)",
	app.CodeSchemaTooNew:      "answered when a file is opened or imported, before any server runs (store's and app's tests)",
	app.CodeBackupUnavailable: "needs a backup directory that cannot be created (store's TestBackup tests)",
	app.CodeAmbiguous:         "only MCP's comment withdrawal by words answers it (mcpserver's tests)",
	app.CodeStorageFull:       "needs a full disk, faked by a failing store (TestStorageFullAnswers507)",
	app.CodeReadsSaturated:    "needs every expensive-read slot held by a gated store (TestExpensiveReadsSaturated)",
	app.CodeReadOverBudget:    "needs a read held past its budget by a gated store (TestExpensiveReadOverBudget)",
	app.CodeLoginLinkUnusable: "POST /signin answers it as the 410 page, never as a problem document (pages' sign-in tests)",
	app.CodeTooManyWaiters:    "needs a credential's waits on the change feed held open (TestChangesWaitHTTP)",
	app.CodeActionUsed:        "needs a notification sent and its link used (TestNtfyReminderAndActions)",
	app.CodeActionExpired:     "needs a notification sent and a day gone by (TestNtfyReminderAndActions)",
	app.CodeTooManyAttempts:   "needs twenty sign-ins started from one address, or ten wrong codes tried on /device (TestDeviceSignInLimits)",
	app.CodeTailscaleUnlinked: "needs a server trusting Tailscale and a request from loopback naming an unlinked login (TestTailscaleSignIn)",
	app.CodeReadOnly:          "needs a store that follows a primary's replica (TestStandbyRefusesWrites)",
	app.CodePromoteFailed:     "needs a standby whose copy fails its integrity check (TestPromoteRefusedKeepsServing in package main)",
}

// TestProblemGoldens provokes every code HTTP can answer, once, from the
// routes' seeded fixture, and compares the problem document with
// testdata/problems/<code>.golden (go test -run TestProblemGoldens -update
// rewrites them). A code with neither a request here nor a reason in
// problemsUnanswered fails the test.
func TestProblemGoldens(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	vals := routeSeed(e)
	ann := e.tokenOf("ann")
	narrow := e.Issue(ann, map[string]any{"scopes": []string{"item:read", "project:read"}})["token"].(string)
	issuer := e.Issue(e.Admin, map[string]any{"scopes": []string{"item:read", "project:read"}, "project_scope": []string{"default/inbox"},
		"project_write_scope": []string{"default/inbox"}, "expires_at": credTime(e.Clock.Now().Add(2 * time.Hour)), "workspace": "default"})["token"].(string)
	vocab := func(path, key string) string {
		for _, it := range lstItems(e.OK(http.StatusOK, http.MethodGet, path, e.Admin, nil)) {
			if it["key"] == key && it["entity_type"] != "document" {
				return path + "/" + it["id"].(string)
			}
		}
		t.Fatalf("no %s in %s", key, path)
		return ""
	}
	send := func(method, path, token string, body any) func() webtest.Response {
		return func() webtest.Response { return e.Do(method, path, token, body) }
	}
	raw := func(method, path, contentType string, body io.Reader) func() webtest.Response {
		return func() webtest.Response { return e.probRaw(method, path, e.Admin, contentType, body) }
	}
	task, repeating := "/v1/tasks/"+vals["task"], "/v1/tasks/"+vals["repeating"]
	taskRef, _ := strconv.Atoi(vals["task"])
	// A terminal's browser sign-in, for the RFC 8628 answers to its poll.
	device := map[string]string{}
	startDevice := func() {
		d := e.OK(http.StatusOK, http.MethodPost, "/v1/auth/device", "", map[string]any{})
		device["device_code"], device["user_code"] = d["device_code"].(string), d["user_code"].(string)
	}
	poll := func() webtest.Response {
		return e.Do(http.MethodPost, "/v1/auth/device/token", "", map[string]any{"device_code": device["device_code"]})
	}
	invite := map[string]string{}
	cases := []struct {
		code  app.Code
		setup func()
		send  func() webtest.Response
	}{
		{app.CodeValidation, nil, send(http.MethodPost, "/v1/users", e.Admin, map[string]any{"username": "not a name!"})},
		{app.CodeUnauthorized, nil, send(http.MethodGet, "/v1/me", "", nil)},
		{app.CodeForbidden, nil, send(http.MethodPatch, "/v1/users/admin", ann, map[string]any{"display_name": "x"})},
		{app.CodeNotFound, nil, send(http.MethodGet, "/v1/no-such-route", e.Admin, nil)},
		{app.CodeMethodNotAllowed, nil, send(http.MethodDelete, "/v1/me", e.Admin, nil)},
		{app.CodeTooLarge, nil, raw(http.MethodPost, "/v1/users", "application/json", strings.NewReader(`{"username":"`+strings.Repeat("a", 1<<20)+`"}`))},
		{app.CodeConflict, nil, send(http.MethodPost, "/v1/tags", e.Admin, map[string]any{"name": "home"})},
		{app.CodeTokenScopeWider, nil, send(http.MethodPost, "/v1/tokens", issuer, map[string]any{"scopes": []string{"item:read", "item:write", "project:read"}})},
		{app.CodeTokenProjectsWider, nil, send(http.MethodPost, "/v1/tokens", issuer, map[string]any{"project_scope": nil})},
		{app.CodeTokenWriteWider, nil, send(http.MethodPost, "/v1/tokens", issuer, map[string]any{"project_write_scope": nil})},
		{app.CodeTokenExpiryLater, nil, send(http.MethodPost, "/v1/tokens", issuer, map[string]any{"expires_at": nil})},
		{app.CodeTokenForOther, nil, send(http.MethodPost, "/v1/login-links", ann, map[string]any{"username": "admin"})},
		{app.CodeTimezoneNotOwn, nil, send(http.MethodPatch, "/v1/users/ann", e.Admin, map[string]any{"timezone": "Asia/Tokyo"})},
		{app.CodeLastAdministrator, nil, send(http.MethodPatch, "/v1/users/admin", e.Admin, map[string]any{"active": false})},
		{app.CodeLastOwner, nil, send(http.MethodDelete, "/v1/workspaces/default/members/admin", e.Admin, nil)},
		{app.CodeAlreadyMember, nil, send(http.MethodPost, "/v1/workspaces/default/members", e.Admin, map[string]any{"username": "ann", "role": "member"})},
		{app.CodeCycle, nil, send(http.MethodPost, task+"/move", e.Admin, map[string]any{"parent": vals["subtask"]})},
		{app.CodeSecretInQuery, nil, send(http.MethodGet, "/v1/tasks?q="+e.Admin, "", nil)},
		{app.CodeUnsupportedMediaType, nil, raw(http.MethodPost, "/v1/users", "text/plain", strings.NewReader(`{"username":"x"}`))},
		{app.CodeAccountInactive, func() {
			e.account(map[string]any{"username": "gone"})
			e.OK(http.StatusOK, http.MethodPatch, "/v1/users/gone", e.Admin, map[string]any{"active": false})
		}, send(http.MethodPost, "/v1/tokens", e.Admin, map[string]any{"username": "gone"})},
		{app.CodeVersionConflict, nil, send(http.MethodPatch, task, e.Admin, map[string]any{"title": "x", "expected_version": 99})},
		{app.CodeClaimHeld, func() {
			e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+vals["spare_task"]+"/claim", e.Admin, nil)
		}, send(http.MethodPost, "/v1/tasks/"+vals["spare_task"]+"/claim", ann, nil)},
		{app.CodeInboxProtected, nil, send(http.MethodPatch, "/v1/projects/inbox", e.Admin, map[string]any{"visibility": "private"})},
		{app.CodeProjectOwnerRow, func() {
			e.OK(http.StatusCreated, http.MethodPost, "/v1/projects/ops/members", e.Admin, map[string]any{"username": "ann"})
		}, send(http.MethodDelete, "/v1/projects/ops/members/admin", e.Admin, nil)},
		{app.CodeLastProjectMember, func() {
			e.OK(http.StatusNoContent, http.MethodDelete, "/v1/projects/ops/members/ann", e.Admin, nil)
		}, send(http.MethodDelete, "/v1/projects/ops/members/admin", e.Admin, nil)},
		{app.CodeStatusInUse, func() {
			e.OK(http.StatusOK, http.MethodPatch, task, e.Admin, map[string]any{"status": "in_progress"})
		}, send(http.MethodDelete, vocab("/v1/statuses", "in_progress"), e.Admin, nil)},
		{app.CodeStatusIsDefault, nil, send(http.MethodDelete, vocab("/v1/statuses", "todo"), e.Admin, nil)},
		{app.CodeLinkTypeInUse, nil, send(http.MethodDelete, vocab("/v1/link-types", "relates_to"), e.Admin, nil)},
		{app.CodeNotCommentAuthor, nil, send(http.MethodPatch, "/v1/comments/"+vals["comment"], ann, map[string]any{"body": "edited"})},
		{app.CodeCredentialNarrowed, nil, send(http.MethodPost, "/v1/users/ann/signout", narrow, nil)},
		{app.CodeOverLimit, nil, send(http.MethodPost, "/v1/documents", e.Admin, map[string]any{"title": "A finding", "type": "finding", "links": manyLinks(taskRef, 101)})},
		{app.CodeInstantOutOfRange, nil, send(http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "x", "due_at": "9999-12-31T23:59:59-23:59"})},
		{app.CodeNothingReady, func() { e.tskProject("empty", "") }, send(http.MethodPost, "/v1/tasks/next/claim?project=empty", e.Admin, nil)},
		{app.CodeLengthRequired, nil, raw(http.MethodPost, "/v1/users", "application/json", io.MultiReader(strings.NewReader(`{"username":"chunked"}`)))},
		{app.CodeRecurrence, nil, send(http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "x", "repeat": "every blue moon"})},
		{app.CodeNotRepeating, nil, send(http.MethodPost, task+"/skip", e.Admin, nil)},
		{app.CodeAppliesToRequired, nil, send(http.MethodPatch, repeating, e.Admin, map[string]any{"title": "x"})},
		{app.CodeAppliesToNotRepeating, nil, send(http.MethodPatch, task, e.Admin, map[string]any{"title": "y", "applies_to": "this_one"})},
		{app.CodeCalendarWider, nil, send(http.MethodPost, "/v1/calendars", issuer, map[string]any{})},
		{app.CodeCalendarUnusable, func() {
			e.OK(http.StatusOK, http.MethodDelete, "/v1/calendars/"+vals["spare_calendar"], e.Admin, nil)
		}, send(http.MethodPost, "/v1/calendars/"+vals["spare_calendar"]+"/reset", e.Admin, nil)},
		{app.CodeLoginLinkNarrowed, nil, send(http.MethodPost, "/v1/login-links", narrow, map[string]any{})},
		{app.CodeNotASession, nil, send(http.MethodDelete, "/v1/session", e.Admin, nil)},
		{app.CodeNotStandby, nil, send(http.MethodPost, "/v1/admin/promote", e.Admin, nil)},
		{app.CodeCrossOrigin, nil, func() webtest.Response {
			return e.Browser(http.MethodDelete, "/v1/session", vals["session"], "https://evil.example", nil)
		}},
		{app.CodeTokenScopeIncomplete, nil, send(http.MethodPost, "/v1/tokens", e.Admin, map[string]any{"scopes": []string{"item:read"}})},
		{app.CodeNotAMember, func() {
			e.account(map[string]any{"username": "alice"})
		}, send(http.MethodPost, "/v1/tokens", e.Admin, map[string]any{"username": "claude", "answers_to": "alice", "workspace": "default"})},
		{app.CodeTaskClosed, func() {
			e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+vals["page_task"]+"/complete", e.Admin, nil)
		}, send(http.MethodPost, "/v1/tasks/"+vals["page_task"]+"/claim", e.Admin, nil)},
		{app.CodeNotInTrash, nil, send(http.MethodPost, task+"/purge", e.Admin, nil)},
		{app.CodeTokenWorkspaceWider, func() {
			e.credWorkspace("w2")
		}, send(http.MethodPost, "/v1/tokens", issuer, map[string]any{"workspace": "w2"})},
		{app.CodeWorkspaceRequired, nil, send(http.MethodGet, "/v1/tasks", e.Admin, nil)},
		{app.CodeAuthorizationPending, startDevice, poll},
		{app.CodeSlowDown, nil, poll},
		{app.CodeAccessDenied, func() {
			startDevice()
			e.Browser(http.MethodPost, "/device", vals["session"], "", url.Values{"user_code": {device["user_code"]}, "decision": {"deny"}})
		}, poll},
		{app.CodeInvalidGrant, nil, send(http.MethodPost, "/v1/auth/device/token", "", map[string]any{"device_code": "tend_aaaaaaaaaa_" + strings.Repeat("a", 40)})},
		{app.CodeInviteUnusable, nil, send(http.MethodPost, "/v1/invites/accept", "", map[string]any{"invite": "tend_aaaaaaaaaa_" + strings.Repeat("a", 40), "username": "newcomer", "timezone": "UTC"})},
		{app.CodeUsernameTaken, func() { _, invite["secret"] = e.invite(e.Admin, map[string]any{"role": "member"}) }, func() webtest.Response {
			return e.Do(http.MethodPost, "/v1/invites/accept", "", map[string]any{"invite": invite["secret"], "username": "ann", "timezone": "UTC"})
		}},
		{app.CodePasskeyNeedsSession, nil, send(http.MethodPost, "/v1/me/passkeys/options", ann, nil)},
		{app.CodePasskeyUnavailable, nil, send(http.MethodPost, "/v1/passkeys/signin/options", "", nil)},
		{app.CodePasskeyInvalid, nil, func() webtest.Response {
			return passkeyDo(e, http.MethodPost, "/v1/passkeys/signin", "", map[string]any{"challenge_id": "tend_aaaaaaaaaa_" + strings.Repeat("a", 40), "credential": map[string]any{}})
		}},
		// Last: it moves the clock on past the device code's ten minutes.
		{app.CodeExpiredToken, func() { startDevice(); e.Clock.Advance(app.DeviceCodeLifetime) }, poll},
	}

	var provoked []app.Code
	for _, c := range cases {
		provoked = append(provoked, c.code)
		t.Run(string(c.code), func(t *testing.T) {
			if c.setup != nil {
				c.setup()
			}
			r := c.send()
			webtest.AssertProblem(t, r, r.Status, string(c.code))
			goldenJSON(t, "problems/"+string(c.code)+".golden", routeStable(r.Body, vals))
		})
	}
	for _, code := range app.AllCodes {
		_, why := problemsUnanswered[code]
		if has := slices.Contains(provoked, code); has == why {
			t.Errorf("code %s: want either a request in TestProblemGoldens or a reason in problemsUnanswered, not both or neither", code)
		}
	}
}
