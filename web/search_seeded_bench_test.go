package web_test

import (
	"net/url"
	"strings"
	"testing"
)

// BenchmarkSeededSearch is q on GET /v1/tasks over the seeded workspace of
// 100,000 tasks (seed_bench_test.go), a page of 50, and reports each
// search's latencies and the CPU a request costs. "narrow" is one task's
// whole title (a finished task: the listing leaves it out), "one" an open
// one's (no longer number starts with its last word, so a prefix finds
// no more), "typing" the narrow one cut short as a person types it, "tag" a
// word in a fortieth of the titles, "broad" a word in all of them.
func BenchmarkSeededSearch(b *testing.B) {
	s := seededEnv(b)
	for _, c := range []struct{ name, q string }{
		{"narrow", "seeded task 4242"}, {"one", "seeded task 42420"}, {"typing", "seeded task 424"}, {"tag", "tag07"}, {"broad", "seeded"},
	} {
		b.Run(c.name, func(b *testing.B) {
			path := "/v1/tasks?limit=50&q=" + url.QueryEscape(c.q)
			lat := make(latencies, 0, b.N)
			hits := 0
			cpu := reportCPU(b)
			for range b.N {
				body, took := s.get(b, path)
				lat = append(lat, took)
				hits += strings.Count(string(body), `"relevance":`)
			}
			cpu()
			lat.report(b)
			b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
		})
	}
}
