package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
	"tend/web/webtest"
)

// The tests of jobs on a subtree (app/task_job.go; docs/api.md, "Work done
// in steps") share one tree: zebra root with five descendants (a, under it
// a1 and a2, b, c) and a sixth subtask trashed on its own before, which no
// job touches. Every title holds "zebra", for search.
var zebraTitles = []string{"zebra a", "zebra a1", "zebra a2", "zebra b", "zebra c", "zebra gone", "zebra root"}

type zebraTree map[string]map[string]any // title → task as created

func seedZebra(e *env) zebraTree {
	e.T.Helper()
	tr := zebraTree{}
	add := func(title, parent string) {
		body := map[string]any{"title": title, "due_at": "2030-01-02T10:00:00Z"}
		if parent != "" {
			body["parent"] = tr[parent]["ref"]
		}
		tr[title] = e.CreateTask(e.Admin, body)
	}
	add("zebra root", "")
	add("zebra a", "zebra root")
	add("zebra a1", "zebra a")
	add("zebra a2", "zebra a")
	add("zebra b", "zebra root")
	add("zebra c", "zebra root")
	add("zebra gone", "zebra root")
	e.OK(http.StatusOK, http.MethodDelete, tskPath(tr["zebra gone"]), e.Admin, nil)
	e.Clock.Advance(time.Second) // the trash below is at another instant
	return tr
}

// zebraView is what each reader tells of the tree: the titles each listing
// shows, and the events the feed holds on it.
type zebraView struct {
	Live, Side, Trash, Search, Agenda, Gettable []string
	Events                                      []string
}

func readZebra(t *testing.T, e *env, tr zebraTree) zebraView {
	t.Helper()
	titles := func(path string) []string {
		var out []string
		for _, it := range prjItems(t, e.OK(http.StatusOK, http.MethodGet, path, e.Admin, nil)) {
			if title := it["title"].(string); strings.HasPrefix(title, "zebra") {
				out = append(out, title)
			}
		}
		slices.Sort(out)
		return out
	}
	var v zebraView
	v.Live = titles("/v1/tasks?limit=200")
	v.Side = titles("/v1/tasks?limit=200&project=side")
	v.Trash = titles("/v1/tasks?limit=200&deleted=true")
	v.Search = titles("/v1/tasks?limit=200&q=zebra")
	agenda, err := json.Marshal(e.OK(http.StatusOK, http.MethodGet, "/v1/agenda?date=2030-01-02&timezone=UTC", e.Admin, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, title := range zebraTitles {
		if strings.Contains(string(agenda), `"`+title+`"`) {
			v.Agenda = append(v.Agenda, title)
		}
		if e.Do(http.MethodGet, tskPath(tr[title]), e.Admin, nil).Status == http.StatusOK {
			v.Gettable = append(v.Gettable, title)
		}
	}
	for _, ev := range e.allChanges("", e.Admin) {
		title, _ := ev["item_title"].(string)
		if !strings.HasPrefix(title, "zebra") || ev["action"] == "task.created" {
			continue
		}
		ch := ev["changes"].(map[string]any)
		delete(ch, "with") // a ref, the same in both
		if p, ok := ch["project"].(map[string]any); ok {
			ch["project"] = fmt.Sprint(p["to"])
		}
		b, err := json.Marshal(ch)
		if err != nil {
			t.Fatal(err)
		}
		v.Events = append(v.Events, fmt.Sprintf("%s %s %s", ev["action"], title, b))
	}
	slices.Sort(v.Events)
	return v
}

// zebraJob runs op on a tree in steps of 3 (two steps for its five
// descendants: a1, a2 and a, the deepest and then the oldest, then b and
// c) and checks what every reader tells at once (want[0]), between the
// steps (want[1]), at the next start after a stop there (want[1] again)
// and at the end, against the same op on the same tree done in one
// transaction. prepare, when set, runs first, to its end. during runs
// while the job is under way: the refusals.
func zebraJob(t *testing.T, prepare, op func(e *env, tr zebraTree), during func(t *testing.T, e *env, tr zebraTree), want [2]zebraView) {
	t.Helper()
	path, admin := bootstrappedFile(t)
	var gated atomic.Bool
	entered, gate := make(chan struct{}), make(chan error)
	e := zebraEnv(t, path, admin, 3, func() error {
		if !gated.Load() {
			return nil
		}
		entered <- struct{}{}
		return <-gate
	})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "side", "title": "Side"})
	tr := seedZebra(e)
	if prepare != nil {
		prepare(e, tr)
		if err := e.Svc.SettleWork(); err != nil {
			t.Fatal(err)
		}
	}
	jobs := func() int { return rowCount(t, path, `SELECT count(*) FROM task_jobs`) }
	check := func(name string, e *env, want zebraView) {
		t.Helper()
		if got := readZebra(t, e, tr); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s, readers tell\n%+v\nwant\n%+v", name, got, want)
		}
	}
	gated.Store(true)
	op(e, tr)
	<-entered
	if jobs() != 1 {
		t.Fatalf("%d jobs kept for a subtree of five in steps of three, want 1", jobs())
	}
	check("at once", e, want[0])
	during(t, e, tr)
	gate <- nil
	<-entered
	check("between steps", e, want[1])
	// A descendant reached is still inside the job's subtree: it refuses
	// to be trashed, or restored, until the job is done.
	if reached := tskPath(tr["zebra a"]); slices.Contains(want[1].Gettable, "zebra a") {
		e.Problem(http.StatusConflict, "conflict", http.MethodDelete, reached, e.Admin, nil)
	} else {
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, reached+"/restore", e.Admin, nil)
	}
	killWorker(t, e, gate)

	e = zebraEnv(t, path, admin, 3, nil)
	check("at the next start", e, want[1])
	finishWork(t, e)
	if jobs() != 0 {
		t.Fatalf("%d jobs left after the work", jobs())
	}
	got := readZebra(t, e, tr)

	// The same in one transaction: a step larger than the subtree.
	onePath := filepath.Join(t.TempDir(), "one.db")
	one := zebraEnv(t, onePath, webtest.CopyBootstrapped(t, onePath), 100, nil)
	one.OK(http.StatusCreated, http.MethodPost, "/v1/projects", one.Admin, map[string]any{"key": "side", "title": "Side"})
	tr1 := seedZebra(one)
	if prepare != nil {
		prepare(one, tr1)
	}
	op(one, tr1)
	if n := rowCount(t, onePath, `SELECT count(*) FROM task_jobs`); n != 0 {
		t.Fatalf("%d jobs kept for a subtree within one step", n)
	}
	if want := readZebra(t, one, tr1); !reflect.DeepEqual(got, want) {
		t.Fatalf("in steps the end is\n%+v\nin one transaction\n%+v", got, want)
	}
}

// zebraEnv is bulkEnv on a fixed clock at storetest.Epoch: the trash
// tells instants apart by the clock.
func zebraEnv(t *testing.T, path, admin string, stepRows int, before func() error) *env {
	t.Helper()
	clock := &storetest.Clock{}
	clock.Set(storetest.Epoch)
	db, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Now = clock.Now
	t.Cleanup(func() { _ = db.Close() })
	svc := app.New(db, app.Options{Version: "test", BulkStepRows: stepRows, SubtreeStepRows: stepRows, BeforeWorkStep: before})
	return &env{&webtest.Env{T: t, DB: db, Clock: clock, Svc: svc, Srv: webtest.Serve(t, svc), Admin: admin}}
}

// duringJob is what every job refuses while it runs: a pending descendant
// answers not_found to every request, as if it did not exist, so nothing
// done to it is lost; the root, and any task whose subtree holds a job,
// cannot be trashed, restored or moved (409 conflict).
func duringJob(pending string, refused ...[3]string) func(t *testing.T, e *env, tr zebraTree) {
	return func(t *testing.T, e *env, tr zebraTree) {
		p := tskPath(tr[pending])
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, p, e.Admin, nil)
		e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, p, e.Admin, map[string]any{"title": "edited"})
		e.Problem(http.StatusNotFound, "not_found", http.MethodPost, p+"/complete", e.Admin, nil)
		e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, p, e.Admin, nil)
		e.Problem(http.StatusNotFound, "not_found", http.MethodPost, p+"/restore", e.Admin, nil)
		e.Problem(http.StatusNotFound, "not_found", http.MethodPost, p+"/move", e.Admin, map[string]any{"project": "side"})
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tasks", e.Admin,
			map[string]any{"title": "under", "parent": tr[pending]["ref"]})
		for _, r := range refused {
			var body any
			if r[2] != "" {
				body = map[string]any{"project": r[2]}
			}
			e.Problem(http.StatusConflict, "conflict", r[0], tskPath(tr["zebra root"])+r[1], e.Admin, body)
		}
	}
}

// The events every tree starts with: the subtask trashed on its own.
var zebraGone = "task.deleted zebra gone {\"subtasks\":0}"

// zebraEvents is the events before a job and, for each of titles the
// worker has reached, its action with changes, sorted.
func zebraEvents(before []string, action, changes string, titles ...string) []string {
	out := slices.Clone(before)
	for _, title := range titles {
		out = append(out, action+" "+title+" "+changes)
	}
	slices.Sort(out)
	return out
}

// TestSubtreeTrashInSteps: trashing a task with more descendants than a
// step changes the root at once and leaves them to the worker; until it
// reaches one, no reader sees it (not live, not in the trash, not found);
// it shows in the trash with its event as it is reached. A stop between
// steps is finished at the next start, and the end is what one
// transaction makes.
func TestSubtreeTrashInSteps(t *testing.T) {
	t.Parallel()
	root := "task.deleted zebra root {\"subtasks\":5}"
	along := func(titles ...string) []string {
		return zebraEvents([]string{zebraGone, root}, "task.deleted", "{}", titles...)
	}
	zebraJob(t, nil, func(e *env, tr zebraTree) {
		e.OK(http.StatusOK, http.MethodDelete, tskPath(tr["zebra root"]), e.Admin, nil)
	}, duringJob("zebra b", [3]string{http.MethodPost, "/restore"}), [2]zebraView{
		{Trash: []string{"zebra gone", "zebra root"}, Events: along()},
		{Trash: []string{"zebra a", "zebra a1", "zebra a2", "zebra gone", "zebra root"}, Events: along("zebra a", "zebra a1", "zebra a2")},
	})
}

// TestSubtreeRestoreInSteps: restoring such a task brings the root back at
// once; the descendants trashed with it stay out of every reading, the
// trash included, until the worker brings each back.
func TestSubtreeRestoreInSteps(t *testing.T) {
	t.Parallel()
	trashed := zebraEvents([]string{zebraGone, "task.deleted zebra root {\"subtasks\":5}"}, "task.deleted", "{}",
		"zebra a", "zebra a1", "zebra a2", "zebra b", "zebra c")
	restored := append(trashed, "task.restored zebra root {\"subtasks\":5}")
	along := func(titles ...string) []string { return zebraEvents(restored, "task.restored", "{}", titles...) }
	live := func(titles ...string) []string { return append(titles, "zebra root") }
	zebraJob(t, func(e *env, tr zebraTree) {
		e.OK(http.StatusOK, http.MethodDelete, tskPath(tr["zebra root"]), e.Admin, nil)
	}, func(e *env, tr zebraTree) {
		e.OK(http.StatusOK, http.MethodPost, tskPath(tr["zebra root"])+"/restore", e.Admin, nil)
	}, duringJob("zebra b", [3]string{http.MethodDelete, ""}, [3]string{http.MethodPost, "/move", "side"}), [2]zebraView{
		{Live: live(), Trash: []string{"zebra gone"}, Search: live(), Agenda: []string{"zebra root"}, Gettable: live(), Events: along()},
		{Live: live("zebra a", "zebra a1", "zebra a2"), Trash: []string{"zebra gone"}, Search: live("zebra a", "zebra a1", "zebra a2"),
			Agenda: []string{"zebra a", "zebra a1", "zebra a2", "zebra root"}, Gettable: live("zebra a", "zebra a1", "zebra a2"),
			Events: along("zebra a", "zebra a1", "zebra a2")},
	})
}

// TestSubtreeRefileInSteps: refiling such a task into another project
// moves the root at once; each descendant shows, in the new project, as
// the worker reaches it, and is seen nowhere before: the subtask in the
// trash too, which is refiled with the rest.
func TestSubtreeRefileInSteps(t *testing.T) {
	t.Parallel()
	moved := "{\"project\":\"side\"}"
	along := func(titles ...string) []string {
		return zebraEvents([]string{zebraGone, "task.moved zebra root " + moved}, "task.moved", moved, titles...)
	}
	reached := []string{"zebra a", "zebra a1", "zebra a2", "zebra root"}
	zebraJob(t, nil, func(e *env, tr zebraTree) {
		e.OK(http.StatusOK, http.MethodPost, tskPath(tr["zebra root"])+"/move", e.Admin, map[string]any{"project": "side"})
	}, duringJob("zebra b", [3]string{http.MethodDelete, ""}, [3]string{http.MethodPost, "/move", "inbox"}), [2]zebraView{
		{Live: []string{"zebra root"}, Side: []string{"zebra root"}, Search: []string{"zebra root"},
			Agenda: []string{"zebra root"}, Gettable: []string{"zebra root"}, Events: along()},
		{Live: reached, Side: reached, Search: reached, Agenda: reached, Gettable: reached,
			Events: along("zebra a", "zebra a1", "zebra a2")},
	})
}

// TestSubtreeJobAnswers: a request that leaves its subtree to a job
// (steps of three here) answers the task as it is once changed, with no
// subtasks: they are all still to change, seen by no reader until the
// worker reaches them; its transaction never counts them. The same
// requests within one step (steps of 100) count them as ever.
func TestSubtreeJobAnswers(t *testing.T) {
	t.Parallel()
	for _, step := range []int{3, 100} {
		t.Run(fmt.Sprint("steps of ", step), func(t *testing.T) {
			t.Parallel()
			path, admin := bootstrappedFile(t)
			e := zebraEnv(t, path, admin, step, nil)
			e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "side", "title": "Side"})
			tr := seedZebra(e)
			root := tskPath(tr["zebra root"])
			home := fmt.Sprint(tr["zebra root"]["project"])
			n := 3 // zebra a, b and c, live
			if step == 3 {
				n = 0
			}
			for _, r := range []struct {
				method, path string
				body         map[string]any
				subtasks     int
			}{
				{http.MethodDelete, root, nil, 0},
				{http.MethodPost, root + "/restore", nil, n},
				{http.MethodPost, root + "/move", map[string]any{"project": "side"}, n},
				{http.MethodPatch, root, map[string]any{"project": home}, n},
			} {
				got := e.OK(http.StatusOK, r.method, r.path, e.Admin, r.body)
				if got["sub_tasks"] != float64(r.subtasks) || got["sub_tasks_done"] != (r.subtasks == 0) {
					t.Fatalf("%s %s answers sub_tasks %v, sub_tasks_done %v; want %d", r.method, r.path, got["sub_tasks"], got["sub_tasks_done"], r.subtasks)
				}
				if err := e.Svc.SettleWork(); err != nil {
					t.Fatal(err)
				}
				if jobs := rowCount(t, path, `SELECT count(*) FROM task_jobs`); jobs != 0 {
					t.Fatalf("%d jobs left after the work", jobs)
				}
			}
		})
	}
}
