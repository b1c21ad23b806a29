package web_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"tend/app"
	"tend/store"
)

// BenchmarkBurstTrash is issue 39 §3's burst: eight writers create 20,000
// subtasks of one task, and the task is trashed straight after, its
// subtree left to the worker. A prober changes a task's title elsewhere
// over and over from the first create until the worker has nothing left
// (the indexing of the 20,000 tasks' text and the trash of the subtree),
// and times each change from call to answer. The figures are the cheap
// write's p50, p99 and worst time over the whole run and over the part
// after the creates (after-*), and the longest step of bulk work
// (step-max-ms, through app.Options.OnWorkStep; burstOptions). The server's
// options are the real server's (serve.go): task text indexed by the
// worker in batches. TEND_BURST_TASKS changes the 20,000.
func BenchmarkBurstTrash(b *testing.B) {
	tasks, err := strconv.Atoi(os.Getenv("TEND_BURST_TASKS"))
	if err != nil || tasks < 1 {
		tasks = 20_000
	}
	const writers = 8
	for range b.N {
		b.StopTimer()
		ctx := context.Background()
		dir, err := os.MkdirTemp("", "tend-burst-bench-")
		if err != nil {
			b.Fatal(err)
		}
		db, err := store.Open(ctx, filepath.Join(dir, "t.db"), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		steps := &longestStep{}
		svc, admin := benchAdmin(b, db, burstOptions(steps))
		for _, key := range []string{"burst", "elsewhere"} {
			if _, err := svc.CreateProject(ctx, admin, "", app.ProjectCreate{Key: key, Title: key}); err != nil {
				b.Fatal(err)
			}
		}
		root, err := svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: "root", Project: "burst"})
		if err != nil {
			b.Fatal(err)
		}
		probe, err := svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: "probe", Project: "elsewhere"})
		if err != nil {
			b.Fatal(err)
		}
		rootRef, probeRef := strconv.FormatInt(root.Ref, 10), strconv.FormatInt(probe.Ref, 10)
		b.StartTimer()

		type timed struct {
			at   time.Time
			took time.Duration
		}
		stop, out := make(chan struct{}), make(chan []timed)
		go func() {
			var ds []timed
			for i := 0; ; i++ {
				select {
				case <-stop:
					out <- ds
					return
				default:
				}
				start := time.Now()
				if _, err := svc.UpdateTask(ctx, admin, "", probeRef, app.TaskUpdate{Title: app.PatchOf("probe " + strconv.Itoa(i))}); err != nil {
					b.Error(err)
				}
				ds = append(ds, timed{start, time.Since(start)})
			}
		}()
		var wg sync.WaitGroup
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < tasks; i += writers {
					if _, err := svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: "burst task " + strconv.Itoa(i), Project: "burst", Parent: app.FlexRef(rootRef)}); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		created := time.Now()
		if _, err := svc.DeleteTask(ctx, admin, "", rootRef); err != nil {
			b.Fatal(err)
		}
		if err := svc.SettleWork(); err != nil {
			b.Fatal(err)
		}
		done := time.Since(created)
		close(stop)
		probes := <-out
		b.StopTimer()
		svc.StopWork()
		_ = db.Close()
		_ = os.RemoveAll(dir)

		var all, after []time.Duration
		for _, p := range probes {
			all = append(all, p.took)
			if p.at.After(created) {
				after = append(after, p.took)
			}
		}
		report := func(prefix string, ds []time.Duration) {
			if len(ds) == 0 {
				return
			}
			slices.Sort(ds)
			at := func(q float64) float64 { return float64(ds[int(q*float64(len(ds)-1))].Microseconds()) / 1000 }
			b.ReportMetric(at(0.5), prefix+"p50-ms")
			b.ReportMetric(at(0.99), prefix+"p99-ms")
			b.ReportMetric(at(1), prefix+"max-ms")
		}
		report("", all)
		report("after-", after)
		b.ReportMetric(float64(done.Milliseconds()), "trash-done-ms")
		steps.report(b)
	}
}

// longestStep keeps the longest step of bulk work of each kind.
type longestStep struct {
	mu   sync.Mutex
	max  time.Duration
	kind string
	rows int
}

func (l *longestStep) heard(kind string, rows int, took time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if took > l.max {
		l.max, l.kind, l.rows = took, kind, rows
	}
}

func (l *longestStep) report(b *testing.B) {
	if l.kind == "" {
		return
	}
	b.ReportMetric(float64(l.max.Microseconds())/1000, "step-max-ms")
	b.ReportMetric(float64(l.rows), "step-max-rows")
	b.Logf("longest step: %s, %d rows, %s", l.kind, l.rows, l.max)
}
