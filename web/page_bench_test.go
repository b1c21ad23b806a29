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

// BenchmarkSeededViews renders Tasks and Today on the seeded workspace
// without saved views, then with five, whose counts the top bar reads on
// every page: the cost of the bar (BENCHMARKS.md, "Saved views in the top
// bar"). The views are the seeded instance's from then on.
func BenchmarkSeededViews(b *testing.B) {
	s := seededEnv(b)
	pages := func(label string) {
		for _, p := range []struct{ name, path string }{{"tasks", "/tasks"}, {"today", "/"}} {
			b.Run(p.name+"_"+label, func(b *testing.B) {
				lat := make(latencies, 0, b.N)
				for range b.N {
					_, took := s.get(b, p.path)
					lat = append(lat, took)
				}
				lat.report(b)
			})
		}
	}
	pages("0_views")
	for i, q := range []string{"project=p03", "ready=true&order=-priority_score", "tag=tag07", "status_category=in_progress", "due_before=friday&order=due_at"} {
		s.create(b, "/v1/views", map[string]any{"name": "view " + strconv.Itoa(i), "query": q}, &struct{}{})
	}
	pages("5_views")
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
