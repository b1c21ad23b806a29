package app_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"tend/app"
)

// TestMigrateMentionsNothing: a "#12" another tool wrote is that tool's
// (an issue, a task's number, an episode), never tend's item #12. Every
// importer's sample holds such text; imported into a workspace whose refs
// 1 to 30 are taken, none of it mentions any item. A "#3" written in tend
// does, which shows the check would see one.
func TestMigrateMentionsNothing(t *testing.T) {
	f := newFixture(t)
	for i := range 30 {
		f.task(f.admin, app.TaskCreate{Title: fmt.Sprintf("seed %d", i+1)})
	}
	for _, m := range []app.Migration{
		todoistFile(t), vikunjaFile(t), beadsFile(t), githubFile(t),
	} {
		must(f.svc.Migrate(f.ctx, f.admin, m, app.MigrateOptions{}))(t)
	}
	clown := must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{Q: "Clown"}))(t)
	if len(clown.Items) != 1 || clown.Items[0].Title != "Clown Show tnd#21 cleanup" {
		t.Fatalf("the beads issue with #21 in its title: %+v", clown.Items)
	}
	all := must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{IncludeCompleted: ptr(true), Limit: 200}))(t)
	if len(all.Items) < 50 {
		t.Fatalf("%d tasks: the samples did not all come in", len(all.Items))
	}
	for _, task := range all.Items {
		if bl := must(f.svc.ItemBacklinks(f.ctx, f.admin, "", "task", ref(task.Ref)))(t); len(bl) != 0 {
			t.Errorf("#%d %q is mentioned by %+v", task.Ref, task.Title, bl)
		}
	}
	f.task(f.admin, app.TaskCreate{Title: "written in tend", Description: "after #3"})
	if bl := must(f.svc.ItemBacklinks(f.ctx, f.admin, "", "task", "3"))(t); len(bl) != 1 {
		t.Errorf("a mention written in tend: backlinks %+v", bl)
	}
}

// keepLines is a report's tasks in short: per task its ref, then what
// followed the file and each conflict as field (tend's | the file's).
func keepLines(rep app.MigrationReport) []string {
	var out []string
	for _, p := range rep.Projects {
		for _, t := range p.Tasks {
			line := fmt.Sprintf("#%d %s: %v", t.Ref, t.Title, t.Updated)
			for _, c := range t.Conflicts {
				line += fmt.Sprintf(" %s (%s | %s)", c.Field, c.Kept, c.File)
			}
			out = append(out, line)
		}
	}
	return out
}

// TestMigrateKeepsLocalWork: importing a file again, a field follows the
// file only where the file changed it since the last import; what was
// changed in tend stays (a rename, a tag added, a task completed), and a
// field changed on both sides keeps tend's value and is reported as a
// conflict. The report names every task it changed and how.
func TestMigrateKeepsLocalWork(t *testing.T) {
	f := newFixture(t)
	const v1 = `{"id":"bd-1","title":"Write the spec","description":"first draft","labels":["x"],"priority":2}
{"id":"bd-2","title":"Order parts","status":"open"}
{"id":"bd-3","title":"Call the vendor","description":"ask for a quote"}
{"id":"bd-4","title":"Ship it","labels":["a","b"],"due_at":"2027-01-10T09:00:00Z"}
{"id":"bd-5","title":"Review","comments":[{"id":"c1","author":"ann","text":"looks fine"}]}
{"id":"bd-6","title":"Untouched"}
`
	const v2 = `{"id":"bd-1","title":"Write the spec","description":"second draft","labels":["x","y"],"priority":0}
{"id":"bd-2","title":"Order parts","status":"open"}
{"id":"bd-3","title":"Call the vendor","description":"ask for two quotes"}
{"id":"bd-4","title":"Ship it","labels":["a"],"status":"closed","due_at":"2027-01-12T09:00:00Z"}
{"id":"bd-5","title":"Review","comments":[{"id":"c1","author":"ann","text":"looks fine, ship it"}]}
{"id":"bd-6","title":"Untouched"}
`
	must(f.svc.Migrate(f.ctx, f.admin, must(beads(v1)())(t), app.MigrateOptions{}))(t)
	ts := f.projectTasks(f.admin, "bd")
	must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(ts["Write the spec"].Ref), app.TaskUpdate{Title: app.Patch[string]{Set: true, Value: "Spec, renamed in tend"},
		Tags: app.Patch[[]string]{Set: true, Value: []string{"x", "mine"}}}))(t)
	must(f.svc.CompleteTask(f.ctx, f.admin, "", ref(ts["Order parts"].Ref), app.Completion{}))(t)
	must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(ts["Call the vendor"].Ref), app.TaskUpdate{Description: app.Patch[string]{Set: true, Value: "emailed them"}}))(t)

	for _, dry := range []bool{true, false} {
		rep := must(f.svc.Migrate(f.ctx, f.admin, must(beads(v2)())(t), app.MigrateOptions{DryRun: dry}))(t)
		want := []string{
			"#1 Spec, renamed in tend: [description importance tags]",
			"#3 Call the vendor: [] description (emailed them | ask for two quotes)",
			"#4 Ship it: [status due tags]",
			"#5 Review: [comment at line 5 (bd-5), comment c1]",
		}
		if got := keepLines(rep); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("dry run %v: report\n%q\nwant\n%q", dry, got, want)
		}
		if got := fmt.Sprint(reportLines(rep)); got != "[bd existing 0/2/4 c0 l0]" || rep.Projects[0].CommentsUpdated != 1 {
			t.Errorf("dry run %v: counts %s", dry, got)
		}
	}
	ts = f.projectTasks(f.admin, "bd")
	spec := ts["Spec, renamed in tend"]
	if spec.Description != "second draft" || *spec.Importance != 5 || fmt.Sprint(spec.Tags) != "[mine x y]" {
		t.Errorf("the spec: %q, importance %v, tags %v", spec.Description, *spec.Importance, spec.Tags)
	}
	if !ts["Order parts"].IsComplete() {
		t.Error("a task completed in tend was reopened")
	}
	if d := ts["Call the vendor"].Description; d != "emailed them" {
		t.Errorf("a description changed on both sides: %q, want tend's", d)
	}
	ship := ts["Ship it"]
	if !ship.IsComplete() || fmt.Sprint(ship.Tags) != "[a]" || !ship.DueAt.Equal(day("2027-01-12").Add(9*time.Hour)) {
		t.Errorf("ship it: complete %v, tags %v, due %v", ship.IsComplete(), ship.Tags, ship.DueAt)
	}
	comments := must(f.svc.ItemComments(f.ctx, f.admin, "", "task", ref(ts["Review"].Ref), app.CommentQuery{}))(t)
	if len(comments.Items) != 1 || !strings.HasSuffix(comments.Items[0].Body, "looks fine, ship it") {
		t.Errorf("the comment: %+v", comments.Items)
	}

	// The same file once more: nothing changed in it, so nothing moves and
	// the conflict, reported once, is not reported again.
	again := must(f.svc.Migrate(f.ctx, f.admin, must(beads(v2)())(t), app.MigrateOptions{}))(t)
	if got := keepLines(again); len(got) != 0 {
		t.Errorf("the same file again: %q", got)
	}
	if got := fmt.Sprint(reportLines(again)); got != "[bd existing 0/0/6 c0 l0]" {
		t.Errorf("the same file again: %s", got)
	}
}

// TestMigrateVikunjaKeepsWhatItMeans: a repeat at 08:00 every 3 days stays
// at 08:00, the next occurrence too; a subtask in another project comes in
// as a has_subtask link (tend files a subtask in its parent's project),
// and the report says so; Vikunja's Inbox is the workspace's inbox, not a
// new inbox-2; reminders are left out, and the report says so.
func TestMigrateVikunjaKeepsWhatItMeans(t *testing.T) {
	f := newFixture(t)
	const file = `[{"id":1,"title":"Inbox","tasks":[
		{"id":1,"title":"Water the plants","due_date":"2027-03-05T08:00:00+01:00","repeat_after":259200,
		 "reminders":[{"reminder":"2027-03-05T07:30:00+01:00"}]},
		{"id":2,"title":"Pack","related_tasks":{"parenttask":[{"id":3}]}}]},
	 {"id":2,"title":"Trip","tasks":[{"id":3,"title":"Plan the trip","related_tasks":{"subtask":[{"id":2},{"id":4}]}},
		{"id":4,"title":"Book the train"}]}]`
	rep := must(f.svc.Migrate(f.ctx, f.admin, must(vikunja(file)())(t), app.MigrateOptions{}))(t)
	if got := fmt.Sprint(reportLines(rep)); got != "[inbox existing 2/0/0 c0 l0 trip created 2/0/0 c0 l1]" {
		t.Errorf("report %s", got)
	}
	if got := rep.Projects[1].LinkTypesCreated; fmt.Sprint(got) != "[has_subtask]" {
		t.Errorf("link types created %v", got)
	}
	var why []string
	for _, u := range rep.Unmapped {
		why = append(why, u.Where+": "+u.What+": "+u.Why)
	}
	want := []string{"task 1: reminders: 1: tend sends no reminders: left out",
		"task 3: subtask 2: in another project: a tend task's subtasks share its project, so the two are linked (has subtask) instead"}
	if fmt.Sprint(why) != fmt.Sprint(want) {
		t.Errorf("unmapped %q\nwant %q", why, want)
	}
	inbox, trip := f.projectTasks(f.admin, "inbox"), f.projectTasks(f.admin, "trip")
	water := inbox["Water the plants"]
	if water.RecurrenceDescription != "every 3 days at 8:00" || water.DueIsAllDay || water.DueAt.Hour() != 8 {
		t.Errorf("the repeat: %q, due %v (all day %v)", water.RecurrenceDescription, water.DueAt, water.DueIsAllDay)
	}
	done := must(f.svc.CompleteTask(f.ctx, f.admin, "", ref(water.Ref), app.Completion{}))(t)
	if done.Next == nil || done.Next.DueAt.Hour() != 8 || !done.Next.DueAt.Equal(water.DueAt.AddDate(0, 0, 3)) {
		t.Errorf("the next occurrence: %+v", done.Next)
	}
	plan, pack := trip["Plan the trip"], inbox["Pack"]
	if pack.ParentID != "" || trip["Book the train"].ParentID != plan.ID {
		t.Errorf("parents: pack %q, the train %q, want none and %q", pack.ParentID, trip["Book the train"].ParentID, plan.ID)
	}
	links := must(f.svc.ItemLinks(f.ctx, f.admin, "", "task", ref(plan.Ref)))(t)
	if len(links) != 1 || links[0].Type.Key != "has_subtask" || links[0].Direction != "outgoing" || links[0].Other.Task.Title != "Pack" {
		t.Errorf("the plan's links: %+v", links)
	}
	if _, err := f.svc.ProjectGet(f.ctx, f.admin, "", "inbox-2"); app.CodeOf(err) != app.CodeNotFound {
		t.Errorf("an inbox-2 was made: %v", err)
	}
}

// TestMigrateTodayAfterImport: a task another tool called in progress,
// imported with nobody here assigned, is not the importing person's work
// in progress on the agenda: it is open work like the rest, until they
// take it. A task they started in tend without assigning stays theirs.
func TestMigrateTodayAfterImport(t *testing.T) {
	f := newFixture(t)
	f.task(f.admin, app.TaskCreate{Title: "started here", Status: "in_progress"})
	const file = `{"id":"bd-1","title":"Someone's work there","status":"in_progress","assignee":"alice"}
{"id":"bd-2","title":"Also under way","status":"in_progress"}
`
	must(f.svc.Migrate(f.ctx, f.admin, must(beads(file)())(t), app.MigrateOptions{}))(t)
	titles := func(ts []app.Task) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Title)
		}
		return out
	}
	day := must(f.svc.Agenda(f.ctx, f.admin, app.AgendaQuery{}))(t)
	if got := fmt.Sprint(titles(day.InProgress)); got != "[started here]" {
		t.Errorf("in progress after the import: %s", got)
	}
	if got := fmt.Sprint(titles(day.Unscheduled)); got != "[Someone's work there Also under way]" {
		t.Errorf("unscheduled after the import: %s", got)
	}
	ts := f.projectTasks(f.admin, "bd")
	must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(ts["Also under way"].Ref), app.TaskUpdate{Assignee: app.Patch[string]{Set: true, Value: "admin"}}))(t)
	day = must(f.svc.Agenda(f.ctx, f.admin, app.AgendaQuery{}))(t)
	if got := fmt.Sprint(titles(day.InProgress)); got != "[started here Also under way]" {
		t.Errorf("in progress once taken: %s", got)
	}
}
