package web_test

import (
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tend/web/webtest"
)

// memberRole is username's role in the default workspace, "" when not a member.
func (e *env) memberRole(username string) string {
	e.T.Helper()
	for _, it := range e.OK(http.StatusOK, http.MethodGet, "/v1/workspaces/default/members", e.Admin, nil)["items"].([]any) {
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
	t.Parallel()
	e := newEnv(t)
	e.account(map[string]any{"username": "alice", "timezone": "Europe/Berlin"})
	claude := map[string]any{"username": "claude", "answers_to": "alice", "scopes": []string{"project:read", "item:read", "item:write"}, "workspace": "default"}

	t.Run("the person is not a member yet: refused, naming what to do, nothing created", func(t *testing.T) {
		e := e.sub(t)
		p := e.Problem(http.StatusConflict, "not_a_member", http.MethodPost, "/v1/tokens", e.Admin, claude)
		d, _ := p["detail"].(string)
		if !strings.Contains(d, "alice") || !strings.Contains(d, "POST /v1/workspaces/default/members") {
			t.Fatalf("the refusal does not say to add alice first: %q", d)
		}
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/users/claude", e.Admin, nil)
	})
	t.Run("item scopes without project:read: refused, naming what to add", func(t *testing.T) {
		e := e.sub(t)
		for _, scopes := range [][]string{{"item:read", "item:write"}, {"item:read"}, {"item:write", "project:read"}, {"project:write"}} {
			body := map[string]any{"username": "claude", "answers_to": "alice", "scopes": scopes, "workspace": "default"}
			p := e.Problem(http.StatusUnprocessableEntity, "token_scope_incomplete", http.MethodPost, "/v1/tokens", e.Admin, body)
			d := p["detail"].([]any)[0].(map[string]any)
			if !reflect.DeepEqual(d["loc"], []any{"body", "scopes"}) || !strings.Contains(d["msg"].(string), "add ") {
				t.Fatalf("scopes %v: detail %v", scopes, d)
			}
		}
		p := e.Problem(http.StatusUnprocessableEntity, "token_scope_incomplete", http.MethodPost, "/v1/tokens", e.Admin,
			map[string]any{"scopes": []string{"item:read", "item:write"}})
		if msg := p["detail"].([]any)[0].(map[string]any)["msg"].(string); !strings.Contains(msg, `add "project:read"`) {
			t.Fatalf("the README's old scopes are refused with %q; want it to name project:read", msg)
		}
	})

	e.Join("alice", "member")
	issued := e.Issue(e.Admin, claude)
	agent := issued["token"].(string)

	t.Run("the new agent joins as its person's agent and works", func(t *testing.T) {
		e := e.sub(t)
		if issued["account_created"] != true {
			t.Fatalf("account_created %v", issued["account_created"])
		}
		if r := e.memberRole("claude"); r != "member" {
			t.Fatalf("claude's role in default is %q, want member (alice's)", r)
		}
		e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "web", "title": "Web"})
		task := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", agent, map[string]any{"title": "Read the contract", "project": "web"})
		if task["project_path"] != "web" {
			t.Fatalf("created %v", task)
		}
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", agent, map[string]any{"text": "Water the plants"})
		items := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks", agent, nil)["items"].([]any)
		if len(items) != 2 {
			t.Fatalf("the agent lists %d tasks, want the 2 it made", len(items))
		}
		var keys []string
		for _, it := range e.OK(http.StatusOK, http.MethodGet, "/v1/projects", agent, nil)["items"].([]any) {
			keys = append(keys, it.(map[string]any)["key"].(string))
		}
		if !slices.Contains(keys, "web") || !slices.Contains(keys, "inbox") {
			t.Fatalf("the agent sees projects %v", keys)
		}
		e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+itoaRef(task["ref"])+"/claim", agent, nil)
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/projects", agent, map[string]any{"key": "x", "title": "X"})
	})
	t.Run("another credential for the agent, now a member, changes nothing", func(t *testing.T) {
		e := e.sub(t)
		e.Issue(e.Admin, map[string]any{"username": "claude", "scopes": []string{"project:read", "item:read"}, "workspace": "default"})
		if r := e.memberRole("claude"); r != "member" {
			t.Fatalf("claude's role %q", r)
		}
	})
	t.Run("the role is the person's, never above member", func(t *testing.T) {
		e := e.sub(t)
		e.account(map[string]any{"username": "vera"})
		e.Join("vera", "viewer")
		e.account(map[string]any{"username": "olga"})
		e.Join("olga", "owner")
		reader := e.Issue(e.Admin, map[string]any{"username": "vera-bot", "answers_to": "vera", "workspace": "default"})["token"].(string)
		e.Issue(e.Admin, map[string]any{"username": "olga-bot", "answers_to": "olga", "workspace": "default"})
		if r := e.memberRole("vera-bot"); r != "viewer" {
			t.Fatalf("a viewer's agent joined as %q", r)
		}
		if r := e.memberRole("olga-bot"); r != "member" {
			t.Fatalf("an owner's agent joined as %q, want member", r)
		}
		e.OK(http.StatusOK, http.MethodGet, "/v1/tasks", reader, nil)
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/tasks", reader, map[string]any{"title": "x"})
	})
	t.Run("an existing agent that is not a member joins too", func(t *testing.T) {
		e := e.sub(t)
		e.agentOf("scout", "alice")
		tok := e.Issue(e.Admin, map[string]any{"username": "scout", "workspace": "default"})["token"].(string)
		if r := e.memberRole("scout"); r != "member" {
			t.Fatalf("scout's role %q", r)
		}
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", tok, map[string]any{"title": "scouted"})
	})
	t.Run("a person who is not a member: refused", func(t *testing.T) {
		e := e.sub(t)
		e.account(map[string]any{"username": "carol"})
		p := e.Problem(http.StatusConflict, "not_a_member", http.MethodPost, "/v1/tokens", e.Admin, map[string]any{"username": "carol", "workspace": "default"})
		if d := p["detail"].(string); !strings.Contains(d, "carol") {
			t.Fatalf("detail %q", d)
		}
		// Nor may an administrator pin its own credential where it is no member.
		e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces", e.Person("dora"), map[string]any{"slug": "doras", "name": "Dora's"})
		e.Problem(http.StatusConflict, "not_a_member", http.MethodPost, "/v1/tokens", e.Admin, map[string]any{"workspace": "doras"})
	})
	t.Run("an issuer who may not add members cannot make the agent one", func(t *testing.T) {
		e := e.sub(t)
		narrow := e.Issue(e.Admin, map[string]any{"scopes": []string{"instance:user_create", "project:read", "item:read"}})["token"].(string)
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/tokens", narrow,
			map[string]any{"username": "sneaky", "answers_to": "alice", "scopes": []string{"project:read", "item:read"}, "workspace": "default"})
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/users/sneaky", e.Admin, nil)
		if r := e.memberRole("sneaky"); r != "" {
			t.Fatalf("a refused issue left a member %q", r)
		}
	})
	t.Run("answers_to naming somebody else is refused, naming both", func(t *testing.T) {
		e := e.sub(t)
		e.account(map[string]any{"username": "bob"})
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tokens", e.Admin, map[string]any{"username": "claude", "answers_to": "bob"})
		if msg := p["detail"].([]any)[0].(map[string]any)["msg"].(string); !strings.Contains(msg, "alice") || !strings.Contains(msg, "bob") {
			t.Fatalf("msg %q; want it to name alice and bob", msg)
		}
	})
	t.Run("meta names what each scope needs", func(t *testing.T) {
		e := e.sub(t)
		needs := map[string][]string{}
		for _, p := range e.OK(http.StatusOK, http.MethodGet, "/v1/meta", e.Admin, nil)["permissions"].([]any) {
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
	t.Parallel()
	e := newEnv(t)
	bob := e.Member("bob", "member")
	link := e.MintLink(bob, nil)
	reader := e.Issue(bob, map[string]any{"scopes": []string{"project:read", "item:read"}})["token"].(string)
	e.Problem(http.StatusForbidden, "credential_narrowed", http.MethodPost, "/v1/users/bob/signout", reader, nil)
	pinned := e.Issue(bob, map[string]any{"workspace": "default"})["token"].(string)
	e.Problem(http.StatusForbidden, "credential_narrowed", http.MethodPost, "/v1/users/bob/signout", pinned, nil)
	// The link was not revoked by the refusals.
	e.SignIn(link)
	account := e.Issue(bob, map[string]any{"scopes": []string{"account:write"}})["token"].(string)
	out := e.OK(http.StatusOK, http.MethodPost, "/v1/users/bob/signout", account, nil)
	if out["sessions"] != float64(1) {
		t.Fatalf("signed out %v, want the one session", out)
	}
}

// TestCalendarFeedEndsWithItsCredential: a feed is a grant the credential
// that created it made, so revoking the credential ends the feed, as its
// expiry always did; feeds made with other credentials go on.
func TestCalendarFeedEndsWithItsCredential(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.Member("alice", "member")
	phone := e.Issue(alice, map[string]any{"title": "phone"})
	gone, feed := e.Calendar(phone["token"].(string), map[string]any{"title": "on the phone"})
	kept, other := e.Calendar(alice, map[string]any{"title": "kept"})
	for _, u := range []string{gone, kept} {
		if r := e.FetchFeed(u, nil); r.Status != http.StatusOK {
			t.Fatalf("a new feed answers %d", r.Status)
		}
	}
	e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+phone["prefix"].(string), alice, nil)
	webtest.AssertProblem(t, e.FetchFeed(gone, nil).Response, http.StatusNotFound, "not_found")
	if r := e.FetchFeed(kept, nil); r.Status != http.StatusOK {
		t.Fatalf("the feed of a credential still in use answers %d", r.Status)
	}
	usable := map[string]bool{}
	for _, it := range e.OK(http.StatusOK, http.MethodGet, "/v1/calendars", alice, nil)["items"].([]any) {
		c := it.(map[string]any)
		usable[c["id"].(string)] = c["usable"] == true && c["revoked_at"] == nil
	}
	if usable[feed["id"].(string)] || !usable[other["id"].(string)] {
		t.Fatalf("after revoking the phone's credential, usable feeds: %v", usable)
	}
	e.Problem(http.StatusConflict, "calendar_unusable", http.MethodPost, "/v1/calendars/"+feed["id"].(string)+"/reset", alice, nil)
	e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+phone["prefix"].(string), alice, nil)
}

// TestClaimClosedTask: a task that is done or cancelled has no work left to
// claim; over HTTP and over MCP (service_claim calls the same method) the
// claim is refused with task_closed and the task is left as it was.
func TestClaimClosedTask(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	done := e.TaskRef(e.Admin, map[string]any{"title": "finished"})
	cancelled := e.TaskRef(e.Admin, map[string]any{"title": "dropped"})
	e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+strconv.Itoa(done)+"/complete", e.Admin, nil)
	e.OK(http.StatusOK, http.MethodPatch, "/v1/tasks/"+strconv.Itoa(cancelled), e.Admin, map[string]any{"status": "cancelled"})
	for _, ref := range []int{done, cancelled} {
		path := "/v1/tasks/" + strconv.Itoa(ref)
		before := e.OK(http.StatusOK, http.MethodGet, path, e.Admin, nil)
		p := e.Problem(http.StatusConflict, "task_closed", http.MethodPost, path+"/claim?minutes=30", e.Admin, nil)
		if d, _ := p["detail"].(string); !strings.Contains(d, "#"+strconv.Itoa(ref)) {
			t.Fatalf("detail %q does not name the task", d)
		}
		after := e.OK(http.StatusOK, http.MethodGet, path, e.Admin, nil)
		if after["version"] != before["version"] || after["claimed_by"] != nil {
			t.Fatalf("a refused claim changed the task: %v", after)
		}
	}
	m := e.Connect(t, e.Admin, webtest.EraStateless)
	for _, ref := range []int{done, cancelled} {
		m.Refused("task_closed", "service_claim", map[string]any{"ref": ref})
	}
	// Reopened, it may be claimed again.
	e.OK(http.StatusOK, http.MethodPatch, "/v1/tasks/"+strconv.Itoa(done), e.Admin, map[string]any{"status": "todo"})
	e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+strconv.Itoa(done)+"/claim", e.Admin, nil)
}
