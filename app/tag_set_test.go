package app_test

import (
	"slices"
	"strconv"
	"testing"

	"tend/app"
)

// TestTagsMadeOnCreateInOneGo checks the set-based tag writes of a create
// with many tags, some new and some in use under another case: the answer
// carries the existing tags under their own names and the new ones as
// written, and the feed has one tag.created per new tag, in the order
// named, filed in the item's project, before the item's own event, as when
// the tags were made one by one; a read of the item shows the same tags.
func TestTagsMadeOnCreateInOneGo(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ada := f.person("ada", app.RoleAdmin) // runs the workspace, but has no sight of the private project
	f.project(f.admin, app.ProjectCreate{Key: "dest", Visibility: "private"})
	old := f.task(f.admin, app.TaskCreate{Title: "old", Tags: []string{"ops", "UI", "Later"}})
	oldIDs := map[string]string{}
	for _, n := range old.Tags {
		oldIDs[n] = tagID(t, f, f.admin, n)
	}
	var names, made []string
	for i := range 20 {
		n := "New-" + strconv.Itoa(i)
		names = append(names, n)
		made = append(made, n)
		switch i {
		case 3:
			names = append(names, "OPS")
		case 9:
			names = append(names, "ui")
		case 15:
			names = append(names, "later")
		}
	}
	want := append(slices.Clone(made), "Later", "ops", "UI")
	app.SortTagNames(want)

	for _, kind := range []string{"task", "document"} {
		t.Run(kind, func(t *testing.T) {
			f := f.on(t)
			made := slices.Clone(made)
			for i := range made {
				made[i] = kind + "-" + made[i]
			}
			want := slices.Clone(want)
			for i, n := range want {
				if _, ok := oldIDs[n]; !ok {
					want[i] = kind + "-" + n
				}
			}
			app.SortTagNames(want)
			ns := slices.Clone(names)
			for i, n := range ns {
				if _, ok := oldIDs[n]; !ok && n != "OPS" && n != "ui" && n != "later" {
					ns[i] = kind + "-" + n
				}
			}
			since := lastSeq(t, f)
			var got []string
			var id string
			if kind == "task" {
				k := f.task(f.admin, app.TaskCreate{Title: "many", Project: "dest", Tags: ns})
				got, id = k.Tags, k.ID
			} else {
				d := f.doc(f.admin, app.DocumentCreate{Title: "many", Project: "dest", Tags: ns})
				got, id = d.Tags, d.ID
			}
			if !slices.Equal(got, want) {
				t.Errorf("tags %v, want %v", got, want)
			}
			// The answer is made from the tags as found and made; a read
			// shows what was stored.
			if kind == "task" {
				got = must(f.svc.TaskGet(f.ctx, f.admin, "", id))(t).Tags
			} else {
				got = must(f.svc.DocumentGet(f.ctx, f.admin, "", id))(t).Tags
			}
			if !slices.Equal(got, want) {
				t.Errorf("read back, tags %v, want %v", got, want)
			}
			for n, tid := range oldIDs {
				if got := tagID(t, f, f.admin, n); got != tid {
					t.Errorf("tag %s is %s now, was %s", n, got, tid)
				}
			}
			events := must(f.svc.Changes(f.ctx, f.admin, app.FeedQuery{Since: &since, Limit: 200}))(t).Items
			var created []string
			for i, e := range events {
				switch e.Action {
				case "tag.created":
					created = append(created, e.Changes["name"].(string))
					if e.EntityType != "tag" || e.EntityID != tagID(t, f, f.admin, e.Changes["name"].(string)) {
						t.Errorf("event %d: %+v", i, e)
					}
				case kind + ".created":
					if e.EntityID != id || i != len(events)-1 {
						t.Errorf("the %s's event is %d of %d", kind, i, len(events))
					}
				}
			}
			if !slices.Equal(created, made) {
				t.Errorf("tag.created for %v, want %v", created, made)
			}
			if n := len(created); n+1 != len(events) {
				t.Errorf("%d events, want the %d tags' and the %s's", len(events), n, kind)
			}
			// The new tags' events are filed in the item's project: one who
			// cannot read it is told of none.
			for _, e := range must(f.svc.Changes(f.ctx, ada, app.FeedQuery{Since: &since, Limit: 200}))(t).Items {
				t.Errorf("ada, outside the project, is told of %s %v", e.Action, e.Changes)
			}
		})
	}
}

// lastSeq is the seq of the newest event in the feed.
func lastSeq(t *testing.T, f *fixture) int64 {
	t.Helper()
	p := must(f.svc.Changes(f.ctx, f.admin, app.FeedQuery{Limit: 1}))(t)
	if len(p.Items) == 0 {
		return 0
	}
	return p.Items[len(p.Items)-1].Seq + 1
}

// TestDocumentUpdateMentions checks the mentions a document update
// records, its new body's found before the transaction: the title's and
// the body's together, the stored body's when the title alone changes.
func TestDocumentUpdateMentions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a, b, c := f.task(f.admin, app.TaskCreate{Title: "a"}), f.task(f.admin, app.TaskCreate{Title: "b"}), f.task(f.admin, app.TaskCreate{Title: "c"})
	d := f.doc(f.admin, app.DocumentCreate{Title: "on #" + ref(a.Ref)})
	mentioned := func(step string, want ...app.Task) {
		t.Helper()
		for _, k := range []app.Task{a, b, c} {
			bl := must(f.svc.ItemBacklinks(f.ctx, f.admin, "", "task", ref(k.Ref)))(t)
			if got, w := len(bl) == 1 && bl[0].ItemID == d.ID, slices.ContainsFunc(want, func(x app.Task) bool { return x.ID == k.ID }); got != w {
				t.Errorf("%s: #%d mentioned by the document: %v, want %v", step, k.Ref, got, w)
			}
		}
	}
	mentioned("created", a)
	body := "see #" + ref(b.Ref) + " and #" + ref(a.Ref)
	must(f.svc.UpdateDocument(f.ctx, f.admin, "", d.ID, app.DocumentUpdate{Body: app.PatchOf(body)}))(t)
	mentioned("body", a, b)
	must(f.svc.UpdateDocument(f.ctx, f.admin, "", d.ID, app.DocumentUpdate{Title: app.PatchOf("on #" + ref(c.Ref))}))(t)
	mentioned("title", a, b, c)
	must(f.svc.UpdateDocument(f.ctx, f.admin, "", d.ID, app.DocumentUpdate{Title: app.PatchOf("plain"), Body: app.PatchOf("#" + ref(c.Ref))}))(t)
	mentioned("both", c)
}
