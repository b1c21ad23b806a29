package web_test

import (
	"fmt"
	"net/http"
	"testing"

	"tend/web/webtest"
)

func TestTaskLinks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.CreateTask(e.Admin, map[string]any{"title": "A"})
	b := e.CreateTask(e.Admin, map[string]any{"title": "B", "description": "secret plans"})
	c := e.CreateTask(e.Admin, map[string]any{"title": "C"})
	d := e.CreateTask(e.Admin, map[string]any{"title": "D"})

	var blocks map[string]any
	t.Run("one stored row seen from both ends", func(t *testing.T) {
		blocks = e.OK(http.StatusCreated, http.MethodPost, tskPath(a, "links"), e.Admin, map[string]any{"link_type": "blocks", "target": b["ref"]})
		tskLinkWant(t, blocks, "outgoing", "blocks", "blocks", b)
		if blocks["link_category"] != "sequencing" {
			t.Fatalf("link_category %v", blocks["link_category"])
		}
		tskLinkWant(t, itemWhere(t, e.tskLinks(e.Admin, a), "id", blocks["id"]), "outgoing", "blocks", "blocks", b)
		tskLinkWant(t, itemWhere(t, e.tskLinks(e.Admin, b), "id", blocks["id"]), "incoming", "is blocked by", "blocks", a)
		if o := blocks["other"].(map[string]any); o["blocked"] != true || o["is_complete"] != false || o["status"] != "todo" {
			t.Fatalf("the far end is resolved after the link: %v", o)
		}
	})
	t.Run("incoming, by id", func(t *testing.T) {
		in := e.OK(http.StatusCreated, http.MethodPost, tskPath(c, "links"), e.Admin,
			map[string]any{"direction": "incoming", "link_type": "blocks", "target": a["id"]})
		tskLinkWant(t, in, "incoming", "is blocked by", "blocks", a)
		tskLinkWant(t, itemWhere(t, e.tskLinks(e.Admin, a), "id", in["id"]), "outgoing", "blocks", "blocks", c)
		tskWant(t, e.tskGet(c), map[string]any{"blocked": true})
		if n := len(e.tskLinks(e.Admin, a)); n != 2 {
			t.Fatalf("A has %d links, want 2", n)
		}
	})
	t.Run("the same link twice is a conflict", func(t *testing.T) {
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, tskPath(a, "links"), e.Admin, map[string]any{"link_type": "blocks", "target": b["ref"]})
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, tskPath(b, "links"), e.Admin,
			map[string]any{"direction": "incoming", "link_type": "blocks", "target": fmt.Sprint(a["ref"])})
	})
	t.Run("symmetric types read the same from both ends", func(t *testing.T) {
		rel := e.OK(http.StatusCreated, http.MethodPost, tskPath(a, "links"), e.Admin, map[string]any{"link_type": "relates_to", "target": d["ref"]})
		tskLinkWant(t, rel, "outgoing", "relates to", "relates_to", d)
		from := itemWhere(t, e.tskLinks(e.Admin, d), "id", rel["id"])
		tskLinkWant(t, from, "incoming", "relates to", "relates_to", a)
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, tskPath(d, "links"), e.Admin, map[string]any{"link_type": "relates_to", "target": a["ref"]})
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, tskPath(a, "links"), e.Admin,
			map[string]any{"direction": "incoming", "link_type": "relates_to", "target": d["ref"]})
		// Another type between the same two is a different link.
		e.OK(http.StatusCreated, http.MethodPost, tskPath(d, "links"), e.Admin, map[string]any{"link_type": "duplicates", "target": a["ref"]})
	})
	refusals := []struct {
		name string
		body any
	}{
		{"unknown link type", map[string]any{"link_type": "fixes", "target": b["ref"]}},
		{"link type missing", map[string]any{"target": b["ref"]}},
		{"target missing", map[string]any{"link_type": "blocks"}},
		{"self link", map[string]any{"link_type": "precedes", "target": a["ref"]}},
		{"self link by id", map[string]any{"link_type": "precedes", "target": a["id"]}},
		{"no such target", map[string]any{"link_type": "blocks", "target": 9999}},
		{"bad direction", map[string]any{"link_type": "blocks", "target": b["ref"], "direction": "sideways"}},
		{"unknown target type", map[string]any{"link_type": "blocks", "target": b["ref"], "target_type": "comment"}},
		{"unknown field", map[string]any{"link_type": "blocks", "target": b["ref"], "label": "x"}},
	}
	for _, r := range refusals {
		t.Run("refused: "+r.name, func(t *testing.T) {
			webtest.AssertProblem(t, e.Do(http.MethodPost, tskPath(a, "links"), e.Admin, r.body), http.StatusUnprocessableEntity, "validation")
		})
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/9999/links", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/tasks/9999/links", e.Admin, map[string]any{"link_type": "blocks", "target": a["ref"]})

	t.Run("delete from either end", func(t *testing.T) {
		before := len(e.tskLinks(e.Admin, a))
		r := e.Do(http.MethodDelete, tskPath(b, "links", blocks["id"].(string)), e.Admin, nil)
		if r.Status != http.StatusNoContent || len(r.Body) != 0 {
			t.Fatalf("DELETE link: %d %s, want 204 and no body", r.Status, r.Body)
		}
		for _, task := range []map[string]any{a, b} {
			for _, l := range e.tskLinks(e.Admin, task) {
				if l["id"] == blocks["id"] {
					t.Fatalf("a deleted link still shows on #%v", task["ref"])
				}
			}
		}
		if n := len(e.tskLinks(e.Admin, a)); n != before-1 {
			t.Fatalf("A has %d links, want %d", n, before-1)
		}
		tskWant(t, e.tskGet(b), map[string]any{"blocked": false})
		e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, tskPath(a, "links", blocks["id"].(string)), e.Admin, nil)
		// A link is removed through one of its own ends only.
		rel := e.tskLinks(e.Admin, d)[0]
		e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, tskPath(b, "links", rel["id"].(string)), e.Admin, nil)
		e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, tskPath(a, "links", "not-a-uuid"), e.Admin, nil)
	})
	t.Run("history", func(t *testing.T) {
		evs := e.tskEvents(e.Admin, b, "seq")
		last := evs[len(evs)-1]
		if last["action"] != "link.deleted" || last["subject_type"] != "link" || last["subject_id"] != blocks["id"] {
			t.Fatalf("removing a link is recorded on the end it was removed from: %v", last)
		}
		var created bool
		for _, ev := range e.tskEvents(e.Admin, a, "seq") {
			created = created || (ev["action"] == "link.created" && ev["subject_id"] == blocks["id"])
		}
		if !created {
			t.Fatal("adding a link is recorded on the end it was added from")
		}
	})
	t.Run("a trashed far end is not linked to", func(t *testing.T) {
		gone := e.CreateTask(e.Admin, map[string]any{"title": "Gone"})
		e.OK(http.StatusCreated, http.MethodPost, tskPath(c, "links"), e.Admin, map[string]any{"link_type": "precedes", "target": gone["ref"]})
		n := len(e.tskLinks(e.Admin, c))
		e.OK(http.StatusOK, http.MethodDelete, tskPath(gone), e.Admin, nil)
		if got := len(e.tskLinks(e.Admin, c)); got != n-1 {
			t.Fatalf("a link to a trashed task still shows: %d links, want %d", got, n-1)
		}
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, tskPath(c, "links"), e.Admin,
			map[string]any{"link_type": "blocks", "target": gone["ref"]})
	})
}

// TestTaskLinksUnseen: a task the caller cannot see is answered like one that
// does not exist, and a link to it is never reported to that caller.
func TestTaskLinksUnseen(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pat := e.Member("pat", "member")
	vic := e.Member("vic", "viewer")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "secret", "title": "Secret", "visibility": "private"})
	hidden := e.CreateTask(e.Admin, map[string]any{"title": "Hidden", "project": "secret"})
	mine := e.CreateTask(pat, map[string]any{"title": "Mine"})
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, tskPath(hidden), pat, nil)

	unseen := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, tskPath(mine, "links"), pat,
		map[string]any{"link_type": "blocks", "target": hidden["ref"]})
	absent := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, tskPath(mine, "links"), pat,
		map[string]any{"link_type": "blocks", "target": 9999})
	if fmt.Sprint(unseen["detail"].([]any)[0].(map[string]any)["loc"]) != fmt.Sprint(absent["detail"].([]any)[0].(map[string]any)["loc"]) ||
		unseen["title"] != absent["title"] {
		t.Fatalf("an unseen task answers like an absent one:\n%v\n%v", unseen, absent)
	}
	byID := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, tskPath(mine, "links"), pat,
		map[string]any{"link_type": "blocks", "target": hidden["id"]})
	if fmt.Sprint(byID["detail"]) == "" {
		t.Fatal(byID)
	}

	// The administrator sees both ends and links them; pat never learns of it.
	l := e.OK(http.StatusCreated, http.MethodPost, tskPath(hidden, "links"), e.Admin, map[string]any{"link_type": "blocks", "target": mine["ref"]})
	itemWhere(t, e.tskLinks(e.Admin, mine), "id", l["id"])
	if ls := e.tskLinks(pat, mine); len(ls) != 0 {
		t.Fatalf("a link to an unseen task is reported: %v", ls)
	}
	tskWant(t, e.tskGet(mine), map[string]any{"blocked": true})
	tskWant(t, e.OK(http.StatusOK, http.MethodGet, tskPath(mine), pat, nil), map[string]any{"blocked": false})
	e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, tskPath(mine, "links", l["id"].(string)), pat, nil)

	// A viewer reads links but may not add or remove them.
	e.OK(http.StatusCreated, http.MethodPost, tskPath(mine, "links"), pat,
		map[string]any{"link_type": "relates_to", "target": e.CreateTask(pat, map[string]any{"title": "Other"})["ref"]})
	vl := e.tskLinks(vic, mine)
	if len(vl) != 1 {
		t.Fatalf("the viewer sees the one visible link: %v", vl)
	}
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, tskPath(mine, "links"), vic, map[string]any{"link_type": "blocks", "target": 1})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodDelete, tskPath(mine, "links", vl[0]["id"].(string)), vic, nil)
}
