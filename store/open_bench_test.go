//go:build unix

package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"tend/app"
	"tend/store"
)

// BenchmarkOpenReadClose is what a one-shot command (tend ls, tend add on
// the file) pays to use the database besides its own work: Open with its
// migration check, one read transaction, Close. Each connection parses the
// whole schema as it opens, whatever the rows, so a bootstrapped file
// costs what a 100,000-task one does. cpu-ns/op is the process's CPU time.
func BenchmarkOpenReadClose(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "tend.db")
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := app.New(db, app.Options{Version: "bench"}).Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC", NoToken: true}); err != nil {
		b.Fatal(err)
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := processCPU(b)
	for b.Loop() {
		db, err := store.Open(ctx, path, store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := db.View(ctx, func(tx app.Tx) error { _, err := tx.Instance(ctx); return err }); err != nil {
			b.Fatal(err)
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU(b)-start)/float64(b.N), "cpu-ns/op")
}
