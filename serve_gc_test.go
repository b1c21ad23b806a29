package main

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC: tend serve sets the collector's growth and a soft memory
// limit when the environment sets neither, and leaves what GOGC and
// GOMEMLIMIT set alone.
func TestTuneGC(t *testing.T) {
	t.Cleanup(func() {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(-1)
	})
	read := func() (percent int, limit int64) {
		percent = debug.SetGCPercent(100)
		debug.SetGCPercent(percent)
		return percent, debug.SetMemoryLimit(-1)
	}

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	debug.SetGCPercent(100)
	tuneGC()
	if p, l := read(); p != serveGCPercent || l != serveMemoryLimit {
		t.Errorf("with neither set: GC percent %d, memory limit %d; want %d, %d", p, l, serveGCPercent, serveMemoryLimit)
	}

	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetGCPercent(50)
	debug.SetMemoryLimit(1 << 30)
	tuneGC()
	if p, l := read(); p != 50 || l != 1<<30 {
		t.Errorf("with GOGC=50 GOMEMLIMIT=1GiB: GC percent %d, memory limit %d; want 50, %d", p, l, 1<<30)
	}
}
