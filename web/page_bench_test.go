package web_test

import (
	"strconv"
	"testing"
)

// BenchmarkSeededPages renders each page of the web app on the seeded
// workspace of 100,000 tasks (seed_bench_test.go), authenticated as its
// administrator, and reports each page's latencies over loopback and the
// CPU time a request costs (client and server), which other load on the
// machine disturbs far less.
func BenchmarkSeededPages(b *testing.B) {
	s := seededEnv(b)
	ref := strconv.FormatInt(s.refs[len(s.refs)/2], 10)
	for _, p := range []struct{ name, path string }{
		{"today", "/"}, {"tasks", "/tasks"}, {"tasks_filtered", "/tasks?project=p03&ready=true&order=-priority_score"},
		{"board", "/board?project=p03"}, {"task", "/tasks/" + ref}, {"projects", "/projects"},
		{"search", "/search?q=seeded"}, {"search_narrow", "/search?q=seeded+task+4242"}, {"account", "/account"},
	} {
		b.Run(p.name, func(b *testing.B) {
			lat := make(latencies, 0, b.N)
			cpu := reportCPU(b)
			for range b.N {
				_, took := s.get(b, p.path)
				lat = append(lat, took)
			}
			cpu()
			lat.report(b)
		})
	}
}
