package app_test

import (
	"fmt"
	"maps"
	"testing"

	"tend/app"
)

// link asks for links of one type from the task at from to each of to.
func link(typ string, from int64, to ...int64) app.LinkSet {
	in := app.LinkSet{Entity: "task", Refs: []string{ref(from)}, LinkType: typ}
	for _, r := range to {
		in.Others = append(in.Others, ref(r))
	}
	return in
}

// linkLabels lists each link as its label and the far end's ref.
func linkLabels(ls []app.LinkView) map[string]int64 {
	out := map[string]int64{}
	for _, l := range ls {
		out[l.Direction+" "+l.Label] = l.Other.Ref()
	}
	return out
}

func TestLinkAdd(t *testing.T) {
	t.Parallel()
	f := newFixtureWith(t, app.Options{Version: "test", Limits: app.Limits{MaxLinksPerRequest: 3}})
	viewer := f.person("vera", app.RoleViewer)
	bob := f.person("bob", app.RoleMember)
	f.project(f.admin, app.ProjectCreate{Key: "secret", Visibility: "private"})
	a := f.task(f.admin, app.TaskCreate{Title: "a"})
	b := f.task(f.admin, app.TaskCreate{Title: "b"})
	c := f.task(f.admin, app.TaskCreate{Title: "c"})
	hidden := f.task(f.admin, app.TaskCreate{Title: "hidden", Project: "secret"})
	spec := f.doc(f.admin, app.DocumentCreate{Title: "spec", Type: "spec"})

	made := must(f.svc.AddLinks(f.ctx, f.admin, "", link("blocks", a.Ref, b.Ref, c.Ref)))(t)
	if len(made) != 2 || made[0].Direction != "outgoing" || made[0].Label != "blocks" || made[0].Other.Ref() != b.Ref {
		t.Errorf("made %+v", made)
	}
	if got := must(f.svc.TaskGet(f.ctx, f.admin, "", ref(b.Ref)))(t); !got.Blocked || got.Blocking {
		t.Errorf("b: blocked %v blocking %v, want blocked", got.Blocked, got.Blocking)
	}
	if got := must(f.svc.TaskGet(f.ctx, f.admin, "", ref(a.Ref)))(t); got.Blocked || !got.Blocking {
		t.Errorf("a: blocked %v blocking %v, want blocking", got.Blocked, got.Blocking)
	}
	// One stored link reads from both ends.
	fromB := linkLabels(must(f.svc.ItemLinks(f.ctx, f.admin, "", "task", ref(b.Ref)))(t))
	if want := map[string]int64{"incoming is blocked by": a.Ref}; !maps.Equal(fromB, want) {
		t.Errorf("b's links %v, want %v", fromB, want)
	}
	must(f.svc.AddLinks(f.ctx, f.admin, "", app.LinkSet{Entity: "task", Refs: []string{ref(c.Ref)}, LinkType: "documents",
		Direction: "incoming", Others: []string{ref(spec.Ref)}, OtherType: "document"}))(t)
	fromSpec := linkLabels(must(f.svc.ItemLinks(f.ctx, f.admin, "", "document", ref(spec.Ref)))(t))
	if want := map[string]int64{"outgoing documents": c.Ref}; !maps.Equal(fromSpec, want) {
		t.Errorf("spec's links %v, want %v", fromSpec, want)
	}
	must(f.svc.AddLinks(f.ctx, f.admin, "", link("relates_to", a.Ref, hidden.Ref)))(t)

	cases := []refused[app.LinkSet]{
		{"again", f.admin, link("blocks", a.Ref, b.Ref), app.CodeConflict, ""},
		{"a symmetric type, mirrored", f.admin, link("relates_to", hidden.Ref, a.Ref), app.CodeConflict, ""},
		{"to itself", f.admin, link("precedes", a.Ref, a.Ref), app.CodeValidation, "body.target"},
		{"an unknown type", f.admin, link("loves", a.Ref, b.Ref), app.CodeValidation, "body.link_type"},
		{"no such target", f.admin, link("blocks", a.Ref, 99999), app.CodeValidation, "body.target"},
		{"a target the caller cannot see", bob, link("blocks", a.Ref, hidden.Ref), app.CodeValidation, "body.target"},
		{"from a task the caller cannot see", bob, link("blocks", hidden.Ref, a.Ref), app.CodeNotFound, ""},
		{"a direction that is neither", f.admin, app.LinkSet{Entity: "task", Refs: []string{ref(a.Ref)}, LinkType: "blocks",
			Direction: "sideways", Others: []string{ref(c.Ref)}}, app.CodeValidation, "body.direction"},
		{"more pairs than the limit", f.admin, link("precedes", c.Ref, a.Ref, b.Ref, spec.Ref, hidden.Ref), app.CodeOverLimit, "body.target"},
		{"a viewer", viewer, link("precedes", c.Ref, a.Ref), app.CodeForbidden, ""},
		// All or none: the first pair is fine, the second is not.
		{"one bad pair of two", f.admin, link("precedes", c.Ref, b.Ref, 99999), app.CodeValidation, "body.target"},
		// The links of one request are checked against each other too.
		{"the same pair twice in one request", f.admin, link("precedes", c.Ref, b.Ref, b.Ref), app.CodeConflict, ""},
	}
	wantRefused(t, cases, func(a app.Actor, in app.LinkSet) error { return errOf(f.svc.AddLinks(f.ctx, a, "", in)) })
	if got := linkLabels(must(f.svc.ItemLinks(f.ctx, f.admin, "", "task", ref(c.Ref)))(t)); len(got) != 2 {
		t.Errorf("c's links %v: a refused request made some", got)
	}

	t.Run("an end the caller cannot see is left out", func(t *testing.T) {
		var got []int64
		for _, l := range must(f.svc.ItemLinks(f.ctx, bob, "", "task", ref(a.Ref)))(t) {
			got = append(got, l.Other.Ref())
		}
		if want := []int64{b.Ref, c.Ref}; !sameSet(got, want) {
			t.Errorf("bob reads links to %v, want %v", got, want)
		}
	})
}

func TestLinkRemove(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	viewer := f.person("vera", app.RoleViewer)
	a := f.task(f.admin, app.TaskCreate{Title: "a"})
	b := f.task(f.admin, app.TaskCreate{Title: "b"})
	l := must(f.svc.AddLinks(f.ctx, f.admin, "", link("blocks", a.Ref, b.Ref)))(t)[0]

	wantCode(t, f.svc.RemoveLink(f.ctx, viewer, "", "task", ref(a.Ref), l.ID), app.CodeForbidden)
	wantCode(t, f.svc.RemoveLink(f.ctx, f.admin, "", "task", ref(a.Ref), "no-such-link"), app.CodeNotFound)
	// Either end may remove it.
	wantCode(t, f.svc.RemoveLink(f.ctx, f.admin, "", "task", ref(b.Ref), l.ID), "")
	if got := must(f.svc.TaskGet(f.ctx, f.admin, "", ref(b.Ref)))(t); got.Blocked {
		t.Errorf("b is still blocked")
	}
	wantCode(t, f.svc.RemoveLink(f.ctx, f.admin, "", "task", ref(a.Ref), l.ID), app.CodeNotFound)

	// service_link: tasks or documents by ref alone; removing what is not
	// there names the pair as not found.
	d := f.doc(f.admin, app.DocumentCreate{Title: "d"})
	in := app.LinkItems{Refs: []string{ref(a.Ref)}, Others: []string{ref(d.Ref), ref(b.Ref)}}
	if got := must(f.svc.LinkItems(f.ctx, f.admin, in))(t); len(got) != 2 || got[0].Label != "relates to" {
		t.Errorf("linked %+v", got)
	}
	in.Remove = true
	if got := must(f.svc.LinkItems(f.ctx, f.admin, in))(t); len(got) != 2 {
		t.Errorf("unlinked %d, want 2", len(got))
	}
	_, err := f.svc.LinkItems(f.ctx, f.admin, in)
	wantCode(t, err, app.CodeNotFound)
}

// The links of one request are stored together, and their events read as
// if each had been made alone: one per link, in the order asked, each in
// the history of the item the request was addressed to.
func TestLinksOfOneRequestRecordedInOrder(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := f.task(f.admin, app.TaskCreate{Title: "a"})
	others := []app.Task{f.task(f.admin, app.TaskCreate{Title: "c"}), f.task(f.admin, app.TaskCreate{Title: "b"}),
		f.task(f.admin, app.TaskCreate{Title: "d"})}
	made := must(f.svc.AddLinks(f.ctx, f.admin, "", link("blocks", a.Ref, others[0].Ref, others[1].Ref, others[2].Ref)))(t)
	if len(made) != len(others) {
		t.Fatalf("made %d links, want %d", len(made), len(others))
	}
	var got []app.Event
	for _, e := range must(f.svc.TaskEvents(f.ctx, f.admin, "", ref(a.Ref), app.EventQuery{}))(t).Items {
		if e.Action == "link.created" {
			got = append([]app.Event{e}, got...) // the history is newest first
		}
	}
	if len(got) != len(others) {
		t.Fatalf("%d link.created events, want %d", len(got), len(others))
	}
	for i, e := range got {
		if made[i].Other.Ref() != others[i].Ref || e.SubjectID != made[i].ID || fmt.Sprint(e.Changes["other"]) != fmt.Sprint(others[i].Ref) ||
			e.ItemRef == nil || *e.ItemRef != a.Ref || e.EntityID != a.ID {
			t.Errorf("event %d: link %s, other %v, entity %s; want link %s to #%d (as made: #%d), entity %s",
				i, e.SubjectID, e.Changes["other"], e.EntityID, made[i].ID, others[i].Ref, made[i].Other.Ref(), a.ID)
		}
		if i > 0 && e.Seq <= got[i-1].Seq {
			t.Errorf("event %d has seq %d after %d", i, e.Seq, got[i-1].Seq)
		}
	}
}
