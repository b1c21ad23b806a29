package app_test

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"tend/app"
)

// TestStepsSizedByTime: steps of bulk work are sized by the time the last
// ones took, as the step clock tells it. Here every step takes 80 ms by
// that clock against a budget of 20 ms: indexing the text of 700 tasks
// starts at an eighth of app.TaskIndexStepRows and each step after takes
// a quarter of the one before, down to the floor of 16; every task is
// indexed all the same. No step waits on a real clock.
func TestStepsSizedByTime(t *testing.T) {
	var mu sync.Mutex
	var now time.Time
	var rows []int
	f := newFixtureWith(t, app.Options{Version: "test", StepBudget: 20 * time.Millisecond,
		StepClock: func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			now = now.Add(80 * time.Millisecond) // a step reads it twice: 80 ms apart
			return now
		},
		OnWorkStep: func(kind string, n int, took time.Duration) {
			if kind != app.StepTaskIndex || took != 80*time.Millisecond {
				t.Errorf("step %s of %d rows took %s; want task_index steps of 80ms", kind, n, took)
			}
			mu.Lock()
			rows = append(rows, n)
			mu.Unlock()
		}})
	const tasks = 700
	for i := range tasks {
		f.task(f.admin, app.TaskCreate{Title: "walrus " + strconv.Itoa(i)})
	}
	if found := must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{Q: "walrus"}))(t); len(found.Items) == 0 {
		t.Error("a search found none of the tasks indexed")
	}
	mu.Lock()
	defer mu.Unlock()
	want := []int{app.TaskIndexStepRows / 8} // then a quarter of 62: the floor
	if len(rows) < len(want)+1 {
		t.Fatalf("steps of %v rows; want them to start %v", rows, want)
	}
	sum := 0
	for i, n := range rows {
		sum += n
		switch {
		case i < len(want) && n != want[i]:
			t.Errorf("step %d took %d rows, want %d (steps %v)", i, n, want[i], rows)
		case i >= len(want) && n > 16:
			t.Errorf("step %d took %d rows, want the floor of 16 at most (steps %v)", i, n, rows)
		}
	}
	if sum != tasks {
		t.Errorf("steps indexed %d tasks, want %d", sum, tasks)
	}
}
