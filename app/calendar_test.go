package app_test

import (
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
)

// feedRefs fetches a feed and lists the refs of its tasks.
func feedRefs(t *testing.T, f *fixture, c app.IssuedCalendar) []int64 {
	t.Helper()
	feed := must(f.svc.CalendarFeed(f.ctx, c.Prefix, c.Secret, app.FeedConditions{}))(t)
	out := []int64{}
	for _, x := range feed.Tasks {
		out = append(out, x.Ref)
	}
	return out
}

// TestCalendarFeed checks what a feed holds: what its owner may see now,
// within its audience, project, item types and window of dates.
func TestCalendarFeed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	f.projects(app.ProjectCreate{Key: "web"}, app.ProjectCreate{Key: "secret", Visibility: "private"})
	soon := ptr(day("2026-03-05"))
	mine := f.task(f.admin, app.TaskCreate{Title: "bob's", DueAt: soon, DueIsAllDay: true, Assignee: "bob"})
	web := f.task(f.admin, app.TaskCreate{Title: "web", DueAt: soon, DueIsAllDay: true, Project: "web"})
	event := f.task(f.admin, app.TaskCreate{Title: "party", DueAt: soon, DueIsAllDay: true, Type: "event"})
	f.task(f.admin, app.TaskCreate{Title: "hidden", DueAt: soon, DueIsAllDay: true, Project: "secret"})
	f.task(f.admin, app.TaskCreate{Title: "undated"})
	f.task(f.admin, app.TaskCreate{Title: "far away", DueAt: ptr(day("2028-01-01"))})

	cases := []struct {
		name string
		a    app.Actor
		in   app.CalendarCreate
		want []int64
	}{
		{"a member's whole workspace", bob, app.CalendarCreate{Audience: app.CalendarAudienceWorkspace}, []int64{mine.Ref, web.Ref, event.Ref}},
		{"a member's own work", bob, app.CalendarCreate{}, []int64{mine.Ref}},
		{"one project", bob, app.CalendarCreate{Audience: app.CalendarAudienceWorkspace, Project: "web"}, []int64{web.Ref}},
		{"one item type", bob, app.CalendarCreate{Audience: app.CalendarAudienceWorkspace, ItemTypes: []string{"event"}}, []int64{event.Ref}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cal := must(f.svc.CreateCalendar(f.ctx, c.a, c.in))(t)
			if got := feedRefs(t, f, cal); !sameSet(got, c.want) {
				t.Errorf("the feed holds %v, want %v", got, c.want)
			}
		})
	}
	t.Run("what the owner may see now", func(t *testing.T) {
		cal := must(f.svc.CreateCalendar(f.ctx, bob, app.CalendarCreate{Audience: app.CalendarAudienceWorkspace}))(t)
		must(f.svc.ShareProject(f.ctx, f.admin, "", "secret", "bob"))(t)
		if got := feedRefs(t, f, cal); len(got) != 4 {
			t.Errorf("once shared, the feed holds %v", got)
		}
		wantCode(t, f.svc.UnshareProject(f.ctx, f.admin, "", "secret", "bob"), "")
		if got := feedRefs(t, f, cal); len(got) != 3 {
			t.Errorf("once unshared, the feed holds %v", got)
		}
	})
	t.Run("not modified", func(t *testing.T) {
		cal := must(f.svc.CreateCalendar(f.ctx, bob, app.CalendarCreate{}))(t)
		first := must(f.svc.CalendarFeed(f.ctx, cal.Prefix, cal.Secret, app.FeedConditions{}))(t)
		same := must(f.svc.CalendarFeed(f.ctx, cal.Prefix, cal.Secret, app.FeedConditions{IfNoneMatch: first.ETag}))(t)
		if !same.NotModified || same.Tasks != nil {
			t.Errorf("a current copy: not modified %v with %d tasks", same.NotModified, len(same.Tasks))
		}
		must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(mine.Ref), app.TaskUpdate{Title: app.PatchOf("bob's, renamed")}))(t)
		changed := must(f.svc.CalendarFeed(f.ctx, cal.Prefix, cal.Secret, app.FeedConditions{IfNoneMatch: first.ETag}))(t)
		if changed.NotModified || changed.ETag == first.ETag || len(changed.Tasks) != 1 || changed.Tasks[0].Title != "bob's, renamed" {
			t.Errorf("after a change: not modified %v, tasks %+v", changed.NotModified, changed.Tasks)
		}
	})
}

// TestCalendarSecrets checks that every failure to reach a feed answers
// the same not_found, and that reset and revocation act at once.
func TestCalendarSecrets(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	cal := must(f.svc.CreateCalendar(f.ctx, bob, app.CalendarCreate{Title: "mine"}))(t)
	other := must(f.svc.CreateCalendar(f.ctx, bob, app.CalendarCreate{}))(t)

	for _, c := range []struct{ name, prefix, secret string }{
		{"a wrong secret", cal.Prefix, other.Secret},
		{"an unknown prefix", "tend_aaaaaaaaaa", cal.Secret},
		{"no secret", cal.Prefix, ""},
	} {
		_, err := f.svc.CalendarFeed(f.ctx, c.prefix, c.secret, app.FeedConditions{})
		wantCode(t, err, app.CodeNotFound)
	}

	_, err := f.svc.RevokeCalendar(f.ctx, f.person("cy", app.RoleMember), cal.Prefix)
	wantCode(t, err, app.CodeNotFound) // another account's feed is beyond reach

	reset := must(f.svc.ResetCalendar(f.ctx, bob, cal.ID))(t)
	if reset.Prefix != cal.Prefix || reset.Secret == cal.Secret {
		t.Errorf("reset: prefix %s, secret changed %v", reset.Prefix, reset.Secret != cal.Secret)
	}
	_, err = f.svc.CalendarFeed(f.ctx, cal.Prefix, cal.Secret, app.FeedConditions{})
	wantCode(t, err, app.CodeNotFound)
	must(f.svc.CalendarFeed(f.ctx, reset.Prefix, reset.Secret, app.FeedConditions{}))(t)

	must(f.svc.RevokeCalendar(f.ctx, bob, cal.Prefix))(t)
	_, err = f.svc.CalendarFeed(f.ctx, reset.Prefix, reset.Secret, app.FeedConditions{})
	wantCode(t, err, app.CodeNotFound)
	_, err = f.svc.ResetCalendar(f.ctx, bob, cal.Prefix)
	wantCode(t, err, app.CodeCalendarUnusable)

	// A feed stops with its owner.
	must(f.svc.UpdateUser(f.ctx, f.admin, "bob", app.UserUpdate{Active: app.PatchOf(false)}))(t)
	_, err = f.svc.CalendarFeed(f.ctx, other.Prefix, other.Secret, app.FeedConditions{})
	wantCode(t, err, app.CodeNotFound)
}

func TestCalendarCreate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.projects(app.ProjectCreate{Key: "web"}, app.ProjectCreate{Key: "secret", Visibility: "private"})
	bob := f.person("bob", app.RoleMember)
	until := storetest.Epoch.Add(48 * time.Hour)
	narrow := f.login(f.issue(app.TokenCreate{Username: "bob", ExpiresAt: app.PatchOf(until), ProjectScope: app.PatchOf([]string{"web"})}))

	got := must(f.svc.CreateCalendar(f.ctx, narrow, app.CalendarCreate{Project: "web"}))(t)
	if got.Audience != app.CalendarAudienceMe || got.Title != "tend" || !got.ExpiresAt.Equal(until) || got.Secret == "" {
		t.Errorf("got %+v", got.Calendar)
	}

	cases := []refused[app.CalendarCreate]{
		{"an unknown audience", bob, app.CalendarCreate{Audience: "everyone"}, app.CodeValidation, "body.audience"},
		{"no item types", bob, app.CalendarCreate{ItemTypes: []string{}}, app.CodeValidation, "body.item_types"},
		{"an unknown item type", bob, app.CalendarCreate{ItemTypes: []string{"note"}}, app.CodeValidation, "body.item_types"},
		{"a project the owner cannot see", bob, app.CalendarCreate{Project: "secret"}, app.CodeValidation, "body.project"},
		{"expired already", bob, app.CalendarCreate{ExpiresAt: ptr(storetest.Epoch)}, app.CodeValidation, "body.expires_at"},
		{"every project, from a narrowed credential", narrow, app.CalendarCreate{}, app.CodeCalendarWider, "body.project"},
		{"outliving the credential", narrow, app.CalendarCreate{Project: "web", ExpiresAt: ptr(until.Add(time.Second))},
			app.CodeCalendarWider, "body.expires_at"},
	}
	wantRefused(t, cases, func(a app.Actor, in app.CalendarCreate) error { return errOf(f.svc.CreateCalendar(f.ctx, a, in)) })
	if list := must(f.svc.Calendars(f.ctx, bob))(t); len(list) != 1 || list[0].ID != got.ID {
		t.Errorf("bob lists %d feeds, want the one made", len(list))
	}
}
