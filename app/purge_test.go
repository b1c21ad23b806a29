package app_test

import (
	"testing"

	"tend/app"
)

func TestPurge(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	member := f.person("mel", app.RoleMember)
	viewer := f.person("vera", app.RoleViewer)
	admin := f.person("ada", app.RoleAdmin)
	hidden := f.secretTask()
	must(f.svc.DeleteTask(f.ctx, f.admin, "", ref(hidden.Ref)))(t)

	parent := f.task(f.admin, app.TaskCreate{Title: "parent"})
	child := f.task(f.admin, app.TaskCreate{Title: "child", Parent: app.FlexRef(ref(parent.Ref))})
	grandchild := f.task(f.admin, app.TaskCreate{Title: "grandchild", Parent: app.FlexRef(ref(child.Ref))})
	other := f.task(f.admin, app.TaskCreate{Title: "other, mentions #" + ref(child.Ref)})
	live := f.task(f.admin, app.TaskCreate{Title: "live"})
	must(f.svc.AddLinks(f.ctx, f.admin, "", link("blocks", child.Ref, other.Ref)))(t)
	f.comment(f.admin, child.Ref, "see #"+ref(other.Ref))
	must(f.svc.DeleteTask(f.ctx, f.admin, "", ref(parent.Ref)))(t)
	spec := f.doc(f.admin, app.DocumentCreate{Title: "spec", Type: "spec"})
	sub := f.doc(f.admin, app.DocumentCreate{Title: "appendix", Parent: app.FlexRef(ref(spec.Ref))})
	must(f.svc.DeleteDocument(f.ctx, f.admin, "", ref(spec.Ref)))(t)

	// Every refusal, and what it leaves: nothing deleted.
	for _, c := range []struct {
		name   string
		who    app.Actor
		entity string
		ref    int64
		want   app.Code
	}{
		{"absent", f.admin, "task", 9999, app.CodeNotFound},
		{"not visible", member, "task", hidden.Ref, app.CodeNotFound},
		{"a document named as a task", f.admin, "task", spec.Ref, app.CodeNotFound},
		{"a viewer", viewer, "task", parent.Ref, app.CodeForbidden},
		{"a member", member, "task", parent.Ref, app.CodeForbidden},
		{"a member, a document", member, "document", spec.Ref, app.CodeForbidden},
		{"not in the trash", f.admin, "task", live.Ref, app.CodeNotInTrash},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.Purge(f.ctx, c.who, "", c.entity, ref(c.ref))
			wantCode(t, err, c.want)
		})
	}
	if n := len(must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{Deleted: true}))(t).Items); n != 4 {
		t.Fatalf("the refusals left %d tasks in the trash, want 4", n)
	}

	got := must(f.svc.Purge(f.ctx, admin, "", "task", ref(parent.Ref)))(t)
	if want := (app.Purged{EntityType: "task", Ref: parent.Ref, Title: "parent", Along: 2}); got != want {
		t.Errorf("purged %+v, want %+v", got, want)
	}
	trash := must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{Deleted: true}))(t)
	if got, want := refs(trash.Items), []int64{hidden.Ref}; !sameSet(got, want) {
		t.Errorf("trash %v after the purge, want %v", got, want)
	}
	for _, r := range []int64{parent.Ref, child.Ref, grandchild.Ref} {
		_, err := f.svc.RestoreTask(f.ctx, f.admin, "", ref(r))
		wantCode(t, err, app.CodeNotFound)
		_, err = f.svc.Purge(f.ctx, f.admin, "", "task", ref(r))
		wantCode(t, err, app.CodeNotFound)
	}
	// The links and mentions went with it: the other end no longer
	// counts a blocker or a backlink.
	o := must(f.svc.TaskGet(f.ctx, f.admin, "", ref(other.Ref)))(t)
	if o.Blocked {
		t.Errorf("#%d is still blocked by a purged task", other.Ref)
	}
	if ls := must(f.svc.ItemLinks(f.ctx, f.admin, "", "task", ref(other.Ref)))(t); len(ls) != 0 {
		t.Errorf("links left on #%d: %+v", other.Ref, ls)
	}
	if bs := must(f.svc.ItemBacklinks(f.ctx, f.admin, "", "task", ref(other.Ref)))(t); len(bs) != 0 {
		t.Errorf("backlinks left on #%d: %+v", other.Ref, bs)
	}
	// The history keeps what happened, and says it was purged.
	purges := 0
	for _, e := range must(f.svc.Changes(f.ctx, f.admin, app.FeedQuery{}))(t).Items {
		if e.Action == "task.purged" {
			purges++
			if *e.ItemRef != parent.Ref || e.ItemTitle != "parent" || e.Changes["along"] != float64(2) {
				t.Errorf("purge event %+v, want #%d along 2", e, parent.Ref)
			}
		}
	}
	if purges != 1 {
		t.Errorf("%d task.purged events in the feed, want 1", purges)
	}

	d := must(f.svc.Purge(f.ctx, f.admin, "", "document", ref(spec.Ref)))(t)
	if d.EntityType != "document" || d.Along != 1 {
		t.Errorf("purged %+v, want the document and its one sub-document", d)
	}
	_, err := f.svc.RestoreDocument(f.ctx, f.admin, "", ref(sub.Ref))
	wantCode(t, err, app.CodeNotFound)
}
