package web_test

import (
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tend/web/webtest"
)

// TestTagRenameOntoHiddenName: renaming a tag onto the name of a tag the
// caller cannot see (made by use, only on items in a project hidden from
// it) answers exactly as onto a free name, and the hidden tag's items carry
// the renamed tag; only a name the caller can see is a conflict. Neither
// the answer, the tag listing nor the change feed tells the caller anything
// of the hidden items.
func TestTagRenameOntoHiddenName(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.Member("alice", "admin")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "secret", "title": "Secret", "visibility": "private"})
	hidden := e.CreateTask(e.Admin, map[string]any{"title": "hidden", "project": "secret", "tags": []string{"hush", "mine"}})
	memo := e.docCreate(e.Admin, map[string]any{"title": "memo", "project": "secret", "tags": []string{"hush", "whisper"}})
	open := e.CreateTask(alice, map[string]any{"title": "open", "tags": []string{"mine", "spare", "seen"}})
	e.OK(http.StatusOK, http.MethodPatch, tskPath(open), alice, map[string]any{"tags": []string{"mine", "seen"}})

	tagIDs := func(token string) map[string]string {
		out := map[string]string{}
		for _, tg := range prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tags", token, nil)) {
			out[tg["name"].(string)] = tg["id"].(string)
		}
		return out
	}
	before := tagIDs(alice)
	if _, ok := before["hush"]; ok {
		t.Fatalf("alice sees the hidden tag before any rename: %v", before)
	}
	rename := func(id, name string) webtest.Response {
		return e.Do(http.MethodPatch, "/v1/tags/"+id, alice, map[string]any{"name": name, "description": "spoken"})
	}
	// shape is an answer with the tag's own id and name taken out, so that
	// two renames compare byte for byte.
	shape := func(r webtest.Response, id, name string) string {
		return strings.NewReplacer(id, "ID", name, "NAME").Replace(string(r.Body))
	}

	t.Run("onto a hidden name answers as onto a free name", func(t *testing.T) {
		onto := rename(before["mine"], "hush")
		free := rename(before["seen"], "loud")
		if onto.Status != http.StatusOK || free.Status != http.StatusOK {
			t.Fatalf("statuses %d and %d, want 200\n%s\n%s", onto.Status, free.Status, onto.Body, free.Body)
		}
		got := onto.JSON(t)
		if got["id"] != before["mine"] || got["name"] != "hush" || got["meaning"] != "spoken" {
			t.Fatalf("renamed onto the hidden name: %v", got)
		}
		if a, b := shape(onto, before["mine"], "hush"), shape(free, before["seen"], "loud"); a != b {
			t.Fatalf("the answers differ in shape:\n%s\n%s", a, b)
		}
		for _, h := range []string{"Content-Type", "Content-Length"} {
			if onto.Header.Get(h) != free.Header.Get(h) {
				t.Fatalf("%s %q and %q differ", h, onto.Header.Get(h), free.Header.Get(h))
			}
		}
	})

	t.Run("the hidden items carry the renamed tag, once", func(t *testing.T) {
		task := e.OK(http.StatusOK, http.MethodGet, tskPath(hidden), e.Admin, nil)
		if got := credStrings(t, task["tags"]); !reflect.DeepEqual(got, []string{"hush"}) {
			t.Fatalf("the hidden task's tags %v, want [hush]", got)
		}
		doc := e.OK(http.StatusOK, http.MethodGet, docPath(memo), e.Admin, nil)
		if got := credStrings(t, doc["tags"]); !reflect.DeepEqual(got, []string{"hush", "whisper"}) {
			t.Fatalf("the hidden document's tags %v", got)
		}
		if got := credStrings(t, e.OK(http.StatusOK, http.MethodGet, tskPath(open), alice, nil)["tags"]); !reflect.DeepEqual(got, []string{"hush", "loud"}) {
			t.Fatalf("alice's task's tags %v", got)
		}
		owner, mine := tagIDs(e.Admin), tagIDs(alice)
		if owner["hush"] != before["mine"] || mine["hush"] != before["mine"] {
			t.Fatalf("hush is %q for the owner and %q for alice, want the renamed tag %q", owner["hush"], mine["hush"], before["mine"])
		}
		if _, ok := owner["mine"]; ok {
			t.Fatalf("the old name is still listed: %v", owner)
		}
		if n := len(lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?tag=hush", e.Admin, nil))); n != 2 {
			t.Fatalf("the owner finds %d tasks tagged hush, want 2", n)
		}
	})

	t.Run("a tag on nothing stays in sight when it takes hidden items", func(t *testing.T) {
		if r := rename(before["spare"], "whisper"); r.Status != http.StatusOK {
			t.Fatalf("status %d\n%s", r.Status, r.Body)
		}
		narrowed := e.Issue(e.Admin, map[string]any{"project_scope": []string{"default/inbox"}})["token"].(string)
		for _, token := range []string{alice, narrowed, e.Admin} {
			if id := tagIDs(token)["whisper"]; id != before["spare"] {
				t.Fatalf("whisper is %q for a reader, want the renamed tag %q", id, before["spare"])
			}
		}
	})

	t.Run("onto a name the caller sees is a conflict", func(t *testing.T) {
		e.sub(t).Problem(http.StatusConflict, "conflict", http.MethodPatch, "/v1/tags/"+before["seen"], alice, map[string]any{"name": "HUSH"})
	})

	t.Run("a tag the caller cannot see is not found", func(t *testing.T) {
		e := e.sub(t)
		e.CreateTask(e.Admin, map[string]any{"title": "quiet", "project": "secret", "tags": []string{"murmur"}})
		id := tagIDs(e.Admin)["murmur"]
		e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/tags/"+id, alice, map[string]any{"name": "noisy"})
		e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/tags/"+id, alice, nil)
		// Its readers may rename and delete it; that is filed where it is
		// used, so alice's feed names it no more than her tag list does.
		e.OK(http.StatusOK, http.MethodPatch, "/v1/tags/"+id, e.Admin, map[string]any{"name": "rumble"})
		e.OK(http.StatusNoContent, http.MethodDelete, "/v1/tags/"+id, e.Admin, nil)
		// The deletion of a tag made by use is filed where the worker
		// finds its items (docs/api.md, "Work done in steps").
		if err := e.Svc.SettleWork(); err != nil {
			t.Fatal(err)
		}
		var seen []string
		for _, ev := range e.allChanges("", e.Admin) {
			if ev["entity_id"] == id {
				seen = append(seen, ev["action"].(string))
			}
		}
		if want := []string{"tag.created", "tag.updated", "tag.deleted"}; !reflect.DeepEqual(seen, want) {
			t.Fatalf("the owner reads %v of the tag, want %v", seen, want)
		}
	})

	t.Run("alice's feed and tags show nothing of the hidden items", func(t *testing.T) {
		for _, route := range []string{"/v1/changes?limit=500", "/v1/journal?limit=500", "/v1/tags"} {
			body := string(e.sub(t).Do(http.MethodGet, route, alice, nil).Body)
			for _, word := range []string{"memo", "hidden", "murmur", "rumble", "merged_into", "secret"} {
				if strings.Contains(body, word) {
					t.Errorf("%s names %q to alice", route, word)
				}
			}
		}
		var merged []string
		for _, ev := range e.allChanges("", e.Admin) {
			if ch, _ := ev["changes"].(map[string]any); ev["action"] == "tag.deleted" && ch["merged_into"] != nil {
				merged = append(merged, ch["name"].(string)+">"+ch["merged_into"].(string))
			}
		}
		slices.Sort(merged)
		if want := []string{"hush>" + before["mine"], "whisper>" + before["spare"]}; !reflect.DeepEqual(merged, want) {
			t.Fatalf("the owner's feed records the merges %v, want %v", merged, want)
		}
	})
}
