package web_test

import (
	"strconv"
	"strings"
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
	doc := s.document(b, "p03")
	for _, p := range []struct{ name, path string }{
		{"today", "/"}, {"tasks", "/tasks"}, {"tasks_filtered", "/tasks?project=p03&ready=true&order=-priority_score"},
		{"board", "/board?project=p03"}, {"task", "/tasks/" + ref}, {"projects", "/projects"}, {"project", "/projects/p03"},
		{"documents", "/documents"}, {"document", "/documents/" + doc},
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

// document files a decision in project (the seed holds no documents), with
// a body of a few paragraphs, and answers its ref.
func (s *seeded) document(b *testing.B, project string) string {
	b.Helper()
	var d struct {
		Ref int64 `json:"ref"`
	}
	s.create(b, "/v1/documents", map[string]any{"title": "How we file work", "type": "decision", "project": project,
		"body": strings.Repeat("We file each task in the project it serves. See #1 and #2.\n\n", 20)}, &d)
	return strconv.FormatInt(d.Ref, 10)
}
