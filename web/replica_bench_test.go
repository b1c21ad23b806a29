package web_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"tend/app"
	"tend/store"
)

// BenchmarkReplicaSingleWriter measures what continuous replication costs
// one writer (issue 39 §3): one client creating tasks one after another
// through the Service, on a fresh database without a replica ("none") and
// with a file replica at the default interval ("file"). Run it with
// TEND_BENCH_ROUNDS (default 3): each round runs both sides, one after the
// other, so that a machine getting busier weighs on both. The figures are
// creates/s, the writer's total and longest wait for the writer connection
// (wait-ms, max-wait-ms: the checkpoint's write lock shows there) and the
// log's size at the end (wal-MB: it stays bounded).
func BenchmarkReplicaSingleWriter(b *testing.B) {
	rounds, err := strconv.Atoi(os.Getenv("TEND_BENCH_ROUNDS"))
	if err != nil || rounds < 1 {
		rounds = 3
	}
	for range rounds {
		for _, side := range []string{"none", "file"} {
			b.Run(side, func(b *testing.B) { replicaSingleWriter(b, side) })
		}
	}
}

func replicaSingleWriter(b *testing.B, side string) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "tend-replica-bench-")
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = os.RemoveAll(dir) }()
	var waited, longest time.Duration
	opts := store.Options{OnWriterWait: func(d time.Duration) { waited += d; longest = max(longest, d) }}
	if side == "file" {
		opts.Replica = "file://" + filepath.Join(dir, "replica")
	}
	db, err := store.Open(ctx, filepath.Join(dir, "t.db"), opts)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	svc, admin := benchAdmin(b, db, app.Options{Version: "bench"})
	if _, err := svc.CreateProject(ctx, admin, "", app.ProjectCreate{Key: "p", Title: "p"}); err != nil {
		b.Fatal(err)
	}
	if side == "file" {
		if err := db.SyncReplica(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		if _, err := svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: "Benchmark task " + strconv.Itoa(i), Project: "p", Tags: []string{"bench"}}); err != nil {
			b.Fatal(err)
		}
	}
	took := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/took.Seconds(), "creates/s")
	b.ReportMetric(float64(waited.Microseconds())/1000, "wait-ms")
	b.ReportMetric(float64(longest.Microseconds())/1000, "max-wait-ms")
	if _, wal, err := db.FileSizes(); err == nil {
		b.ReportMetric(float64(wal)/(1<<20), "wal-MB")
	}
}

// benchAdmin makes a Service over db with opts, makes its instance and
// signs its administrator in.
func benchAdmin(b *testing.B, db *store.DB, opts app.Options) (*app.Service, app.Actor) {
	b.Helper()
	ctx := context.Background()
	svc := app.New(db, opts)
	first, err := svc.Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC"})
	if err != nil {
		b.Fatal(err)
	}
	admin, err := svc.Authenticate(ctx, first.Token.Secret, "bench")
	if err != nil {
		b.Fatal(err)
	}
	return svc, admin
}
