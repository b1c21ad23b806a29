package app_test

import (
	"strings"
	"testing"

	"tend/app"
)

// documents has the document at doc document each task at tasks.
func (f *fixture) documents(doc int64, tasks ...int64) {
	f.t.Helper()
	for _, r := range tasks {
		must(f.svc.AddLinks(f.ctx, f.admin, "", app.LinkSet{Entity: "task", Refs: []string{ref(r)}, LinkType: "documents",
			Direction: "incoming", Others: []string{ref(doc)}, OtherType: "document"}))(f.t)
	}
}

// graphRefused checks the refusals every graph read shares: an item the
// caller cannot see, and one that does not exist, answer not_found.
func graphRefused(t *testing.T, f *fixture, a app.Actor, hidden int64, read func(a app.Actor, item string) error) {
	t.Helper()
	wantRefused(t, []refused[string]{
		{"an item the caller cannot see", a, ref(hidden), app.CodeNotFound, ""},
		{"no such item", a, "99999", app.CodeNotFound, ""},
	}, read)
}

func TestItemGoverning(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	hidden := f.secretTask()
	task := f.task(f.admin, app.TaskCreate{Title: "build it"})
	spec := f.doc(f.admin, app.DocumentCreate{Title: "spec", Type: "spec", Status: "current"})
	decision := f.doc(f.admin, app.DocumentCreate{Title: "decision", Type: "decision", Status: "current"})
	draft := f.doc(f.admin, app.DocumentCreate{Title: "draft", Type: "decision", Status: "draft"})
	secret := f.doc(f.admin, app.DocumentCreate{Title: "secret spec", Type: "spec", Status: "current", Project: "secret"})
	f.documents(decision.Ref, task.Ref)
	f.documents(spec.Ref, task.Ref)
	f.documents(draft.Ref, task.Ref)
	f.documents(secret.Ref, task.Ref)

	// In force, readable, in ref order: the draft binds nothing yet.
	var got []int64
	for _, g := range must(f.svc.ItemGoverning(f.ctx, bob, "", "task", ref(task.Ref)))(t) {
		got = append(got, g.Document.Ref())
		if g.LinkType != "documents" {
			t.Errorf("bound by #%d through %q, want documents", g.Document.Ref(), g.LinkType)
		}
	}
	if want := []int64{spec.Ref, decision.Ref}; !sameSet(got, want) || got[0] != spec.Ref {
		t.Errorf("bob's task is bound by %v, want %v", got, want)
	}
	if n := len(must(f.svc.ItemGoverning(f.ctx, f.admin, "", "task", ref(task.Ref)))(t)); n != 3 {
		t.Errorf("the administrator sees %d binding documents, want 3", n)
	}
	graphRefused(t, f, bob, hidden.Ref, func(a app.Actor, item string) error { return errOf(f.svc.ItemGoverning(f.ctx, a, "", "task", item)) })
}

func TestItemProposedLinks(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	hidden := f.secretTask()
	parent := f.task(f.admin, app.TaskCreate{Title: "the parent"})
	task := f.task(f.admin, app.TaskCreate{Title: "the child", Parent: app.FlexRef(ref(parent.Ref)), Tags: []string{"api"}})
	binding := f.doc(f.admin, app.DocumentCreate{Title: "binds the parent", Type: "decision", Status: "current"})
	f.documents(binding.Ref, parent.Ref)
	mentioning := f.doc(f.admin, app.DocumentCreate{Title: "mentions the child", Type: "spec", Status: "current",
		Body: ptr("see #" + ref(task.Ref))})
	tagged := f.doc(f.admin, app.DocumentCreate{Title: "shares a tag", Type: "design", Status: "current", Tags: []string{"api"}})
	f.doc(f.admin, app.DocumentCreate{Title: "a note mentioning it", Type: "note", Status: "current", Body: ptr("#" + ref(task.Ref))})
	f.doc(f.admin, app.DocumentCreate{Title: "a draft sharing a tag", Type: "spec", Status: "draft", Tags: []string{"api"}})
	linked := f.doc(f.admin, app.DocumentCreate{Title: "linked already", Type: "spec", Status: "current", Tags: []string{"api"}})
	f.documents(linked.Ref, task.Ref)

	// Governing and in force, not linked yet; strongest evidence first.
	got := must(f.svc.ItemProposedLinks(f.ctx, bob, "", "task", ref(task.Ref)))(t)
	want := []struct {
		ref     int64
		because string
	}{
		{mentioning.Ref, "mentions this task"},
		{binding.Ref, "binds the parent task"},
		{tagged.Ref, "shares the tag #api"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d proposals %+v, want %d", len(got), got, len(want))
	}
	for i, w := range want {
		if p := got[i]; p.Other.Ref() != w.ref || !strings.Contains(p.Because, w.because) || p.LinkType != "documents" || p.Direction != "incoming" {
			t.Errorf("proposal %d: #%d because %q (%s %s), want #%d because …%s…", i, p.Other.Ref(), p.Because, p.Direction, p.LinkType, w.ref, w.because)
		}
	}
	graphRefused(t, f, bob, hidden.Ref, func(a app.Actor, item string) error {
		return errOf(f.svc.ItemProposedLinks(f.ctx, a, "", "task", item))
	})
}

func TestItemTree(t *testing.T) {
	t.Parallel()
	f := newFixtureWith(t, app.Options{Version: "test", Limits: app.Limits{MaxTreeDepth: 3}})
	bob := f.person("bob", app.RoleMember)
	hidden := f.secretTask()
	var ts []app.Task
	for _, title := range []string{"a", "b", "c", "d", "e"} {
		ts = append(ts, f.task(f.admin, app.TaskCreate{Title: title}))
	}
	a, b, c, d, e := ts[0].Ref, ts[1].Ref, ts[2].Ref, ts[3].Ref, ts[4].Ref
	must(f.svc.AddLinks(f.ctx, f.admin, "", link("blocks", a, b, c)))(t)
	must(f.svc.AddLinks(f.ctx, f.admin, "", link("precedes", b, d)))(t)
	must(f.svc.AddLinks(f.ctx, f.admin, "", link("blocks", c, a, hidden.Ref)))(t)
	must(f.svc.AddLinks(f.ctx, f.admin, "", link("blocks", d, e)))(t)
	must(f.svc.AddLinks(f.ctx, f.admin, "", link("relates_to", a, e)))(t)

	// draw writes a tree as depth, ref and stop, one item a line.
	draw := func(bs []app.Beneath) string {
		var lines []string
		for _, x := range bs {
			lines = append(lines, strings.Repeat(" ", x.Depth)+ref(x.Item.Ref())+" "+x.Stopped)
		}
		return strings.Join(lines, "\n")
	}
	line := func(depth int, r int64, stopped string) string {
		return strings.Repeat(" ", depth) + ref(r) + " " + stopped
	}
	for _, c := range []struct {
		name  string
		depth int
		want  []string
	}{
		// Followers by ref, depth first; a's second visit is not walked,
		// the hidden task is left out, and relates_to is no sequencing link.
		{"the whole tree", 0, []string{line(1, b, ""), line(2, d, ""), line(3, e, ""), line(1, c, ""), line(2, a, "again")}},
		{"one level", 1, []string{line(1, b, "deeper"), line(1, c, "deeper")}},
		{"deeper than the instance allows, capped", 10, []string{line(1, b, ""), line(2, d, ""), line(3, e, ""), line(1, c, ""), line(2, a, "again")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := draw(must(f.svc.ItemTree(f.ctx, bob, "", "task", ref(a), c.depth))(t))
			if want := strings.Join(c.want, "\n"); got != want {
				t.Errorf("tree\n%s\nwant\n%s", got, want)
			}
		})
	}
	_, err := f.svc.ItemTree(f.ctx, bob, "", "task", ref(a), -1)
	wantRefusal(t, err, app.CodeValidation, "query.depth")
	graphRefused(t, f, bob, hidden.Ref, func(a app.Actor, item string) error { return errOf(f.svc.ItemTree(f.ctx, a, "", "task", item, 0)) })
}
