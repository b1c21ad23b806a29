package web_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"tend/app"
	"tend/store"
	"tend/web/wire"
)

// The export and import of the 100,000-task database the other benchmarks
// seed (TEND_BENCH_SEED names where it is kept; BENCHMARKS.md, "Export
// and import", has the commands and the figures). Each iteration is one
// whole export of every workspace to a file, or one whole import of that
// file into a database no tend serve set up.

// benchSeedCopy opens a copy of the seeded database, skipping without one.
func benchSeedCopy(b *testing.B) (*store.DB, *app.Service) {
	seed := os.Getenv("TEND_BENCH_SEED")
	if _, err := os.Stat(seed); seed == "" || err != nil {
		b.Skip("TEND_BENCH_SEED names the seeded 100,000-task database (see BENCHMARKS.md)")
	}
	path := filepath.Join(b.TempDir(), "seed.db")
	if err := copyFile(seed, path); err != nil {
		b.Fatal(err)
	}
	db, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	return db, app.New(db, app.Options{Version: "bench"})
}

// exportTo writes svc's whole export to path.
func exportTo(b *testing.B, svc *app.Service, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := svc.Export(context.Background(), app.SystemActor("cli"), "", wire.NewExportEncoder(f, nil)); err != nil {
		b.Fatal(err)
	}
}

// peakHeap samples the Go heap's live and unswept objects while f runs
// and returns the largest (runtime/metrics: no stop of the world, unlike
// ReadMemStats).
func peakHeap(f func()) uint64 {
	var peak uint64
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			select {
			case <-done:
				return
			case <-t.C:
				metrics.Read(s)
				mu.Lock()
				peak = max(peak, s[0].Value.Uint64())
				mu.Unlock()
			}
		}
	}()
	f()
	close(done)
	mu.Lock()
	defer mu.Unlock()
	return peak
}

func BenchmarkExport(b *testing.B) {
	_, svc := benchSeedCopy(b)
	out := filepath.Join(b.TempDir(), "export.jsonl")
	var peak uint64
	for b.Loop() {
		peak = max(peak, peakHeap(func() { exportTo(b, svc, out) }))
	}
	fi, err := os.Stat(out)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(fi.Size())/1e6, "file-MB")
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
}

func BenchmarkImport(b *testing.B) {
	_, svc := benchSeedCopy(b)
	dir := b.TempDir()
	file := filepath.Join(dir, "export.jsonl")
	exportTo(b, svc, file)
	i := 0
	var peak uint64
	for b.Loop() {
		i++
		db, err := store.Open(context.Background(), filepath.Join(dir, "import-"+string(rune('a'+i))+".db"), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		f, err := os.Open(file)
		if err != nil {
			b.Fatal(err)
		}
		var rep app.ImportReport
		peak = max(peak, peakHeap(func() {
			rep, err = app.New(db, app.Options{Version: "bench"}).Import(context.Background(), app.SystemActor("cli"),
				wire.NewExportDecoder(bufio.NewReader(f)), false)
		}))
		_ = f.Close()
		if err != nil {
			b.Fatal(err)
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		if len(rep.Workspaces) == 0 {
			b.Fatalf("report %+v", rep)
		}
	}
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
}
