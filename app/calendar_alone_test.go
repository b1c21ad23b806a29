package app_test

import (
	"testing"
	"time"

	"tend/app"
)

// TestCalendarFeedWorkingAlone: the default feed (audience me) of someone
// who works alone in a workspace (their agents aside) holds the dated work
// nobody is assigned to or holds, which is all of it for someone who never
// assigns; not what is assigned to or held by an agent. Once a claim
// lapses its task joins the feed, and once another person joins the
// workspace the feed is of the owner's own work again, the ETag moving
// both times.
func TestCalendarFeedWorkingAlone(t *testing.T) {
	f := newFixture(t)
	robo := f.agent("robo", "admin")
	soon := ptr(day("2026-03-05"))
	free := f.task(f.admin, app.TaskCreate{Title: "nobody's", DueAt: soon, DueIsAllDay: true})
	mine := f.task(f.admin, app.TaskCreate{Title: "mine", DueAt: soon, DueIsAllDay: true, Assignee: "admin"})
	f.task(f.admin, app.TaskCreate{Title: "the agent's", DueAt: soon, DueIsAllDay: true, Assignee: "robo"})
	held := f.task(f.admin, app.TaskCreate{Title: "held by the agent", DueAt: soon, DueIsAllDay: true})
	f.task(f.admin, app.TaskCreate{Title: "undated"})
	must(f.svc.ClaimTask(f.ctx, robo, "", ref(held.Ref), ptr(30)))(t)

	cal := must(f.svc.CreateCalendar(f.ctx, f.admin, app.CalendarCreate{}))(t)
	first := must(f.svc.CalendarFeed(f.ctx, cal.Prefix, cal.Secret, app.FeedConditions{}))(t)
	if got := feedRefs(t, f, cal); !sameSet(got, []int64{free.Ref, mine.Ref}) {
		t.Errorf("alone, the feed holds %v, want %v", got, []int64{free.Ref, mine.Ref})
	}
	f.clock.Advance(31 * time.Minute)
	lapsed := must(f.svc.CalendarFeed(f.ctx, cal.Prefix, cal.Secret, app.FeedConditions{IfNoneMatch: first.ETag}))(t)
	if lapsed.NotModified || !sameSet(feedRefs(t, f, cal), []int64{free.Ref, mine.Ref, held.Ref}) {
		t.Errorf("once the claim lapsed: not modified %v, the feed holds %v", lapsed.NotModified, feedRefs(t, f, cal))
	}
	f.person("bob", app.RoleMember)
	joined := must(f.svc.CalendarFeed(f.ctx, cal.Prefix, cal.Secret, app.FeedConditions{IfNoneMatch: lapsed.ETag}))(t)
	if joined.NotModified || !sameSet(feedRefs(t, f, cal), []int64{mine.Ref}) {
		t.Errorf("once bob joined: not modified %v, the feed holds %v", joined.NotModified, feedRefs(t, f, cal))
	}
}
