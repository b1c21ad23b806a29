//go:build unix

package store_test

import (
	"context"
	"strconv"
	"syscall"
	"testing"
	"time"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
)

// writeBench is a bootstrapped database with one task, one document and
// one project made through the Service, the rows the write benchmarks
// copy: the statements the column tables build, timed without HTTP and
// without the Service's own work.
type writeBench struct {
	ctx   context.Context
	db    *store.DB
	svc   *app.Service
	admin app.Actor
	task  app.Task
	doc   app.Document
	proj  app.Project
}

func newWriteBench(b *testing.B) *writeBench {
	b.Helper()
	ctx := context.Background()
	db := storetest.Open(b)
	svc, admin, _ := storetest.Admin(b, db, app.Options{Version: "bench"}, "bench")
	three, due := 3, storetest.Epoch.Add(48*time.Hour)
	task, err := svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: "Pay rent", Description: "by transfer",
		Tags: []string{"home"}, Importance: &three, DueAt: &due, EstimateMinutes: &three})
	if err != nil {
		b.Fatal(err)
	}
	body := "The plan, in a few words."
	doc, err := svc.CreateDocument(ctx, admin, "", app.DocumentCreate{Title: "Plan", Body: &body})
	if err != nil {
		b.Fatal(err)
	}
	pv, err := svc.CreateProject(ctx, admin, "", app.ProjectCreate{Key: "bench", Title: "Bench"})
	if err != nil {
		b.Fatal(err)
	}
	return &writeBench{ctx: ctx, db: db, svc: svc, admin: admin, task: task, doc: doc, proj: pv.Project}
}

// run times one write transaction per iteration. Besides the wall time,
// which the commit's syscalls dominate and other work on the machine
// stretches, it reports the process's CPU time per write (cpu-ns/op), which
// is what building and binding a statement costs.
func (w *writeBench) run(b *testing.B, write func(tx app.Tx, i int) error) {
	timeCPU(b, func(i int) error { return w.db.Update(w.ctx, func(tx app.Tx) error { return write(tx, i) }) })
}

// timeCPU times b.N calls of op, reporting the process's CPU time per call
// (cpu-ns/op) beside the wall time.
func timeCPU(b *testing.B, op func(i int) error) {
	b.ReportAllocs()
	b.ResetTimer()
	start := processCPU(b)
	for i := 0; i < b.N; i++ {
		if err := op(i); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU(b)-start)/float64(b.N), "cpu-ns/op")
}

// runInOne times the writes of every iteration in one transaction: the
// statements without the commit, whose syscalls stretch with the load on
// the machine and dwarf what building and binding a statement costs.
func (w *writeBench) runInOne(b *testing.B, write func(tx app.Tx, i int) error) {
	b.ReportAllocs()
	b.ResetTimer()
	err := w.db.Update(w.ctx, func(tx app.Tx) error {
		for i := 0; i < b.N; i++ {
			if err := write(tx, i); err != nil {
				return err
			}
		}
		b.StopTimer()
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// processCPU is the user and system time the process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCreateTask makes the bench/ab.sh structured create (title,
// project, two tags, importance, estimate) through the Service, one a
// transaction, without HTTP: the statements TestCreateWALPages counts, the
// Service's work around them and the commit.
func BenchmarkCreateTask(b *testing.B) {
	w := newWriteBench(b)
	four, fifteen := 4, 15
	in := app.TaskCreate{Title: "Call the plumber about the leak", Project: "bench", Tags: []string{"home", "errand"},
		Importance: &four, EstimateMinutes: &fifteen}
	timeCPU(b, func(int) error {
		_, err := w.svc.CreateTask(w.ctx, w.admin, "", in)
		return err
	})
}

// insertTask stores a new task, the i-th of the benchmark.
func (w *writeBench) insertTask(tx app.Tx, i int) error {
	k := w.task
	k.ID, k.Ref = "bench-"+strconv.Itoa(i), int64(1000+i)
	return tx.InsertTask(w.ctx, &k)
}

// updateTask stores every changeable field of the one task, the i-th time.
func (w *writeBench) updateTask(tx app.Tx, i int) error {
	k := w.task
	k.Title, k.Version = "Pay rent "+strconv.Itoa(i), i+2
	return tx.UpdateTask(w.ctx, &k)
}

// BenchmarkInsertTask stores a new task a transaction.
func BenchmarkInsertTask(b *testing.B) {
	w := newWriteBench(b)
	w.run(b, w.insertTask)
}

// BenchmarkInsertTaskStatement is BenchmarkInsertTask without the commits.
func BenchmarkInsertTaskStatement(b *testing.B) {
	w := newWriteBench(b)
	w.runInOne(b, w.insertTask)
}

// BenchmarkUpdateTaskStatement is BenchmarkUpdateTask without the commits.
func BenchmarkUpdateTaskStatement(b *testing.B) {
	w := newWriteBench(b)
	w.runInOne(b, w.updateTask)
}

// BenchmarkUpdateTask stores every changeable field of one task a
// transaction.
func BenchmarkUpdateTask(b *testing.B) {
	w := newWriteBench(b)
	w.run(b, w.updateTask)
}

// BenchmarkInsertDocument stores a new document a transaction.
func BenchmarkInsertDocument(b *testing.B) {
	w := newWriteBench(b)
	w.run(b, func(tx app.Tx, i int) error {
		d := w.doc
		d.ID, d.Ref = "bench-"+strconv.Itoa(i), int64(1000+i)
		return tx.InsertDocument(w.ctx, &d)
	})
}

// BenchmarkUpdateDocument stores every changeable field of one document a
// transaction.
func BenchmarkUpdateDocument(b *testing.B) {
	w := newWriteBench(b)
	w.run(b, func(tx app.Tx, i int) error {
		d := w.doc
		d.Title, d.Version = "Plan "+strconv.Itoa(i), i+2
		return tx.UpdateDocument(w.ctx, &d)
	})
}

// BenchmarkUpdateProject stores a project's changeable fields a
// transaction.
func BenchmarkUpdateProject(b *testing.B) {
	w := newWriteBench(b)
	w.run(b, func(tx app.Tx, i int) error {
		p := w.proj
		p.Title, p.Version = "Bench "+strconv.Itoa(i), i+2
		return tx.UpdateProject(w.ctx, &p)
	})
}
