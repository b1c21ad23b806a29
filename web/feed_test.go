package web_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tend/app"
)

// feedPage is one decoded page of the feed or the journal.
type feedPage struct {
	covers  []string
	items   []map[string]any
	more    bool
	cursor  string
	total   any
	limitAt any
}

func (e *env) feed(path, token string) feedPage {
	e.T.Helper()
	m := e.OK(http.StatusOK, http.MethodGet, path, token, nil)
	p := feedPage{items: lstItems(m), covers: []string{}}
	for _, c := range m["covers"].([]any) {
		p.covers = append(p.covers, c.(string))
	}
	pg := m["page"].(map[string]any)
	p.more, p.total, p.limitAt = pg["has_more"].(bool), pg["total"], pg["limit"]
	if c, ok := pg["next_cursor"].(string); ok {
		p.cursor = c
	}
	return p
}

func TestChangesResume(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i := range 12 {
		e.prjTask(e.Admin, fmt.Sprintf("task %d", i), "")
	}
	all := e.allChanges("", e.Admin)
	if len(all) < 12 || !slices.IsSorted(seqs(all)) {
		t.Fatalf("feed from the start: %v", seqs(all))
	}

	t.Run("since is inclusive", func(t *testing.T) {
		mid := lstNum(all[5]["seq"])
		p := e.sub(t).feed(fmt.Sprintf("/v1/changes?since=%d&limit=3", mid), e.Admin)
		if got, want := seqs(p.items), seqs(all[5:8]); !reflect.DeepEqual(got, want) || !p.more || p.cursor == "" {
			t.Fatalf("since=%d: %v (more %v), want %v and more", mid, got, p.more, want)
		}
		next := e.sub(t).feed(fmt.Sprintf("/v1/changes?since=%d&limit=3&cursor=%s", mid, url.QueryEscape(p.cursor)), e.Admin)
		if got, want := seqs(next.items), seqs(all[8:11]); !reflect.DeepEqual(got, want) {
			t.Fatalf("next page %v, want %v", got, want)
		}
	})

	t.Run("without since, the newest oldest first", func(t *testing.T) {
		p := e.sub(t).feed("/v1/changes?limit=4", e.Admin)
		if got, want := seqs(p.items), seqs(all[len(all)-4:]); !reflect.DeepEqual(got, want) || !p.more {
			t.Fatalf("newest page %v (more %v), want %v and more", got, p.more, want)
		}
		back := e.sub(t).feed("/v1/changes?limit=4&cursor="+url.QueryEscape(p.cursor), e.Admin)
		if got, want := seqs(back.items), seqs(all[len(all)-8:len(all)-4]); !reflect.DeepEqual(got, want) {
			t.Fatalf("page before %v, want %v", got, want)
		}
	})

	t.Run("paging while others write", func(t *testing.T) {
		e := e.sub(t)
		start := lstNum(all[len(all)-1]["seq"])
		var wg sync.WaitGroup
		for w := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 15 {
					body := fmt.Sprintf(`{"title":"writer %d task %d"}`, w, i)
					if r := e.Do(http.MethodPost, "/v1/tasks", e.Admin, body); r.Status != http.StatusCreated {
						t.Errorf("create: %d %s", r.Status, r.Body)
					}
				}
			}()
		}
		defer wg.Wait()
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		var seen []int64
		since, last, cursor, finished := start, start, "", false
		for quiet := 0; quiet < 2; {
			// A cursor continues the query it came from, so since stays
			// put while one is followed and moves on only when resuming.
			if cursor == "" {
				since = last
			}
			path := fmt.Sprintf("/v1/changes?since=%d&limit=4", since)
			if cursor != "" {
				path += "&cursor=" + url.QueryEscape(cursor)
			}
			p := e.feed(path, e.Admin)
			got := seqs(p.items)
			if cursor == "" && len(got) > 0 && got[0] == last {
				got = got[1:] // since is inclusive: the last one seen comes again
			}
			seen = append(seen, got...)
			if len(got) > 0 {
				last = got[len(got)-1]
			}
			cursor = p.cursor
			if finished && cursor == "" && len(got) == 0 {
				quiet++
			}
			select {
			case <-done:
				finished = true
			default:
			}
		}
		var want []int64
		for _, it := range e.allChanges("", e.Admin) {
			if s := lstNum(it["seq"]); s > start {
				want = append(want, s)
			}
		}
		if len(want) != 45 || !reflect.DeepEqual(seen, want) {
			t.Fatalf("paged %d events %v\nwant %d %v", len(seen), seen, len(want), want)
		}
	})
}

func TestChangesActor(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.Member("alice", "member")
	second := e.Issue(e.Admin, map[string]any{"title": "second"})
	other := second["token"].(string)
	e.prjTask(e.Admin, "by the first token", "")
	e.prjTask(other, "by the second token", "")
	e.prjTask(other, "by the second token again", "")
	e.prjTask(alice, "by alice", "")

	mine := e.allChanges("&actor=me", other)
	if len(mine) != 2 {
		t.Fatalf("actor=me gave %d events, want the second token's 2", len(mine))
	}
	for _, it := range mine {
		if it["actor_token_id"] != second["id"] || it["action"] != "task.created" {
			t.Fatalf("actor=me gave an event of another credential: %v", it)
		}
	}
	byAlice := e.allChanges("&actor=alice", e.Admin)
	if len(byAlice) != 1 || byAlice[0]["item_title"] != "by alice" {
		t.Fatalf("actor=alice: %v", byAlice)
	}
	admin := e.allChanges("&actor=admin", alice)
	if len(admin) < 4 {
		t.Fatalf("actor=admin (every credential of the account) gave %d events", len(admin))
	}
	for _, it := range admin {
		if it["actor_user_id"] != admin[0]["actor_user_id"] {
			t.Fatalf("actor=admin mixed accounts: %v", it)
		}
	}
	j := e.feed("/v1/journal?actor=me&limit=500", alice)
	if len(j.items) != 1 || j.items[0]["actor"] != "alice" {
		t.Fatalf("journal actor=me: %v", j.items)
	}
}

func TestChangesCreatedAt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	day := func(d int) time.Time { return time.Date(2031, 3, d, 12, 0, 0, 0, time.UTC) }
	for d := 1; d <= 4; d++ {
		now := day(d)
		e.DB.Now = func() time.Time { return now }
		e.prjTask(e.Admin, fmt.Sprintf("day %d", d), "")
	}
	titles := func(query string) []string {
		var out []string
		for _, it := range e.allChanges(query, e.Admin) {
			out = append(out, it["item_title"].(string))
		}
		return out
	}
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"&created_at.gte=2031-03-02&created_at.lt=2031-03-04", []string{"day 2", "day 3"}},
		{"&created_at.gt=2031-03-02&created_at.lte=2031-03-03", []string{"day 3"}},
		{"&created_at.gt=" + day(2).Format(time.RFC3339), []string{"day 3", "day 4"}},
		{"&created_at.lte=" + day(2).Format(time.RFC3339) + "&created_at.gte=2031-03-01", []string{"day 1", "day 2"}},
		{"&created_at.lt=2031-03-01&created_at.gte=2031-02-01", nil},
	} {
		if got := titles(c.query); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.query, got, c.want)
		}
	}
	j := e.feed("/v1/journal?created_at.gte=2031-03-03&include_total=true", e.Admin)
	if len(j.items) != 2 || j.items[0]["item_title"] != "day 4" || j.total != float64(2) {
		t.Fatalf("journal range, most recent first: %v total %v", j.items, j.total)
	}
}

// TestChangesVisibility reads the feed and the journal of the disclosure
// fixture as each caller: nothing about the private project reaches those
// who cannot see it, not even the link whose far end is there; narrowed
// credentials get what they may read, never a refusal.
func TestChangesVisibility(t *testing.T) {
	t.Parallel()
	f := newDisFix(t)
	e := f.e
	secret := map[any]bool{f.project["sec"]["id"]: true, f.id("sec"): true}
	kinds := func(items []map[string]any) map[string]bool {
		out := map[string]bool{}
		for _, it := range items {
			out[it["entity_type"].(string)] = true
		}
		return out
	}
	check := func(t *testing.T, name, token string, wantCovers []string, allowed func(map[string]any) bool) {
		e := e.sub(t)
		items := e.allChanges("&include_total=true", token)
		first := e.feed("/v1/changes?since=0&limit=500&include_total=true", token)
		j := e.feed("/v1/journal?limit=500&include_total=true", token)
		if !reflect.DeepEqual(first.covers, wantCovers) || !reflect.DeepEqual(j.covers, wantCovers) {
			t.Fatalf("%s: covers %v and %v, want %v", name, first.covers, j.covers, wantCovers)
		}
		if first.total != float64(len(items)) || j.total != float64(len(items)) || len(j.items) != len(items) {
			t.Fatalf("%s: totals %v and %v for %d events, journal %d", name, first.total, j.total, len(items), len(j.items))
		}
		for _, it := range append(items, j.items...) {
			if secret[it["entity_id"]] || it["item_title"] == "sec task" || !allowed(it) {
				t.Fatalf("%s sees %v", name, it)
			}
		}
		for _, it := range items {
			if it["action"] == "link.created" {
				t.Fatalf("%s sees the link whose far end it cannot see: %v", name, it)
			}
		}
	}
	anything := func(map[string]any) bool { return true }
	t.Run("bob", func(t *testing.T) {
		check(t, "bob", f.callers["person"], []string{"project", "task", "document", "comment"}, anything)
		ks := kinds(e.allChanges("", f.callers["person"]))
		if !ks["workspace"] || !ks["project"] || !ks["task"] {
			t.Fatalf("bob should see workspace, project and task events: %v", ks)
		}
	})
	t.Run("alice sees it all", func(t *testing.T) {
		var link, sec bool
		for _, it := range e.sub(t).allChanges("", f.alice) {
			link = link || it["action"] == "link.created"
			sec = sec || it["entity_id"] == f.id("sec")
		}
		if !link || !sec {
			t.Fatalf("the owner misses her own private project's events (link %v, sec %v)", link, sec)
		}
	})
	t.Run("narrowed to pub", func(t *testing.T) {
		pub := f.project["pub"]["id"]
		pubTasks := map[any]bool{f.id("pub"): true, f.id("trashed"): true, pub: true}
		check(t, "narrowed", f.callers["narrowed token"], []string{"project", "task", "document", "comment"}, func(it map[string]any) bool {
			switch it["entity_type"] {
			case "project", "task":
				return pubTasks[it["entity_id"]]
			}
			return true
		})
	})
	t.Run("no item:read", func(t *testing.T) {
		tok := e.Issue(f.callers["person"], map[string]any{"scopes": []string{"workspace:read", "project:read"}})["token"].(string)
		check(t, "projects only", tok, []string{"project"}, func(it map[string]any) bool { return it["entity_type"] != "task" })
		if ks := kinds(e.sub(t).allChanges("", tok)); !ks["project"] || !ks["workspace"] {
			t.Fatalf("projects-only token should still get project and workspace events: %v", ks)
		}
	})
	t.Run("item:read alone is not issued", func(t *testing.T) {
		// It would cover nothing: items are read inside projects.
		e.sub(t).Problem(http.StatusUnprocessableEntity, "token_scope_incomplete", http.MethodPost, "/v1/tokens", f.callers["person"],
			map[string]any{"scopes": []string{"item:read"}})
	})
	t.Run("other workspace", func(t *testing.T) {
		far := e.sub(t).allChanges("&workspace_id=other", e.Admin)
		if len(far) == 0 {
			t.Fatal("the other workspace has events")
		}
		for _, it := range far {
			if it["workspace_id"] != far[0]["workspace_id"] {
				t.Fatalf("events of two workspaces in one feed: %v", it)
			}
		}
		e.sub(t).Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/changes?workspace_id=other", f.alice, nil)
	})
}

func TestJournal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.Member("alice", "member")
	tk := e.prjTask(alice, "Water the plants", "")
	ref := lstItoa(lstNum(tk["ref"]))
	e.OK(http.StatusOK, http.MethodPatch, "/v1/tasks/"+ref, alice, map[string]any{"status": "done", "tags": []string{"home", "weekly"}})

	// Most recent first: the update, the two tags it brought into being,
	// the create.
	j := e.feed("/v1/journal?limit=4", e.Admin)
	if len(j.items) != 4 || !j.more || j.cursor == "" {
		t.Fatalf("journal page: %d items, more %v", len(j.items), j.more)
	}
	upd := j.items[0]
	if upd["action"] != "task.updated" || upd["actor"] != "alice" || upd["said"] != nil || lstNum(upd["item_ref"]) != lstNum(tk["ref"]) {
		t.Fatalf("most recent entry: %v", upd)
	}
	want := []any{
		map[string]any{"field": "status", "before": "todo", "after": "done", "said": "status: todo → done"},
		map[string]any{"field": "tags", "before": "", "after": "home, weekly", "said": "tags: none → home, weekly"},
	}
	if !reflect.DeepEqual(upd["changed"], want) {
		t.Fatalf("changed %v\nwant %v", upd["changed"], want)
	}
	if j.items[1]["action"] != "tag.created" || j.items[2]["action"] != "tag.created" {
		t.Fatalf("tags made by use: %v", j.items[1:3])
	}
	created := j.items[3]
	if created["action"] != "task.created" || !reflect.DeepEqual(created["changed"],
		[]any{map[string]any{"field": "title", "before": nil, "after": "Water the plants", "said": "title: Water the plants"}}) {
		t.Fatalf("create entry: %v", created)
	}

	t.Run("oldest first", func(t *testing.T) {
		a := e.sub(t).feed("/v1/journal?oldest=true&limit=500", e.Admin)
		b := e.sub(t).feed("/v1/journal?order=seq&limit=500", e.Admin)
		if !reflect.DeepEqual(seqs(a.items), seqs(b.items)) || !slices.IsSorted(seqs(a.items)) || a.items[0]["action"] != "instance.created" &&
			a.items[0]["action"] != "workspace.created" {
			t.Fatalf("oldest first: %v / %v", seqs(a.items), seqs(b.items))
		}
		for _, it := range a.items {
			if it["action"] == "workspace.created" && it["actor"] != "admin" {
				t.Fatalf("actor name: %v", it)
			}
		}
	})

	t.Run("pages", func(t *testing.T) {
		var got []int64
		path := "/v1/journal?limit=3"
		for {
			p := e.sub(t).feed(path, e.Admin)
			got = append(got, seqs(p.items)...)
			if !p.more {
				break
			}
			path = "/v1/journal?limit=3&cursor=" + url.QueryEscape(p.cursor)
		}
		all := seqs(e.sub(t).allChanges("", e.Admin))
		slices.Reverse(all)
		if !reflect.DeepEqual(got, all) {
			t.Fatalf("journal pages %v, feed reversed %v", got, all)
		}
	})

	t.Run("compact", func(t *testing.T) {
		m := e.sub(t).OK(http.StatusOK, http.MethodGet, "/v1/journal?limit=1&format=compact", e.Admin, nil)
		line, _ := m["items"].([]any)[0].(string)
		if !strings.Contains(line, "alice") || !strings.Contains(line, "task.updated") || !strings.Contains(line, "#"+ref) {
			t.Fatalf("compact line %q", line)
		}
	})
}

// TestJournalSaid gives a comment event's entry the comment's current body.
// Comments are written by the documents work, so the row and its event are
// put in place directly here.
func TestJournalSaid(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tk := e.prjTask(e.Admin, "Commented on", "")
	ctx := context.Background()
	raw, err := sql.Open("sqlite", e.DB.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	ws, id := tk["workspace_id"], "7d2f9c1e-0000-4000-8000-000000000001"
	if _, err := raw.ExecContext(ctx, `INSERT INTO comments (id, workspace_id, entity_type, entity_id, body, created_at, updated_at)
		VALUES (?, ?, 'task', ?, 'Looks good to me', '2031-01-01T00:00:00.000Z', '2031-01-01T00:00:00.000Z')`, id, ws, tk["id"]); err != nil {
		t.Fatal(err)
	}
	err = e.DB.Update(ctx, func(tx app.Tx) error {
		return tx.InsertEvent(ctx, &app.Event{ID: "7d2f9c1e-0000-4000-8000-000000000002", WorkspaceID: ws.(string), EntityType: "comment",
			EntityID: id, Action: "task.updated", SubjectType: "task", SubjectID: tk["id"].(string), CreatedAt: e.Clock.Now()})
	})
	if err != nil {
		t.Fatal(err)
	}
	j := e.feed("/v1/journal?limit=1", e.Admin)
	if len(j.items) != 1 || j.items[0]["said"] != "Looks good to me" || j.items[0]["entity_type"] != "comment" {
		t.Fatalf("comment entry: %v", j.items)
	}
	bob := e.Person("bob") // not a member: the workspace is out of reach
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/journal", bob, nil)
}

func TestChangesRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for range 3 {
		e.prjTask(e.Admin, "x", "")
	}
	feedCursor := e.feed("/v1/changes?since=0&limit=1", e.Admin).cursor
	tailCursor := e.feed("/v1/changes?limit=1", e.Admin).cursor
	journalCursor := e.feed("/v1/journal?limit=1", e.Admin).cursor
	for _, path := range []string{
		"/v1/changes?limit=0", "/v1/changes?limit=-1", "/v1/changes?limit=abc", "/v1/changes?since=-1", "/v1/changes?since=x",
		"/v1/changes?cursor=garbage", "/v1/changes?cursor=" + journalCursor, "/v1/changes?since=0&cursor=" + tailCursor,
		"/v1/changes?since=1&limit=1&cursor=" + feedCursor, "/v1/changes?since=0&limit=1&actor=me&cursor=" + feedCursor,
		"/v1/changes?created_at.gt=the+day+before", "/v1/changes?created_at.lte=2031-02-30", "/v1/changes?actor=nobody",
		"/v1/changes?format=xml", "/v1/changes?fields=nope", "/v1/changes?include_total=maybe",
		"/v1/journal?limit=0", "/v1/journal?cursor=" + feedCursor, "/v1/journal?oldest=true&cursor=" + journalCursor,
		"/v1/journal?order=nope", "/v1/journal?order=-seq&oldest=true", "/v1/journal?oldest=perhaps",
		"/v1/journal?created_at.gte=soon", "/v1/journal?actor=nobody",
	} {
		t.Run(path, func(t *testing.T) {
			e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, path, e.Admin, nil)
		})
	}
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/changes", "", nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/changes?workspace_id=nope", e.Admin, nil)
}

// TestChangesQueryCountFixed shows a page of the feed or the journal is a
// fixed number of statements whatever its size, link events included.
func TestChangesQueryCountFixed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var refs []string
	for i := range 60 {
		refs = append(refs, lstItoa(lstNum(e.prjTask(e.Admin, fmt.Sprintf("t%d", i), "")["ref"])))
	}
	for i := 0; i+1 < len(refs); i += 2 {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks/"+refs[i]+"/links", e.Admin, map[string]any{"link_type": "blocks", "target": refs[i+1]})
	}
	e.OK(http.StatusOK, http.MethodGet, "/v1/changes?limit=1", e.Admin, nil)
	for _, path := range []string{"/v1/changes?since=0&limit=%d", "/v1/changes?limit=%d&actor=me", "/v1/journal?limit=%d&include_total=true"} {
		counts := map[int]int64{}
		for _, limit := range []int{1, 5, 80} {
			before := e.DB.QueryCount()
			p := e.feed(fmt.Sprintf(path, limit), e.Admin)
			counts[limit] = e.DB.QueryCount() - before
			if len(p.items) != limit {
				t.Fatalf("%s at %d: %d items", path, limit, len(p.items))
			}
		}
		if counts[1] != counts[5] || counts[5] != counts[80] {
			t.Fatalf("%s: statements by limit %v", path, counts)
		}
	}
}

// TestChangesMeta holds GET /v1/meta to the truth about the two listings:
// their fields are the keys of real items and every filter named is read.
func TestChangesMeta(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.prjTask(e.Admin, "something", "")
	m := e.OK(http.StatusOK, http.MethodGet, "/v1/meta", e.Admin, nil)
	if got := metaStrs(t, m["event_kinds"]); !reflect.DeepEqual(got, app.EventKinds) {
		t.Fatalf("event_kinds %v", got)
	}
	valid := map[string]string{"since": "1", "wait": "1", "action": "task.created", "project": "inbox", "actor": "admin", "created_at.gt": "2000-01-01", "created_at.gte": "2000-01-01",
		"created_at.lt": "2999-01-01", "created_at.lte": "2999-01-01T00:00:00Z", "include_total": "true", "workspace_id": "default",
		"limit": "5", "cursor": "", "format": "full", "fields": "", "order": "seq", "oldest": "true"}
	for name, path := range map[string]string{"changes": "/v1/changes", "journal": "/v1/journal"} {
		l := m["listings"].(map[string]any)[name].(map[string]any)
		if l["path"] != path {
			t.Fatalf("listings.%s.path %v", name, l["path"])
		}
		q := url.Values{}
		for _, f := range metaStrs(t, l["filters"]) {
			v, ok := valid[f]
			if !ok {
				t.Fatalf("listings.%s names filter %q the test does not know", name, f)
			}
			q.Set(f, v)
		}
		page := e.OK(http.StatusOK, http.MethodGet, path+"?"+q.Encode(), e.Admin, nil)
		items := lstItems(page)
		if len(items) == 0 {
			t.Fatalf("%s with every filter: no items to compare with", path)
		}
		var keys []string
		for k := range items[0] {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		fields := metaStrs(t, l["fields"])
		slices.Sort(fields)
		if !reflect.DeepEqual(fields, keys) {
			t.Errorf("listings.%s.fields %v, items carry %v", name, fields, keys)
		}
		for _, c := range page["covers"].([]any) {
			if !slices.Contains(app.EventKinds, c.(string)) {
				t.Errorf("covers names %v, not an event kind", c)
			}
		}
	}
}
