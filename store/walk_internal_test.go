package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"tend/app"
)

// walkService is a bootstrapped instance on a migrated copy, its Service
// and administrator, for the tests and benchmarks of the walks.
func walkService(tb testing.TB) (*DB, *app.Service, app.Actor) {
	tb.Helper()
	db := openMigrated(tb, "walks.db", Options{})
	svc := app.New(db, app.Options{Version: "test"})
	tb.Cleanup(svc.StopWork)
	return db, svc, adminOf(tb, svc, "test")
}

// TestWalksKeepTheirIndexes: every step of a walk is a lookup (by id up
// a chain, by tasks_parent down a tree), now that no depth bounds the
// walk: a scan in a step would read the table once a level.
func TestWalksKeepTheirIndexes(t *testing.T) {
	t.Parallel()
	db := openMigrated(t, "plan.db", Options{})
	users, tasks, parent := "SEARCH x USING INDEX sqlite_autoindex_users_1 (id=?)", "SEARCH x USING INDEX sqlite_autoindex_tasks_1 (id=?)",
		"SEARCH c USING INDEX tasks_parent (parent_id=?)"
	for _, w := range []struct {
		name, query, step string
		args              []any
	}{
		{"the token check", credentialSelect, users, []any{"x"}},
		{"an account", userSelect + " WHERE u.id = ?", users, []any{"x"}},
		{"a chain up", usersUp("id, answers_to, active FROM users WHERE id = ?") + "SELECT id, next FROM up", users, []any{"x"}},
		{"a project's ancestors", projectsUpSQL, "SEARCH p USING INDEX sqlite_autoindex_projects_1 (id=?)", []any{"x"}},
		{"a subtree", subtreeSQL("tasks"), parent, []any{"x"}},
		{"under", "SELECT 1 WHERE 'x' IN " + below("tasks", "= ?"), parent, []any{"x"}},
		{"what a job leaves", "SELECT 1 FROM tasks t WHERE t.id = ? AND " + notPending("t"), tasks, []any{"x"}},
		{"a job's descendants", `SELECT id FROM tasks_pending WHERE job = ?`, parent, []any{1}},
		{"a job's count", countPendingSQL, parent, []any{"x", "trash", nil, nil}},
	} {
		plan := planOf(t, db, w.query, w.args...)
		_, step, _ := strings.Cut(plan, "RECURSIVE STEP")
		if !strings.Contains(step, w.step) {
			t.Errorf("%s's step is not %q:\n%s", w.name, w.step, plan)
		}
	}
}

// TestWalksEndOnCycles: cycles the API refuses to make (put in place in
// SQL, as a crafted import or old data could) end every walk, each row
// found once: tasks a → b → c → a, projects p ⇄ q, agents bot1 ⇄ bot2.
func TestWalksEndOnCycles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, svc, admin := walkService(t)
	var tasks []app.Task
	for i := range 3 {
		in := app.TaskCreate{Title: fmt.Sprint("t", i)}
		if i > 0 {
			in.Parent = app.FlexRef(fmt.Sprint(tasks[i-1].Ref))
		}
		tk, err := svc.CreateTask(ctx, admin, "", in)
		if err != nil {
			t.Fatal(err)
		}
		tasks = append(tasks, tk)
	}
	a, b, c := tasks[0].ID, tasks[1].ID, tasks[2].ID
	var projects []string
	for _, key := range []string{"p", "q"} {
		p, err := svc.CreateProject(ctx, admin, "", app.ProjectCreate{Key: key, Title: key})
		if err != nil {
			t.Fatal(err)
		}
		projects = append(projects, p.ID)
	}
	if _, err := svc.CreateUser(ctx, admin, app.UserCreate{Username: "bot1", IsServiceAccount: true, AnswersTo: admin.User.Username}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateUser(ctx, admin, app.UserCreate{Username: "bot2", IsServiceAccount: true, AnswersTo: "bot1"}); err != nil {
		t.Fatal(err)
	}
	tok, err := svc.CreateToken(ctx, admin, app.TokenCreate{Title: "bot2", Username: "bot2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`UPDATE tasks SET parent_id = '` + c + `' WHERE id = '` + a + `'`,
		`UPDATE projects SET parent_id = '` + projects[1] + `' WHERE id = '` + projects[0] + `'`,
		`UPDATE projects SET parent_id = '` + projects[0] + `' WHERE id = '` + projects[1] + `'`,
		`UPDATE users SET answers_to = (SELECT id FROM users WHERE username = 'bot2') WHERE username = 'bot1'`} {
		if _, err := db.write.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	chk, err := db.Credential(ctx, tok.Prefix)
	if err != nil || chk.ChainActive {
		t.Errorf("an agent in a cycle: chain active %v (%v), want refused", chk.ChainActive, err)
	}
	err = db.Update(ctx, func(atx app.Tx) error {
		tx := atx.(*Tx)
		got := map[string]any{}
		var errs []error
		collect := func(name string, v any, err error) {
			got[name] = v
			errs = append(errs, err)
		}
		sub, err := tx.TaskSubtree(ctx, a)
		collect("subtree", sub, err)
		n, err := tx.CountPending(ctx, app.JobTrash, a, nil, "")
		collect("pending", n, err)
		up, err := tx.ProjectAncestors(ctx, projects[0])
		collect("ancestors", up, err)
		bot2, err := tx.UserByName(ctx, "bot2")
		collect("responsible", bot2.Responsible, err)
		chain, err := tx.AnswersToChain(ctx, bot2.ID)
		collect("chain", len(chain), err)
		now := tx.Now()
		_, err = tx.SetTasksDeleted(ctx, []string{a}, nil, &now, now)
		errs = append(errs, err, tx.InsertTaskJob(ctx, app.TaskJob{Kind: app.JobTrash, RootID: a, DeletedAt: &now, Event: "{}"}))
		j, err := tx.NextTaskJob(ctx)
		errs = append(errs, err)
		left, err := tx.TaskJobPending(ctx, j.Seq)
		collect("left to the job", left, err)
		near, err := tx.TaskJobNear(ctx, b)
		collect("near the job", near, err)
		var seen int
		err = tx.tx.GetContext(ctx, &seen, `SELECT count(*) FROM tasks t WHERE `+notPending("t"))
		collect("seen", seen, err)
		want := map[string]any{"subtree": []string{a, b, c}, "pending": 2, "ancestors": []string{projects[1]}, "responsible": "",
			"chain": 1, "left to the job": []string{c, b}, "near the job": true, "seen": 1}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("walks on cycles answer\n%v\nwant\n%v", got, want)
		}
		return errors.Join(errs...)
	})
	if err != nil {
		t.Fatal(err)
	}
}
