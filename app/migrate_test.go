package app_test

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"tend/app"
	"tend/app/from"
)

// sample reads one of the importers' own samples (app/from/testdata) with
// its reader.
func sample(t *testing.T, path string, read func(f *os.File) (app.Migration, error)) app.Migration {
	t.Helper()
	f, err := os.Open("from/testdata/" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return must(read(f))(t)
}

// todoistFile, vikunjaFile, beadsFile and githubFile read the samples the
// importers' own tests use.
func todoistFile(t *testing.T) app.Migration {
	t.Helper()
	return sample(t, "todoist/Groceries.csv", func(r *os.File) (app.Migration, error) { return from.Todoist(r, "Groceries", from.DefaultMaxSize) })
}

func vikunjaFile(t *testing.T) app.Migration {
	t.Helper()
	return sample(t, "vikunja/data.json", func(r *os.File) (app.Migration, error) { return from.Vikunja(r, from.DefaultMaxSize) })
}

func beadsFile(t *testing.T) app.Migration {
	t.Helper()
	return sample(t, "beads/issues.jsonl", func(r *os.File) (app.Migration, error) { return from.Beads(r, from.DefaultMaxSize) })
}

func githubFile(t *testing.T) app.Migration {
	t.Helper()
	return sample(t, "github/issues.json", func(r *os.File) (app.Migration, error) { return from.GitHub(r, "issues", from.DefaultMaxSize) })
}

// projectTasks lists every task, done or not, under a project, by title.
func (f *fixture) projectTasks(a app.Actor, key string) map[string]app.Task {
	f.t.Helper()
	list := must(f.svc.Tasks(f.ctx, a, app.TaskListQuery{Project: key, IncludeCompleted: ptr(true), Limit: 200}))(f.t)
	out := map[string]app.Task{}
	for _, t := range list.Items {
		if _, dup := out[t.Title]; dup {
			out[t.Title+" #2"] = t
			continue
		}
		out[t.Title] = t
	}
	return out
}

func TestMigrateTodoist(t *testing.T) {
	f := newFixture(t)
	m := todoistFile(t)
	rep := must(f.svc.Migrate(f.ctx, f.admin, m, app.MigrateOptions{}))(t)
	if got := fmt.Sprint(reportLines(rep)); got != "[groceries created 5/0/0 c1 l0 groceries/weekend created 4/0/0 c0 l0]" {
		t.Errorf("report %s", got)
	}
	ts := f.projectTasks(f.admin, "groceries")
	if len(ts) != 9 {
		t.Fatalf("%d tasks: %v", len(ts), ts)
	}
	milk := ts["Buy milk"]
	if milk.RecurrenceDescription != "every Monday" || milk.SeriesID == "" || milk.Timezone != "Europe/Berlin" ||
		*milk.Importance != 5 || *milk.EstimateMinutes != 15 || fmt.Sprint(milk.Tags) != "[errands]" ||
		milk.Description != `Whole, not skimmed — the "good" one` {
		t.Errorf("Buy milk: %+v", milk)
	}
	if water := ts["Water the plants every 3 days"]; !strings.Contains(water.RecurrenceDescription, "after") || water.Importance == nil {
		t.Errorf("every! 3 days repeats from completion: %q, importance %v", water.RecurrenceDescription, water.Importance)
	}
	if child := ts["Check the expiry date"]; child.ParentID != milk.ID || child.Importance != nil {
		t.Errorf("the INDENT 2 task: parent %q, want %q", child.ParentID, milk.ID)
	}
	if bakery := ts["Call the bakery 🍞"]; bakery.Assignee != "admin" || bakery.DueAt == nil || bakery.DueIsAllDay || *bakery.Importance != 4 {
		t.Errorf("the bakery: %+v", bakery)
	}
	if market := ts["Farmers' market"]; market.ProjectPath != "groceries/weekend" || market.Assignee != "" ||
		market.RecurrenceDescription != "every other Saturday at 8:00" || market.EstimateMinutes != nil {
		t.Errorf("the section's task: %+v", market)
	}
	if week := ts["Plan the week"]; week.DueAt != nil || !strings.Contains(week.Description, "todoist date: ev mon") ||
		!strings.Contains(week.Description, "todoist deadline: 2027-04-01") {
		t.Errorf("a date tend cannot read: %+v", week)
	}
	if week := ts["Plan the week #2"]; week.DueAt == nil || !week.DueIsAllDay {
		t.Errorf("a deadline alone is the due date: %+v", week)
	}
	comments := must(f.svc.ItemComments(f.ctx, f.admin, "", "task", ref(ts["Check the expiry date"].Ref), app.CommentQuery{}))(t)
	if len(comments.Items) != 1 || comments.Items[0].Body != "*Alice, in todoist:*\n\nLast time it was off, by two days 🥛 (todoist#2 on the list)" {
		t.Errorf("comments %+v", comments.Items)
	}
	var why []string
	for _, u := range rep.Unmapped {
		why = append(why, u.Where+" "+u.What)
	}
	want := []string{"line 12 2 day", "line 13 2027-04-01", "line 12 Bob", "line 13 ev mon"}
	if fmt.Sprint(why) != fmt.Sprint(want) {
		t.Errorf("unmapped %q, want %q", why, want)
	}
}

// reportLines is a migration report in short: per project its path, how
// it was found, tasks created/updated/unchanged, comments created, links.
func reportLines(rep app.MigrationReport) []string {
	var out []string
	for _, p := range rep.Projects {
		how := "existing"
		if p.Created {
			how = "created"
		}
		if p.Failed != nil {
			how = "failed"
		}
		out = append(out, fmt.Sprintf("%s %s %d/%d/%d c%d l%d", p.Path, how, p.TasksCreated, p.TasksUpdated, p.TasksUnchanged,
			p.CommentsCreated, p.LinksCreated))
	}
	return out
}

// linkWords is the task ref's links as the administrator reads them, one
// "direction type other-title" a link, sorted.
func (f *fixture) linkWords(r int64) []string {
	f.t.Helper()
	links := must(f.svc.ItemLinks(f.ctx, f.admin, "", "task", ref(r)))(f.t)
	var got []string
	for _, l := range links {
		got = append(got, l.Direction+" "+l.Type.Key+" "+l.Other.Task.Title)
	}
	sort.Strings(got)
	return got
}

// TestMigrateAgainUpdates: importing the same file again finds what the
// first import wrote by the tool's ids and changes only what changed.
func TestMigrateAgainUpdates(t *testing.T) {
	f := newFixture(t)
	m := todoistFile(t)
	must(f.svc.Migrate(f.ctx, f.admin, m, app.MigrateOptions{}))(t)
	first := f.projectTasks(f.admin, "groceries")
	again := must(f.svc.Migrate(f.ctx, f.admin, m, app.MigrateOptions{}))(t)
	if got := fmt.Sprint(reportLines(again)); got != "[groceries existing 0/0/5 c0 l0 groceries/weekend existing 0/0/4 c0 l0]" {
		t.Errorf("a second import of the same file: %s", got)
	}
	m.Projects[0].Tasks[2].Description = "ring twice"
	m.Projects[0].Tasks[2].Tags = []string{"phone"}
	m.Projects[0].Tasks[1].Comments[0].Body = "it was off by three days"
	changed := must(f.svc.Migrate(f.ctx, f.admin, m, app.MigrateOptions{}))(t)
	if got := fmt.Sprint(reportLines(changed)); got != "[groceries existing 0/1/4 c0 l0 groceries/weekend existing 0/0/4 c0 l0]" {
		t.Errorf("an import of a changed file: %s", got)
	}
	if changed.Projects[0].CommentsUpdated != 1 {
		t.Errorf("comments updated %d, want 1", changed.Projects[0].CommentsUpdated)
	}
	now := f.projectTasks(f.admin, "groceries")
	bakery := now["Call the bakery 🍞"]
	if len(now) != len(first) || bakery.ID != first["Call the bakery 🍞"].ID || bakery.Description != "ring twice" ||
		fmt.Sprint(bakery.Tags) != "[phone]" {
		t.Errorf("after the third import: %d tasks, the bakery %+v", len(now), bakery)
	}
	// Completed in tend meanwhile and still open, as before, in the file:
	// tend's stays (TestMigrateKeepsLocalWork has every case).
	must(f.svc.CompleteTask(f.ctx, f.admin, "", ref(now["Nothing planned"].Ref), app.Completion{}))(t)
	must(f.svc.Migrate(f.ctx, f.admin, m, app.MigrateOptions{}))(t)
	if !f.projectTasks(f.admin, "groceries")["Nothing planned"].IsComplete() {
		t.Error("a task completed in tend was reopened by importing the file again")
	}
}

// TestMigrateDryRun writes nothing and reports what a real import does.
func TestMigrateDryRun(t *testing.T) {
	f := newFixture(t)
	m := todoistFile(t)
	dry := must(f.svc.Migrate(f.ctx, f.admin, m, app.MigrateOptions{DryRun: true}))(t)
	if _, err := f.svc.ProjectGet(f.ctx, f.admin, "", "groceries"); app.CodeOf(err) != app.CodeNotFound {
		t.Fatalf("after a dry run the project is there: %v", err)
	}
	real := must(f.svc.Migrate(f.ctx, f.admin, m, app.MigrateOptions{}))(t)
	if !dry.DryRun || fmt.Sprint(reportLines(dry)) != fmt.Sprint(reportLines(real)) || len(dry.Unmapped) != len(real.Unmapped) {
		t.Errorf("dry run %v\nreal    %v", reportLines(dry), reportLines(real))
	}
}

// TestMigrateOneTransactionPerProject: a project that fails leaves nothing
// of itself, the projects before it stay, and the error names the record.
func TestMigrateOneTransactionPerProject(t *testing.T) {
	f := newFixture(t)
	m := app.Migration{Source: "github", Projects: []app.MigratedProject{
		{ExternalID: "a", Where: "file a", Title: "First", Tasks: []app.MigratedTask{{ExternalID: "a1", Where: "issue #1", Title: "fine"}}},
		{ExternalID: "b", Where: "file b", Title: "Second", Tasks: []app.MigratedTask{
			{ExternalID: "b1", Where: "issue #2", Title: "also fine"},
			{ExternalID: "b2", Where: "issue #3", Title: strings.Repeat("long ", 200)}}},
	}}
	rep, err := f.svc.Migrate(f.ctx, f.admin, m, app.MigrateOptions{})
	if app.CodeOf(err) != app.CodeValidation || !strings.Contains(err.Error(), "issue #3") {
		t.Fatalf("err = %v; want a validation error naming issue #3", err)
	}
	if got := fmt.Sprint(reportLines(rep)); got != "[first created 1/0/0 c0 l0 Second failed 0/0/0 c0 l0]" {
		t.Errorf("report %s", got)
	}
	if len(f.projectTasks(f.admin, "first")) != 1 {
		t.Error("the project before the failure is not there")
	}
	if _, err := f.svc.ProjectGet(f.ctx, f.admin, "", "second"); app.CodeOf(err) != app.CodeNotFound {
		t.Errorf("the failed project was left behind: %v", err)
	}
}

// TestMigrateIntoProject: --project names the project a file's one
// top-level project becomes, an existing one included; several go inside it.
func TestMigrateIntoProject(t *testing.T) {
	f := newFixture(t)
	f.project(f.admin, app.ProjectCreate{Key: "shop", Title: "Shopping"})
	rep := must(f.svc.Migrate(f.ctx, f.admin, todoistFile(t), app.MigrateOptions{Project: "shop"}))(t)
	if got := fmt.Sprint(reportLines(rep)); got != "[shop existing 5/0/0 c1 l0 shop/weekend created 4/0/0 c0 l0]" {
		t.Errorf("report %s", got)
	}
	two := app.Migration{Source: "vikunja", Projects: []app.MigratedProject{{ExternalID: "1", Title: "Inbox"}, {ExternalID: "2", Title: "Work"}}}
	rep = must(f.svc.Migrate(f.ctx, f.admin, two, app.MigrateOptions{Project: "vik"}))(t)
	if got := fmt.Sprint(reportLines(rep)); got != "[vik/inbox-2 created 0/0/0 c0 l0 vik/work created 0/0/0 c0 l0]" {
		t.Errorf("report %s", got)
	}
}

func TestMigrateRefusals(t *testing.T) {
	f := newFixture(t)
	viewer := f.person("vera", app.RoleViewer)
	outsider := f.person("otto", "")
	m := todoistFile(t)
	for _, tc := range []struct {
		name string
		a    app.Actor
		m    app.Migration
		opts app.MigrateOptions
		code app.Code
	}{
		{"an unknown tool", f.admin, app.Migration{Source: "trello"}, app.MigrateOptions{}, app.CodeInvalid},
		{"a project key tend refuses", f.admin, m, app.MigrateOptions{Project: "Not A Key"}, app.CodeValidation},
		{"a parent after its child", f.admin, app.Migration{Source: "vikunja", Projects: []app.MigratedProject{{ExternalID: "2", Parent: "1", Title: "Child"},
			{ExternalID: "1", Title: "Parent"}}}, app.MigrateOptions{}, app.CodeInvalid},
		{"a viewer", viewer, m, app.MigrateOptions{}, app.CodeForbidden},
		{"no workspace", outsider, m, app.MigrateOptions{}, app.CodeNotFound},
		{"a workspace not there", f.admin, m, app.MigrateOptions{Workspace: "nowhere"}, app.CodeNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.svc.Migrate(f.ctx, tc.a, tc.m, tc.opts)
			wantCode(t, err, tc.code)
		})
	}
	if _, err := f.svc.ProjectGet(f.ctx, f.admin, "", "groceries"); app.CodeOf(err) != app.CodeNotFound {
		t.Errorf("a refused import left a project: %v", err)
	}
}

func TestMigrateVikunja(t *testing.T) {
	f := newFixture(t)
	f.person("alice", app.RoleMember)
	rep := must(f.svc.Migrate(f.ctx, f.admin, vikunjaFile(t), app.MigrateOptions{}))(t)
	want := "[inbox existing 2/0/0 c2 l0 work created 3/0/0 c0 l3 old-stuff created 0/0/0 c0 l0 work/backend created 2/0/0 c0 l3]"
	if got := fmt.Sprint(reportLines(rep)); got != want {
		t.Errorf("report %s\nwant   %s", got, want)
	}
	if got := rep.Projects[1].LinkTypesCreated; fmt.Sprint(got) != "[copied_from]" {
		t.Errorf("link types created %v", got)
	}
	inbox, work, backend := f.projectTasks(f.admin, "inbox"), f.projectTasks(f.admin, "work"), f.projectTasks(f.admin, "backend")
	milk := inbox["Buy milk 🥛"]
	if milk.RecurrenceDescription != "every week at 17:00" || milk.DueAt == nil || *milk.Importance != 2 || fmt.Sprint(milk.Tags) != "[Errands]" ||
		milk.Description != "Whole, not skimmed & cold.\n\n- 2 litres\n- no lactose" {
		t.Errorf("Buy milk: %+v", milk)
	}
	if !inbox["Check the fridge"].IsComplete() {
		t.Error("a done task came through open")
	}
	ship := work["Ship v2 of the API"]
	if ship.Assignee != "alice" || fmt.Sprint(ship.Tags) != "[bug High-Priority]" || ship.StartsAt == nil || *ship.Importance != 5 {
		t.Errorf("Ship v2: %+v", ship)
	}
	if work["Announce v2"].ParentID != ship.ID || backend["Back up first"].ParentID != backend["Migrate the database"].ID {
		t.Error("subtasks lost their parents")
	}
	if r := work["Write the changelog"].RecurrenceDescription; !strings.Contains(r, "month") {
		t.Errorf("monthly repeat: %q", r)
	}
	got := f.linkWords(ship.Ref)
	wantLinks := []string{"outgoing blocks Write the changelog", "outgoing copied_from Buy milk 🥛", "outgoing relates_to Migrate the database"}
	if fmt.Sprint(got) != fmt.Sprint(wantLinks) {
		t.Errorf("links of Ship v2: %q\nwant %q", got, wantLinks)
	}
	again := must(f.svc.Migrate(f.ctx, f.admin, vikunjaFile(t), app.MigrateOptions{}))(t)
	if got := fmt.Sprint(reportLines(again)); got != "[inbox existing 0/0/2 c0 l0 work existing 0/0/3 c0 l0 old-stuff existing 0/0/0 c0 l0 work/backend existing 0/0/2 c0 l0]" {
		t.Errorf("a second import: %s", got)
	}
}

func TestMigrateBeads(t *testing.T) {
	f := newFixture(t)
	f.person("claude", app.RoleMember)
	m := beadsFile(t)
	rep := must(f.svc.Migrate(f.ctx, f.admin, m, app.MigrateOptions{Project: "tend"}))(t)
	if got := fmt.Sprint(reportLines(rep)); got != "[tend created 6/0/0 c3 l3]" {
		t.Errorf("report %s", got)
	}
	ts := f.projectTasks(f.admin, "tend")
	epic, encoder, empty, slow := ts["Export and import of tend's data"], ts["Write the JSONL encoder"], ts["Import into an empty instance"], ts["FK check is slow on big databases"]
	if epic.Status.Key != "in_progress" || *epic.Importance != 5 || fmt.Sprint(epic.Tags) != "[data epic phase-2]" || epic.Assignee != "" {
		t.Errorf("the epic: status %s, importance %v, tags %v, assignee %q", epic.Status.Key, epic.Importance, epic.Tags, epic.Assignee)
	}
	if !encoder.IsComplete() || encoder.Assignee != "claude" || encoder.ParentID != epic.ID || *encoder.EstimateMinutes != 90 || encoder.Type.Key != "task" {
		t.Errorf("the encoder: %+v", encoder)
	}
	if empty.ParentID != epic.ID || empty.Type.Key != "feature" || empty.DueAt == nil || empty.Blocked {
		t.Errorf("the feature (its blocker is done): %+v", empty)
	}
	if got, want := f.linkWords(empty.Ref), []string{"incoming blocks Write the JSONL encoder", "incoming discovered_from FK check is slow on big databases"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("links %q, want %q", got, want)
	}
	if slow.Status.Key != "blocked" || slow.Type.Key != "bug" {
		t.Errorf("the bug: %+v", slow)
	}
	if _, ok := ts["agent mail: please review"]; ok {
		t.Error("a beads message came through as a task")
	}
	if rep.Projects[0].LinkTypesCreated[0] != "discovered_from" {
		t.Errorf("link types created %v", rep.Projects[0].LinkTypesCreated)
	}
}

func TestMigrateGitHub(t *testing.T) {
	f := newFixture(t)
	f.person("alice", app.RoleMember)
	m := githubFile(t)
	rep := must(f.svc.Migrate(f.ctx, f.admin, m, app.MigrateOptions{}))(t)
	if got := fmt.Sprint(reportLines(rep)); got != "[acme-widgets created 3/0/0 c3 l0]" {
		t.Errorf("report %s", got)
	}
	ts := f.projectTasks(f.admin, "acme-widgets")
	crash := ts["Crash when the name has an emoji 😱"]
	if crash.Assignee != "alice" || fmt.Sprint(crash.Tags) != "[bug good-first-issue]" || !strings.Contains(crash.Description, "acme/widgets#12") {
		t.Errorf("issue 14: %+v", crash)
	}
	if ts["Document the API"].Ref != 3 {
		t.Fatalf("the third issue is #%d here; the check below needs it to be #3", ts["Document the API"].Ref)
	}
	backlinks := must(f.svc.ItemBacklinks(f.ctx, f.admin, "", "task", "3"))(t)
	if len(backlinks) != 0 {
		t.Errorf("GitHub's #3 was read as a mention of tend's #3: %+v", backlinks)
	}
	if export := ts[`Add an export, with commas, "quotes" and a #hashtag`]; !export.IsComplete() {
		t.Errorf("a closed issue came through open: %+v", export)
	}
	if doc := ts["Document the API"]; doc.Assignee != "" {
		t.Errorf("carol is no member here, yet: %+v", doc)
	}
}

// TestMigrateFieldRules: what each reader brings is held to the API's rules
// for the same fields (the Service's own validation, not a copy of it): a
// title over 500 characters, a project's description over the limit, text
// holding U+0000. The item is refused, not cut short, naming the record of
// the file it is in, and nothing of its project is written.
func TestMigrateFieldRules(t *testing.T) {
	f := newFixture(t)
	long := strings.Repeat("x", 501)
	const todoistHead = "TYPE,CONTENT,DESCRIPTION\n"
	for _, tc := range []struct {
		name  string
		read  func() (app.Migration, error)
		code  app.Code
		where string
	}{
		{"todoist: a long title", todoist(todoistHead + "task,ok\ntask," + long + "\n"), app.CodeValidation, "line 3: "},
		{"vikunja: a long title", vikunja(`[{"id":1,"title":"p","tasks":[{"id":2,"title":"` + long + `"}]}]`), app.CodeValidation, "task 2: "},
		{"beads: a long title", beads(`{"id":"bd-1","title":"` + long + `"}`), app.CodeValidation, "line 1 (bd-1): "},
		{"github: a long title", github(`[{"number":4,"title":"` + long + `"}]`), app.CodeValidation, "issue #4: "},
		{"vikunja: a long project description", vikunja(`[{"id":1,"title":"p","description":"` + strings.Repeat("d", 100_001) + `"}]`),
			app.CodeValidation, "project 1: "},
		{"todoist: a NUL", todoist(todoistHead + "task,Buy\x00milk\n"), app.CodeInvalid, "line 2: "},
		{"vikunja: a NUL", vikunja(`[{"id":1,"title":"p","tasks":[{"id":2,"title":"t","description":"a\u0000b"}]}]`), app.CodeInvalid, "task 2: "},
		{"beads: a NUL", beads(`{"id":"bd-1","title":"t","labels":["a\u0000"]}`), app.CodeInvalid, "line 1 (bd-1): "},
		{"github: a NUL", github(`[{"number":4,"title":"t","comments":[{"body":"\u0000"}]}]`), app.CodeInvalid, "issue #4, comment 1: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := must(f.svc.Projects(f.ctx, f.admin, "", false))(t)
			m := must(tc.read())(t)
			_, err := f.svc.Migrate(f.ctx, f.admin, m, app.MigrateOptions{})
			wantCode(t, err, tc.code)
			if d := app.AsError(err).Detail; !strings.HasPrefix(d, tc.where) {
				t.Errorf("detail %q does not begin %q", d, tc.where)
			}
			if after := must(f.svc.Projects(f.ctx, f.admin, "", false))(t); len(after) != len(before) {
				t.Errorf("%d projects before, %d after", len(before), len(after))
			}
		})
	}
}

// todoist, vikunja, beads and github read a file's text with each reader.
func todoist(file string) func() (app.Migration, error) {
	return func() (app.Migration, error) { return from.Todoist(strings.NewReader(file), "p", from.DefaultMaxSize) }
}

func vikunja(file string) func() (app.Migration, error) {
	return func() (app.Migration, error) { return from.Vikunja(strings.NewReader(file), from.DefaultMaxSize) }
}

func beads(file string) func() (app.Migration, error) {
	return func() (app.Migration, error) { return from.Beads(strings.NewReader(file), from.DefaultMaxSize) }
}

func github(file string) func() (app.Migration, error) {
	return func() (app.Migration, error) { return from.GitHub(strings.NewReader(file), "p", from.DefaultMaxSize) }
}

// TestMigrateVikunjaInstancesApart: every Vikunja numbers from 1, so two
// instances' exports name different tasks by the same numbers; the second
// import adds its own, and leaves what the first wrote as it was, with
// --project and without. The same file again still updates its own.
func TestMigrateVikunjaInstancesApart(t *testing.T) {
	const home = `[{"id":1,"title":"Home","created":"2024-05-02T08:00:00Z","tasks":[
		{"id":1,"title":"Water the plants","description":"weekly","created":"2024-05-02T08:10:00Z"}]}]`
	const colleague = `[{"id":1,"title":"Work","created":"2025-01-10T09:00:00Z","tasks":[
		{"id":1,"title":"Ship it","done":true,"created":"2025-01-10T09:05:00Z"}]}]`
	for _, tc := range []struct{ name, first, second string }{
		{"into projects of their own", "home", "work"},
		{"without --project", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			must(f.svc.Migrate(f.ctx, f.admin, must(vikunja(home)())(t), app.MigrateOptions{Project: tc.first}))(t)
			rep := must(f.svc.Migrate(f.ctx, f.admin, must(vikunja(colleague)())(t), app.MigrateOptions{Project: tc.second}))(t)
			if got := fmt.Sprint(reportLines(rep)); got != "[work created 1/0/0 c0 l0]" {
				t.Errorf("the colleague's import: %s", got)
			}
			plants := f.projectTasks(f.admin, "home")["Water the plants"]
			if plants.Description != "weekly" || plants.IsComplete() {
				t.Errorf("the first import's task after the second: %q, %q, complete %v", plants.Title, plants.Description, plants.IsComplete())
			}
			if ship := f.projectTasks(f.admin, "work")["Ship it"]; !ship.IsComplete() {
				t.Errorf("the colleague's task: %q, complete %v", ship.Title, ship.IsComplete())
			}
			again := must(f.svc.Migrate(f.ctx, f.admin, must(vikunja(home)())(t), app.MigrateOptions{Project: tc.first}))(t)
			if got := fmt.Sprint(reportLines(again)); got != "[home existing 0/0/1 c0 l0]" {
				t.Errorf("the first file again: %s", got)
			}
		})
	}
}
