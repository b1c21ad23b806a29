package web_test

import "tend/app"

// burstOptions are the real server's options for BenchmarkBurstTrash, with
// every step of bulk work told to steps. A build before OnWorkStep has
// this file without it to measure the cheap write alone.
func burstOptions(steps *longestStep) app.Options {
	return app.Options{Version: "bench", TaskIndexBatch: app.DefaultTaskIndexBatch, TaskIndexQuiet: app.DefaultTaskIndexQuiet,
		OnWorkStep: steps.heard}
}
