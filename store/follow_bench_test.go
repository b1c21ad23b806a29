package store_test

import (
	"path/filepath"
	"testing"
	"time"

	"tend/app"
)

// BenchmarkFollowApply measures a standby applying the primary's changes:
// each operation is one task created on the primary and shipped in a file
// of its own, then applied on the standby as one transaction. Only the
// applying is timed.
func BenchmarkFollowApply(b *testing.B) {
	ctx := b.Context()
	replica := "file://" + filepath.Join(b.TempDir(), "replica")
	primary, svc, s := replicated(b, replica)
	if err := primary.SyncReplica(ctx); err != nil {
		b.Fatal(err)
	}
	standby := follower(b, replica, filepath.Join(b.TempDir(), "standby.db"))
	const batch = 100
	var applying time.Duration
	pages0 := standby.FollowPages()
	for n := 0; n < b.N; n += batch {
		b.StopTimer()
		for i := range min(batch, b.N-n) {
			if _, err := svc.CreateTask(ctx, s.admin, s.ws, app.TaskCreate{Title: "followed " + string(rune('a'+i%26))}); err != nil {
				b.Fatal(err)
			}
			if err := primary.SyncReplica(ctx); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		start := time.Now()
		if _, err := standby.FollowStep(ctx, 0); err != nil {
			b.Fatal(err)
		}
		applying += time.Since(start)
	}
	b.ReportMetric(float64(b.N)/applying.Seconds(), "tx/s")
	b.ReportMetric(float64(standby.FollowPages()-pages0)/applying.Seconds(), "pages/s")
}
