package main

import (
	"os"
	"runtime/debug"
)

// serveGCPercent is the collector's target heap growth under tend serve
// when the environment sets none. A serving tend keeps a live Go heap of a
// few MiB (SQLite's page cache is not on it), so at Go's default of 100 a
// collection ran every 2–4 MiB allocated, about every 70–150 requests, and
// each one scans the stacks and the globals of the whole binary:
// 20–30 µs a request on a GET that costs 300 (BENCHMARKS.md, "Issue 25:
// where a create's and a GET's time went since df25264"). At 400 it runs a
// fifth as often.
const serveGCPercent = 400

// serveMemoryLimit bounds the heap that serveGCPercent lets grow, when the
// environment sets no GOMEMLIMIT: past it the collector runs as often as it
// must, so a request that holds much (a large import, an export) costs
// collections rather than five times its size in memory.
const serveMemoryLimit = 512 << 20

// tuneGC sets the collector for a long-running server, unless GOGC or
// GOMEMLIMIT say otherwise: they are honoured as Go documents them (an
// empty one is unset, as it is to Go).
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
}
