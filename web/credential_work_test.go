package web_test

import (
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// memberRole is username's role in the default workspace, "" when not a member.
func (e *env) memberRole(username string) string {
	e.t.Helper()
	for _, it := range e.ok(http.StatusOK, http.MethodGet, "/v1/workspaces/default/members", e.admin, nil)["items"].([]any) {
		m := it.(map[string]any)
		if m["user"].(map[string]any)["username"] == username {
			return m["role"].(string)
		}
	}
	return ""
}

// TestPinnedAgentCredentialWorks is issue 19's first finding: the README
// created alice, then a token for her agent claude pinned to default with
// item scopes, and the agent answered 404 "no such workspace" on every
// call, then (with membership) saw an empty world. An agent's credential
// pinned to a workspace now leaves the agent able to work there, or is
// refused saying what to do first; item scopes without project:read are
// refused saying what to add.
func TestPinnedAgentCredentialWorks(t *testing.T) {
	e := newEnv(t)
	e.account(map[string]any{"username": "alice", "timezone": "Europe/Berlin"})
	claude := map[string]any{"username": "claude", "answers_to": "alice", "scopes": []string{"project:read", "item:read", "item:write"}, "workspace": "default"}

	t.Run("the person is not a member yet: refused, naming what to do, nothing created", func(t *testing.T) {
		e := e.credT(t)
		p := e.problem(http.StatusConflict, "not_a_member", http.MethodPost, "/v1/tokens", e.admin, claude)
		d, _ := p["detail"].(string)
		if !strings.Contains(d, "alice") || !strings.Contains(d, "POST /v1/workspaces/default/members") {
			t.Fatalf("the refusal does not say to add alice first: %q", d)
		}
		e.problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/users/claude", e.admin, nil)
	})
	t.Run("item scopes without project:read: refused, naming what to add", func(t *testing.T) {
		e := e.credT(t)
		for _, scopes := range [][]string{{"item:read", "item:write"}, {"item:read"}, {"item:write", "project:read"}, {"project:write"}} {
			body := map[string]any{"username": "claude", "answers_to": "alice", "scopes": scopes, "workspace": "default"}
			p := e.problem(http.StatusUnprocessableEntity, "token_scope_incomplete", http.MethodPost, "/v1/tokens", e.admin, body)
			d := p["detail"].([]any)[0].(map[string]any)
			if !reflect.DeepEqual(d["loc"], []any{"body", "scopes"}) || !strings.Contains(d["msg"].(string), "add ") {
				t.Fatalf("scopes %v: detail %v", scopes, d)
			}
		}
		p := e.problem(http.StatusUnprocessableEntity, "token_scope_incomplete", http.MethodPost, "/v1/tokens", e.admin,
			map[string]any{"scopes": []string{"item:read", "item:write"}})
		if msg := p["detail"].([]any)[0].(map[string]any)["msg"].(string); !strings.Contains(msg, `add "project:read"`) {
			t.Fatalf("the README's old scopes are refused with %q; want it to name project:read", msg)
		}
	})

	e.join("alice", "member")
	issued := e.issue(e.admin, claude)
	agent := issued["token"].(string)

	t.Run("the new agent joins as its person's agent and works", func(t *testing.T) {
		e := e.credT(t)
		if issued["account_created"] != true {
			t.Fatalf("account_created %v", issued["account_created"])
		}
		if r := e.memberRole("claude"); r != "member" {
			t.Fatalf("claude's role in default is %q, want member (alice's)", r)
		}
		e.ok(http.StatusCreated, http.MethodPost, "/v1/projects", e.admin, map[string]any{"key": "web", "title": "Web"})
		task := e.ok(http.StatusCreated, http.MethodPost, "/v1/tasks", agent, map[string]any{"title": "Read the contract", "project": "web"})
		if task["project_path"] != "web" {
			t.Fatalf("created %v", task)
		}
		e.ok(http.StatusCreated, http.MethodPost, "/v1/tasks", agent, map[string]any{"text": "Water the plants"})
		items := e.ok(http.StatusOK, http.MethodGet, "/v1/tasks", agent, nil)["items"].([]any)
		if len(items) != 2 {
			t.Fatalf("the agent lists %d tasks, want the 2 it made", len(items))
		}
		var keys []string
		for _, it := range e.ok(http.StatusOK, http.MethodGet, "/v1/projects", agent, nil)["items"].([]any) {
			keys = append(keys, it.(map[string]any)["key"].(string))
		}
		if !slices.Contains(keys, "web") || !slices.Contains(keys, "inbox") {
			t.Fatalf("the agent sees projects %v", keys)
		}
		e.ok(http.StatusOK, http.MethodPost, "/v1/tasks/"+itoaRef(task["ref"])+"/claim", agent, nil)
		e.problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/projects", agent, map[string]any{"key": "x", "title": "X"})
	})
	t.Run("another credential for the agent, now a member, changes nothing", func(t *testing.T) {
		e := e.credT(t)
		e.issue(e.admin, map[string]any{"username": "claude", "scopes": []string{"project:read", "item:read"}, "workspace": "default"})
		if r := e.memberRole("claude"); r != "member" {
			t.Fatalf("claude's role %q", r)
		}
	})
	t.Run("the role is the person's, never above member", func(t *testing.T) {
		e := e.credT(t)
		e.account(map[string]any{"username": "vera"})
		e.join("vera", "viewer")
		e.account(map[string]any{"username": "olga"})
		e.join("olga", "owner")
		reader := e.issue(e.admin, map[string]any{"username": "vera-bot", "answers_to": "vera", "workspace": "default"})["token"].(string)
		e.issue(e.admin, map[string]any{"username": "olga-bot", "answers_to": "olga", "workspace": "default"})
		if r := e.memberRole("vera-bot"); r != "viewer" {
			t.Fatalf("a viewer's agent joined as %q", r)
		}
		if r := e.memberRole("olga-bot"); r != "member" {
			t.Fatalf("an owner's agent joined as %q, want member", r)
		}
		e.ok(http.StatusOK, http.MethodGet, "/v1/tasks", reader, nil)
		e.problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/tasks", reader, map[string]any{"title": "x"})
	})
	t.Run("an existing agent that is not a member joins too", func(t *testing.T) {
		e := e.credT(t)
		e.agentOf("scout", "alice")
		tok := e.issue(e.admin, map[string]any{"username": "scout", "workspace": "default"})["token"].(string)
		if r := e.memberRole("scout"); r != "member" {
			t.Fatalf("scout's role %q", r)
		}
		e.ok(http.StatusCreated, http.MethodPost, "/v1/tasks", tok, map[string]any{"title": "scouted"})
	})
	t.Run("a person who is not a member: refused", func(t *testing.T) {
		e := e.credT(t)
		e.account(map[string]any{"username": "carol"})
		p := e.problem(http.StatusConflict, "not_a_member", http.MethodPost, "/v1/tokens", e.admin, map[string]any{"username": "carol", "workspace": "default"})
		if d := p["detail"].(string); !strings.Contains(d, "carol") {
			t.Fatalf("detail %q", d)
		}
		// Nor may an administrator pin its own credential where it is no member.
		e.ok(http.StatusCreated, http.MethodPost, "/v1/workspaces", e.person("dora"), map[string]any{"slug": "doras", "name": "Dora's"})
		e.problem(http.StatusConflict, "not_a_member", http.MethodPost, "/v1/tokens", e.admin, map[string]any{"workspace": "doras"})
	})
	t.Run("an issuer who may not add members cannot make the agent one", func(t *testing.T) {
		e := e.credT(t)
		narrow := e.issue(e.admin, map[string]any{"scopes": []string{"instance:user_create", "project:read", "item:read"}})["token"].(string)
		e.problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/tokens", narrow,
			map[string]any{"username": "sneaky", "answers_to": "alice", "scopes": []string{"project:read", "item:read"}, "workspace": "default"})
		e.problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/users/sneaky", e.admin, nil)
		if r := e.memberRole("sneaky"); r != "" {
			t.Fatalf("a refused issue left a member %q", r)
		}
	})
	t.Run("answers_to naming somebody else is refused, naming both", func(t *testing.T) {
		e := e.credT(t)
		e.account(map[string]any{"username": "bob"})
		p := e.problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tokens", e.admin, map[string]any{"username": "claude", "answers_to": "bob"})
		if msg := p["detail"].([]any)[0].(map[string]any)["msg"].(string); !strings.Contains(msg, "alice") || !strings.Contains(msg, "bob") {
			t.Fatalf("msg %q; want it to name alice and bob", msg)
		}
	})
	t.Run("meta names what each scope needs", func(t *testing.T) {
		e := e.credT(t)
		needs := map[string][]string{}
		for _, p := range e.ok(http.StatusOK, http.MethodGet, "/v1/meta", e.admin, nil)["permissions"].([]any) {
			m := p.(map[string]any)
			needs[m["name"].(string)] = credStrings(t, m["needs"])
		}
		want := map[string][]string{"item:read": {"project:read"}, "item:write": {"item:read", "project:read"}, "project:write": {"project:read"}}
		for name, n := range needs {
			if !reflect.DeepEqual(n, want[name]) {
				t.Errorf("%s needs %v, want %v", name, n, want[name])
			}
		}
	})
}

// TestSignOutEverywhereNeedsAccountWrite: signing one's own account out of
// every browser is a change to the account, like its name or timezone, so
// a narrowed credential without account:write is refused.
func TestSignOutEverywhereNeedsAccountWrite(t *testing.T) {
	e := newEnv(t)
	bob := e.person("bob")
	e.join("bob", "member")
	link := e.mintLink(bob, nil)
	reader := e.issue(bob, map[string]any{"scopes": []string{"project:read", "item:read"}})["token"].(string)
	e.problem(http.StatusForbidden, "credential_narrowed", http.MethodPost, "/v1/users/bob/signout", reader, nil)
	pinned := e.issue(bob, map[string]any{"workspace": "default"})["token"].(string)
	e.problem(http.StatusForbidden, "credential_narrowed", http.MethodPost, "/v1/users/bob/signout", pinned, nil)
	// The link was not revoked by the refusals.
	e.signIn(link)
	account := e.issue(bob, map[string]any{"scopes": []string{"account:write"}})["token"].(string)
	out := e.ok(http.StatusOK, http.MethodPost, "/v1/users/bob/signout", account, nil)
	if out["sessions"] != float64(1) {
		t.Fatalf("signed out %v, want the one session", out)
	}
}

// TestCalendarFeedEndsWithItsCredential: a feed is a grant the credential
// that created it made, so revoking the credential ends the feed, as its
// expiry always did; feeds made with other credentials go on.
func TestCalendarFeedEndsWithItsCredential(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice")
	e.join("alice", "member")
	phone := e.issue(alice, map[string]any{"title": "phone"})
	gone, feed := e.calendar(phone["token"].(string), map[string]any{"title": "on the phone"})
	kept, other := e.calendar(alice, map[string]any{"title": "kept"})
	for _, u := range []string{gone, kept} {
		if r := e.fetchFeed(u, nil); r.Status != http.StatusOK {
			t.Fatalf("a new feed answers %d", r.Status)
		}
	}
	e.ok(http.StatusOK, http.MethodDelete, "/v1/tokens/"+phone["prefix"].(string), alice, nil)
	assertProblem(t, e.fetchFeed(gone, nil).response, http.StatusNotFound, "not_found")
	if r := e.fetchFeed(kept, nil); r.Status != http.StatusOK {
		t.Fatalf("the feed of a credential still in use answers %d", r.Status)
	}
	usable := map[string]bool{}
	for _, it := range e.ok(http.StatusOK, http.MethodGet, "/v1/calendars", alice, nil)["items"].([]any) {
		c := it.(map[string]any)
		usable[c["id"].(string)] = c["usable"] == true && c["revoked_at"] == nil
	}
	if usable[feed["id"].(string)] || !usable[other["id"].(string)] {
		t.Fatalf("after revoking the phone's credential, usable feeds: %v", usable)
	}
	e.problem(http.StatusConflict, "calendar_unusable", http.MethodPost, "/v1/calendars/"+feed["id"].(string)+"/reset", alice, nil)
	e.ok(http.StatusOK, http.MethodDelete, "/v1/tokens/"+phone["prefix"].(string), alice, nil)
}

// TestClaimClosedTask: a task that is done or cancelled has no work left to
// claim; over HTTP and over MCP (service_claim calls the same method) the
// claim is refused with task_closed and the task is left as it was.
func TestClaimClosedTask(t *testing.T) {
	e := newEnv(t)
	done := e.taskRef(e.admin, map[string]any{"title": "finished"})
	cancelled := e.taskRef(e.admin, map[string]any{"title": "dropped"})
	e.ok(http.StatusOK, http.MethodPost, "/v1/tasks/"+strconv.Itoa(done)+"/complete", e.admin, nil)
	e.ok(http.StatusOK, http.MethodPatch, "/v1/tasks/"+strconv.Itoa(cancelled), e.admin, map[string]any{"status": "cancelled"})
	for _, ref := range []int{done, cancelled} {
		path := "/v1/tasks/" + strconv.Itoa(ref)
		before := e.ok(http.StatusOK, http.MethodGet, path, e.admin, nil)
		p := e.problem(http.StatusConflict, "task_closed", http.MethodPost, path+"/claim?minutes=30", e.admin, nil)
		if d, _ := p["detail"].(string); !strings.Contains(d, "#"+strconv.Itoa(ref)) {
			t.Fatalf("detail %q does not name the task", d)
		}
		after := e.ok(http.StatusOK, http.MethodGet, path, e.admin, nil)
		if after["version"] != before["version"] || after["claimed_by"] != nil {
			t.Fatalf("a refused claim changed the task: %v", after)
		}
	}
	m := e.connect(t, e.admin, eraStateless)
	for _, ref := range []int{done, cancelled} {
		m.refused("task_closed", "service_claim", map[string]any{"ref": ref})
	}
	// Reopened, it may be claimed again.
	e.ok(http.StatusOK, http.MethodPatch, "/v1/tasks/"+strconv.Itoa(done), e.admin, map[string]any{"status": "todo"})
	e.ok(http.StatusOK, http.MethodPost, "/v1/tasks/"+strconv.Itoa(done)+"/claim", e.admin, nil)
}
