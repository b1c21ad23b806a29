package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// The issue-4 target: writing a task or document with mentions keeps the
// sequential create rate within 20 % of BenchmarkSeededCreateSequential.
// The benchmarks are declared in seed_bench_test.go right after it, so they
// run on the same seeded database in that order.

// mentionBody is createBody's task with a description mentioning two
// seeded tasks, so every create records two mentions.
func mentionBody(s *seeded, i int) []byte {
	a, c := s.refs[(i*7919)%len(s.refs)], s.refs[(i*104729)%len(s.refs)]
	body, _ := json.Marshal(map[string]any{"title": fmt.Sprintf("Follow-up %d", i), "project": fmt.Sprintf("p%02d", i%seedProjects),
		"tags": []string{"bench", fmt.Sprintf("tag%02d", i%seedTags)}, "description": fmt.Sprintf("after #%d, see also #%d", a, c)})
	return body
}

// documentBody is a finding in a project whose body mentions two seeded tasks.
func documentBody(s *seeded, i int) []byte {
	a, c := s.refs[(i*7919)%len(s.refs)], s.refs[(i*104729)%len(s.refs)]
	body, _ := json.Marshal(map[string]any{"title": fmt.Sprintf("Finding %d", i), "type": "finding", "project": fmt.Sprintf("p%02d", i%seedProjects),
		"tags": []string{"bench"}, "body": fmt.Sprintf("## What we saw\n\nThe crash in #%d comes back in #%d.\n", a, c)})
	return body
}

// sequentialCreates POSTs bodies to path one at a time and reports the rate.
func sequentialCreates(b *testing.B, s *seeded, path string, body func(s *seeded, i int) []byte) {
	bodies := make([][]byte, b.N)
	for i := range bodies {
		bodies[i] = body(s, i)
	}
	lat := make(latencies, 0, b.N)
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		t0 := time.Now()
		status, err := post(s.client, s.srv.URL+path, s.token, bodies[i])
		if err != nil || status != http.StatusCreated {
			b.Fatalf("create %d: %d %v", i, status, err)
		}
		lat = append(lat, time.Since(t0))
	}
	took := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/took.Seconds(), "creates/s")
	lat.report(b)
}
