package app_test

import (
	"slices"
	"testing"

	"tend/app"
)

// TestWebhookProjectTakesSubprojects: a webhook for a project receives the
// events of the projects under it, at any depth, and not those of a
// sibling, as it is queued and as it is replayed: the same events the
// change feed reads with that project as its filter.
func TestWebhookProjectTakesSubprojects(t *testing.T) {
	f := hookFixture(t)
	f.projects(app.ProjectCreate{Key: "web"}, app.ProjectCreate{Key: "ui", Parent: "web"},
		app.ProjectCreate{Key: "icons", Parent: "ui"}, app.ProjectCreate{Key: "ops"})
	w := must(f.svc.CreateWebhook(f.ctx, f.admin, "", app.WebhookCreate{URL: hookURL, Events: []string{"task.created"}, Project: "web"}))(t)
	var want []int64
	for _, p := range []string{"icons", "ops", "web", "ui"} {
		task := f.task(f.admin, app.TaskCreate{Title: "in " + p, Project: p})
		if p != "ops" {
			want = append(want, task.Ref)
		}
	}
	// sent leases and answers, one at a time as an endpoint gets them,
	// until nothing is due.
	sent := func() []int64 {
		var got []int64
		for s := f.lease(); len(s) > 0; s = f.lease() {
			got = append(got, *s[0].Event.ItemRef)
			f.answer(s[0], 200)
		}
		return got
	}
	if got := sent(); !slices.Equal(got, want) {
		t.Errorf("the webhook on web was sent the tasks %v, want %v: those of web and every project under it", got, want)
	}

	since := int64(1)
	feed := must(f.svc.Changes(f.ctx, f.admin, app.FeedQuery{Since: &since, Actions: "task.created", Project: "web"}))(t)
	var read []int64
	for _, e := range feed.Items {
		read = append(read, *e.ItemRef)
	}
	if !slices.Equal(read, want) {
		t.Errorf("the change feed filtered to web reads the tasks %v, the webhook was sent %v", read, want)
	}

	if r := must(f.svc.ReplayWebhook(f.ctx, f.admin, "", w.ID, since))(t); r.Queued != len(want) {
		t.Errorf("a replay queued %d events, want %d", r.Queued, len(want))
	}
	if got := sent(); !slices.Equal(got, want) {
		t.Errorf("the replay sent the tasks %v, want %v", got, want)
	}
}
