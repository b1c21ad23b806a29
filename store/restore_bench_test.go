package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tend/store"
)

// BenchmarkRestore restores the 100,000-task database web's benchmarks
// seed (TEND_BENCH_SEED names the file they keep it in; BENCHMARKS.md has
// the commands) from a backup, over the live database (checked, its
// predecessor set aside), and from a directory and an S3-protocol replica
// into a new file. Each iteration is one whole tend restore.
func BenchmarkRestore(b *testing.B) {
	seed := os.Getenv("TEND_BENCH_SEED")
	if seed == "" {
		b.Skip("TEND_BENCH_SEED names the seeded 100,000-task database (see BENCHMARKS.md)")
	}
	ctx := b.Context()
	dir := b.TempDir()
	path := filepath.Join(dir, "tend.db")
	copyFile(b, seed, path)
	backup, err := store.BackupFile(ctx, path, "", 0)
	if err != nil {
		b.Fatal(err)
	}
	fileReplica := "file://" + filepath.Join(dir, "replica")
	s3Replica := fakeS3(b, "bench")
	for _, replica := range []string{fileReplica, s3Replica} {
		db, err := store.Open(ctx, path, store.Options{Replica: replica, ReplicaSyncInterval: time.Hour})
		if err != nil {
			b.Fatal(err)
		}
		err = db.SyncReplica(ctx)
		if cerr := db.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			b.Fatal(err)
		}
		// The next replica starts from a database Litestream has not seen.
		if err := os.RemoveAll(filepath.Join(dir, ".tend.db-litestream")); err != nil {
			b.Fatal(err)
		}
	}
	fi, err := os.Stat(filepath.Join(dir, "backups", backup.Name))
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("backup of %.0f MB", float64(fi.Size())/1e6)

	b.Run("backup", func(b *testing.B) {
		for b.Loop() {
			rep, err := store.RestoreFile(ctx, filepath.Join(dir, "backups", backup.Name), path)
			if err != nil {
				b.Fatal(err)
			}
			if rep.Tasks != 100_000 {
				b.Fatalf("restored %d tasks", rep.Tasks)
			}
		}
	})
	for name, replica := range map[string]string{"file": fileReplica, "s3": s3Replica} {
		b.Run(name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				rep, err := store.RestoreReplica(ctx, replica, time.Time{}, filepath.Join(dir, fmt.Sprintf("%s-%d.db", name, i)))
				if err != nil {
					b.Fatal(err)
				}
				if rep.Tasks != 100_000 {
					b.Fatalf("restored %d tasks", rep.Tasks)
				}
			}
		})
	}
}
