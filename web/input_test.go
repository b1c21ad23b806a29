package web_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"tend/app"
)

// TestInstantsOutOfRange: every time that comes in is one tend can store,
// from 1970 to the end of 9999 (UTC), or the request is refused naming it.
func TestInstantsOutOfRange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	task := e.CreateTask(e.Admin, map[string]any{"title": "dated"})
	outside := []string{"9999-12-31T23:59:59-23:59", "0000-01-01T00:00:00+01:00", "1969-12-31T23:59:59Z", "10000-01-01T00:00:00Z"}

	t.Run("task bodies", func(t *testing.T) {
		e := e.sub(t)
		for _, v := range outside[:3] {
			for _, field := range []string{"due_at", "starts_at"} {
				p := e.Problem(http.StatusUnprocessableEntity, "instant_out_of_range", http.MethodPost, "/v1/tasks", e.Admin,
					map[string]any{"title": "x", field: v})
				assertLoc(t, p, "body."+field)
			}
			for _, field := range []string{"due_at", "starts_at", "snoozed_until"} {
				p := e.Problem(http.StatusUnprocessableEntity, "instant_out_of_range", http.MethodPatch, tskPath(task), e.Admin,
					map[string]any{field: v})
				assertLoc(t, p, "body."+field)
			}
		}
		last := e.CreateTask(e.Admin, map[string]any{"title": "at the edge", "due_at": "9999-12-31T23:59:59Z", "starts_at": "1970-01-01T00:00:00Z"})
		if last["due_at"] != "9999-12-31T23:59:59Z" || last["starts_at"] != "1970-01-01T00:00:00Z" {
			t.Fatalf("the edges of the range read back as %v and %v", last["due_at"], last["starts_at"])
		}
		got := e.OK(http.StatusOK, http.MethodGet, tskPath(last), e.Admin, nil)
		if got["due_at"] != "9999-12-31T23:59:59Z" {
			t.Fatalf("stored as %v", got["due_at"])
		}
	})
	t.Run("token expiry", func(t *testing.T) {
		e := e.sub(t)
		for _, v := range outside[:2] {
			p := e.Problem(http.StatusUnprocessableEntity, "instant_out_of_range", http.MethodPost, "/v1/tokens", e.Admin, map[string]any{"expires_at": v})
			assertLoc(t, p, "body.expires_at")
		}
	})
	t.Run("a malformed time names its field", func(t *testing.T) {
		e := e.sub(t)
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "x", "due_at": "next tuesday"})
		assertLoc(t, p, "body.due_at")
		p = e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, tskPath(task), e.Admin, map[string]any{"snoozed_until": "soon"})
		assertLoc(t, p, "body.snoozed_until")
		p = e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tasks", e.Admin, `{"title": "x", "due_at": "10000-01-01T00:00:00Z"}`)
		assertLoc(t, p, "body.due_at")
		p = e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, tskPath(task), e.Admin, map[string]any{"title": 5})
		assertLoc(t, p, "body.title")
	})
	t.Run("filters", func(t *testing.T) {
		e := e.sub(t)
		for _, c := range []struct{ path, param string }{
			{"/v1/tasks", "due_before"}, {"/v1/tasks", "due_after"},
			{"/v1/changes", "created_at.gte"}, {"/v1/changes", "created_at.lt"},
			{"/v1/journal", "created_at.gt"}, {"/v1/journal", "created_at.lte"},
		} {
			for _, v := range []string{"0000-01-01", "9999-12-31T23:59:59-23:59"} {
				p := e.Problem(http.StatusUnprocessableEntity, "instant_out_of_range", http.MethodGet,
					c.path+"?"+url.Values{c.param: {v}}.Encode(), e.Admin, nil)
				assertLoc(t, p, "query."+c.param)
			}
		}
	})
	t.Run("cursors", func(t *testing.T) {
		e := e.sub(t)
		for i := 0; i < 3; i++ {
			e.CreateTask(e.Admin, map[string]any{"title": "more", "due_at": "2027-01-01T00:00:00Z"})
		}
		page := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?order=due_at&limit=1", e.Admin, nil)["page"].(map[string]any)
		cursor := page["next_cursor"].(string)
		craft := func(value any) string {
			b, err := base64.RawURLEncoding.DecodeString(cursor)
			if err != nil {
				t.Fatal(err)
			}
			var w map[string]any
			if err := json.Unmarshal(b, &w); err != nil {
				t.Fatal(err)
			}
			w["k"].(map[string]any)["v"] = []any{value}
			b, _ = json.Marshal(w)
			return base64.RawURLEncoding.EncodeToString(b)
		}
		list := func(c string) string { return "/v1/tasks?order=due_at&limit=1&cursor=" + url.QueryEscape(c) }
		e.OK(http.StatusOK, http.MethodGet, list(cursor), e.Admin, nil)
		e.OK(http.StatusOK, http.MethodGet, list(craft("2027-01-01T00:00:00.000Z")), e.Admin, nil)
		p := e.Problem(http.StatusUnprocessableEntity, "instant_out_of_range", http.MethodGet, list(craft("0000-01-01T00:00:00.000Z")), e.Admin, nil)
		assertLoc(t, p, "query.cursor")
		for _, v := range []any{"tomorrow", 5, map[string]any{"a": []any{1}}, []any{"x"}, nil} {
			e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, list(craft(v)), e.Admin, nil)
		}
	})
}

// TestActionBodies: claim, release, complete and restore take no body, or
// a JSON object of their own fields; anything else is refused, not ignored.
func TestActionBodies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	task := e.CreateTask(e.Admin, map[string]any{"title": "act"})
	for _, action := range []string{"claim", "release", "complete", "restore"} {
		t.Run(action, func(t *testing.T) {
			e := e.sub(t)
			path := tskPath(task, action)
			e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path, e.Admin, "not json")
			e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path, e.Admin, "[1, 2]")
			p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path, e.Admin, map[string]any{"note": "x"})
			assertLoc(t, p, "body.note")
			e.Problem(http.StatusRequestEntityTooLarge, "too_large", http.MethodPost, path, e.Admin, `"`+strings.Repeat("x", 2<<20)+`"`)
			if action == "restore" {
				return
			}
			e.OK(http.StatusOK, http.MethodPost, path, e.Admin, nil)
			e.OK(http.StatusOK, http.MethodPost, path, e.Admin, map[string]any{})
		})
	}
	t.Run("an empty body with another content type", func(t *testing.T) {
		r, err := e.credSend(http.MethodPost, tskPath(task, "release"), map[string]string{"Authorization": "Bearer " + e.Admin,
			"Content-Type": "application/x-www-form-urlencoded"}, "")
		if err != nil || r.Status != http.StatusOK {
			t.Fatalf("status %d, err %v: %s", r.Status, err, r.Body)
		}
	})
	t.Run("claim minutes in the body", func(t *testing.T) {
		e := e.sub(t)
		open := e.CreateTask(e.Admin, map[string]any{"title": "claimable"})
		got := e.OK(http.StatusOK, http.MethodPost, tskPath(open, "claim"), e.Admin, map[string]any{"minutes": 5})
		from, err1 := time.Parse(time.RFC3339, got["claimed_at"].(string))
		until, err2 := time.Parse(time.RFC3339, got["claim_expires_at"].(string))
		if err1 != nil || err2 != nil || until.Sub(from) != 5*time.Minute {
			t.Fatalf("minutes in the body: claimed %v until %v", got["claimed_at"], got["claim_expires_at"])
		}
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, tskPath(open, "claim")+"?minutes=5", e.Admin, map[string]any{"minutes": 6})
		assertLoc(t, p, "body.minutes")
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, tskPath(open, "claim"), e.Admin, map[string]any{"minutes": 0})
	})
}

// TestNULRefused: U+0000 is refused in every text a body or query carries,
// naming where it was.
func TestNULRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	task := e.CreateTask(e.Admin, map[string]any{"title": "clean"})
	cases := []struct {
		method, path string
		body         map[string]any
		loc          string
	}{
		{http.MethodPost, "/v1/tasks", map[string]any{"title": "a\x00b"}, "body.title"},
		{http.MethodPost, "/v1/tasks", map[string]any{"title": "t", "description": "x\x00"}, "body.description"},
		{http.MethodPost, "/v1/tasks", map[string]any{"title": "t", "tags": []string{"ok", "b\x00d"}}, "body.tags"},
		{http.MethodPatch, tskPath(task), map[string]any{"title": "\x00"}, "body.title"},
		{http.MethodPost, tskPath(task, "comments"), map[string]any{"body": "said\x00"}, "body.body"},
		{http.MethodPost, "/v1/documents", map[string]any{"title": "d", "body": "\x00"}, "body.body"},
		{http.MethodPatch, "/v1/users/admin", map[string]any{"display_name": "Ad\x00min"}, "body.display_name"},
		{http.MethodPost, "/v1/projects", map[string]any{"key": "p", "title": "P\x00"}, "body.title"},
		{http.MethodPatch, "/v1/workspaces/default", map[string]any{"name": "W\x00"}, "body.name"},
	}
	for _, c := range cases {
		p := e.Problem(http.StatusUnprocessableEntity, "validation", c.method, c.path, e.Admin, c.body)
		assertLoc(t, p, c.loc)
	}
	p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?q=a%00b", e.Admin, nil)
	assertLoc(t, p, "query.q")
	if got := e.OK(http.StatusOK, http.MethodGet, tskPath(task), e.Admin, nil); got["title"] != "clean" {
		t.Fatalf("title %v", got["title"])
	}
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, `{"title": "a literal \\u0000 is six characters"}`)
}

// TestTagsDisclosure: GET /v1/tags and meta's tags leave out a tag used
// only on items the caller cannot see, in pages, totals and cursors alike;
// a tag used nowhere is the workspace's vocabulary and stays listed.
func TestTagsDisclosure(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.Member("alice", "member")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "secret", "title": "Secret", "visibility": "private"})
	e.CreateTask(e.Admin, map[string]any{"title": "hidden", "project": "secret", "tags": []string{"hush", "both"}})
	e.CreateTask(e.Admin, map[string]any{"title": "open", "tags": []string{"both", "plain"}})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tags", e.Admin, map[string]any{"name": "vocab"})
	narrowed := e.Issue(e.Admin, map[string]any{"project_scope": []string{"default/inbox"}})["token"].(string)

	names := func(t *testing.T, token string, limit int) ([]string, float64) {
		var out []string
		var total float64
		path := "/v1/tags?include_total=true&limit=" + itoa(limit)
		for {
			r := e.sub(t).OK(http.StatusOK, http.MethodGet, path, token, nil)
			for _, it := range r["items"].([]any) {
				out = append(out, it.(map[string]any)["name"].(string))
			}
			page := r["page"].(map[string]any)
			total = page["total"].(float64)
			if page["has_more"] != true {
				return out, total
			}
			path = "/v1/tags?include_total=true&limit=" + itoa(limit) + "&cursor=" + url.QueryEscape(page["next_cursor"].(string))
		}
	}
	for _, c := range []struct {
		who   string
		token string
		want  []string
	}{
		{"the owner", e.Admin, []string{"both", "hush", "plain", "vocab"}},
		{"a member without sight", alice, []string{"both", "plain", "vocab"}},
		{"a narrowed credential", narrowed, []string{"both", "plain", "vocab"}},
	} {
		t.Run(c.who, func(t *testing.T) {
			for _, limit := range []int{1, 50} {
				got, total := names(t, c.token, limit)
				if !reflect.DeepEqual(got, c.want) || total != float64(len(c.want)) {
					t.Fatalf("limit %d: tags %v (total %v), want %v", limit, got, total, c.want)
				}
			}
			meta := e.sub(t).OK(http.StatusOK, http.MethodGet, "/v1/meta", c.token, nil)["tags"].(map[string]any)
			if got := credStrings(t, meta["names"]); !reflect.DeepEqual(got, c.want) || meta["total"] != float64(len(c.want)) {
				t.Fatalf("meta tags %v", meta)
			}
		})
	}
	t.Run("the change feed names a tag only to readers of the item it was made on", func(t *testing.T) {
		for _, c := range []struct {
			who, token string
			hush       bool
		}{{"the owner", e.Admin, true}, {"a member without sight", alice, false}, {"a narrowed credential", narrowed, false}} {
			for _, route := range []string{"/v1/changes?limit=500", "/v1/journal?limit=500"} {
				body := string(e.sub(t).Do(http.MethodGet, route, c.token, nil).Body)
				if strings.Contains(body, "hush") != c.hush {
					t.Errorf("%s: %s names hush: %v, want %v", c.who, route, !c.hush, c.hush)
				}
				if !strings.Contains(body, "vocab") {
					t.Errorf("%s: %s lacks the declared tag vocab", c.who, route)
				}
			}
		}
	})
	t.Run("declaring a tag used only where the caller cannot see answers as a new tag", func(t *testing.T) {
		e := e.sub(t)
		got := e.OK(http.StatusCreated, http.MethodPost, "/v1/tags", alice, map[string]any{"name": "hush", "description": "quiet please"})
		if got["name"] != "hush" || got["meaning"] != "quiet please" {
			t.Fatalf("declared %v", got)
		}
		fresh := e.OK(http.StatusCreated, http.MethodPost, "/v1/tags", alice, map[string]any{"name": "brandnew", "description": "quiet please"})
		if len(got) != len(fresh) || got["id"] == nil {
			t.Fatalf("the adoption %v and a fresh tag %v differ in shape", got, fresh)
		}
		// Declared, it is vocabulary: everyone sees it now, and declaring it
		// again is the conflict anyone gets for a tag they can see.
		if names := credStrings(t, e.OK(http.StatusOK, http.MethodGet, "/v1/meta", narrowed, nil)["tags"].(map[string]any)["names"]); !slices.Contains(names, "hush") {
			t.Fatalf("the narrowed credential's tags %v lack the declared hush", names)
		}
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, "/v1/tags", alice, map[string]any{"name": "HUSH"})
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, "/v1/tags", e.Admin, map[string]any{"name": "plain"})
		task := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?q=hidden", e.Admin, nil)["items"].([]any)[0].(map[string]any)
		if !slices.Contains(credStrings(t, task["tags"]), "hush") {
			t.Fatalf("the owner's task lost its tag: %v", task["tags"])
		}
	})
	t.Run("a cursor from a wider reach is refused", func(t *testing.T) {
		r := e.sub(t).OK(http.StatusOK, http.MethodGet, "/v1/tags?limit=1", e.Admin, nil)
		c := r["page"].(map[string]any)["next_cursor"].(string)
		e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tags?limit=1&cursor="+url.QueryEscape(c), alice, nil)
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestOverLimit: every list a body carries is bounded by a limit named in
// meta, and refused beyond it with 422 over_limit naming the field.
func TestOverLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	limits := e.OK(http.StatusOK, http.MethodGet, "/v1/meta", e.Admin, nil)["limits"].(map[string]any)
	n := func(name string) int {
		v, ok := limits[name].(float64)
		if !ok || v < 1 {
			t.Fatalf("meta limits lack %s: %v", name, limits)
		}
		return int(v)
	}
	words := func(count int, prefix string) []string {
		out := make([]string, count)
		for i := range out {
			out[i] = prefix + strconv.Itoa(i)
		}
		return out
	}
	task := e.CreateTask(e.Admin, map[string]any{"title": "capped", "tags": words(n("max_tags_per_item"), "t")})
	doc := e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin, map[string]any{"title": "d"})
	other := e.CreateTask(e.Admin, map[string]any{"title": "other"})
	cases := []struct {
		name, method, path string
		body               map[string]any
		loc                string
	}{
		{"task create tags", http.MethodPost, "/v1/tasks", map[string]any{"title": "x", "tags": words(n("max_tags_per_item")+1, "t")}, "body.tags"},
		{"task update tags", http.MethodPatch, tskPath(task), map[string]any{"tags": words(n("max_tags_per_item")+1, "t")}, "body.tags"},
		{"document create tags", http.MethodPost, "/v1/documents", map[string]any{"title": "x", "tags": words(n("max_tags_per_item")+1, "t")}, "body.tags"},
		{"document update tags", http.MethodPatch, "/v1/documents/" + itoa(int(doc["ref"].(float64))), map[string]any{"tags": words(n("max_tags_per_item")+1, "t")}, "body.tags"},
		{"token scopes", http.MethodPost, "/v1/tokens", map[string]any{"scopes": slicesRepeat("item:read", n("max_credential_scopes")+1)}, "body.scopes"},
		{"token projects", http.MethodPost, "/v1/tokens", map[string]any{"project_scope": words(n("max_scope_projects")+1, "p")}, "body.project_scope"},
		{"token write projects", http.MethodPost, "/v1/tokens", map[string]any{"project_write_scope": words(n("max_scope_projects")+1, "p")}, "body.project_write_scope"},
		{"hidden statuses", http.MethodPatch, "/v1/projects/inbox", map[string]any{"hidden_statuses": words(n("max_hidden_statuses")+1, "s")}, "body.hidden_statuses"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := e.sub(t).Problem(http.StatusUnprocessableEntity, "over_limit", c.method, c.path, e.Admin, c.body)
			assertLoc(t, p, c.loc)
		})
	}
	t.Run("mentions per text", func(t *testing.T) {
		var sb strings.Builder
		for i := range n("max_mentions_per_text") + 1 {
			sb.WriteString("#" + itoa(i+1) + " ")
		}
		text := sb.String()
		for _, c := range []struct{ method, path, field string }{
			{http.MethodPost, "/v1/tasks", "description"}, {http.MethodPatch, tskPath(task), "description"},
			{http.MethodPost, "/v1/documents", "body"}, {http.MethodPost, tskPath(task, "comments"), "body"},
		} {
			body := map[string]any{c.field: text}
			if c.method == http.MethodPost && c.path != tskPath(task, "comments") {
				body["title"] = "x"
			}
			p := e.sub(t).Problem(http.StatusUnprocessableEntity, "over_limit", c.method, c.path, e.Admin, body)
			assertLoc(t, p, "body."+c.field)
		}
	})
	t.Run("tag length", func(t *testing.T) {
		p := e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tasks", e.Admin,
			map[string]any{"title": "x", "tags": []string{strings.Repeat("a", n("max_tag_length")+1)}})
		assertLoc(t, p, "body.tags")
		e.sub(t).CreateTask(e.Admin, map[string]any{"title": "x", "tags": []string{strings.Repeat("a", n("max_tag_length"))}})
	})
	t.Run("description length", func(t *testing.T) {
		p := e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tasks", e.Admin,
			map[string]any{"title": "x", "description": strings.Repeat("a", n("max_description_length")+1)})
		assertLoc(t, p, "body.description")
	})
	t.Run("links per request", func(t *testing.T) {
		max := n("max_links_per_request")
		var refs []string
		for range max + 1 {
			refs = append(refs, itoa(int(e.sub(t).CreateTask(e.Admin, map[string]any{"title": "end"})["ref"].(float64))))
		}
		ls := app.LinkSet{Entity: "task", Refs: []string{itoa(int(other["ref"].(float64)))}, LinkType: "relates_to", Others: refs}
		_, err := e.Svc.AddLinks(context.Background(), adminActor(t, e), "", ls)
		if app.CodeOf(err) != app.CodeOverLimit {
			t.Fatalf("%d links: %v, want over_limit", len(refs), err)
		}
		ls.Others = refs[:max]
		made, err := e.Svc.AddLinks(context.Background(), adminActor(t, e), "", ls)
		if err != nil || len(made) != max {
			t.Fatalf("%d links: made %d, %v", max, len(made), err)
		}
		ls.Refs, ls.LinkType, ls.Others = refs[:2], "blocks", []string{itoa(int(task["ref"].(float64))), itoa(int(other["ref"].(float64)))}
		if made, err = e.Svc.AddLinks(context.Background(), adminActor(t, e), "", ls); err != nil || len(made) != 4 {
			t.Fatalf("2 x 2 links: made %d, %v", len(made), err)
		}
	})
}

func slicesRepeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func adminActor(t *testing.T, e *env) app.Actor {
	t.Helper()
	a, err := e.Svc.Authenticate(context.Background(), e.Admin, "test")
	if err != nil {
		t.Fatal(err)
	}
	return a
}
