package app_test

import (
	"fmt"
	"os"
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
		sample(t, "todoist/Groceries.csv", func(r *os.File) (app.Migration, error) { return from.Todoist(r, "Groceries", from.DefaultMaxSize) }),
		sample(t, "vikunja/data.json", func(r *os.File) (app.Migration, error) { return from.Vikunja(r, from.DefaultMaxSize) }),
		sample(t, "beads/issues.jsonl", func(r *os.File) (app.Migration, error) { return from.Beads(r, from.DefaultMaxSize) }),
		sample(t, "github/issues.json", func(r *os.File) (app.Migration, error) { return from.GitHub(r, "issues", from.DefaultMaxSize) }),
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
