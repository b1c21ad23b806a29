package web_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkChangesPage reads pages of 100 from the change feed and the
// journal of the shared seeded database (seed_bench_test.go: 100,000 task
// creates and 20,000 link creates through the Service, so about 120,000
// events in 50 projects), and reports each kind of page's p50 and p99.
//
//	since:       GET /v1/changes?since=<random seq>&limit=100, the polling read
//	newest:      GET /v1/changes?limit=100, the newest page
//	journal:     GET /v1/journal?limit=100, names and changes spelled out
//	one_project: the polling read by a credential narrowed to one of the 50
//	             projects, which must pass over the other projects' events
func BenchmarkChangesPage(b *testing.B) {
	s := seededEnv(b)
	var last struct {
		Items []struct {
			Seq int64 `json:"seq"`
		} `json:"items"`
	}
	body, _ := s.get(b, "/v1/changes?limit=1")
	if err := json.Unmarshal(body, &last); err != nil || len(last.Items) != 1 {
		b.Fatalf("newest event: %v %s", err, body)
	}
	maxSeq := last.Items[0].Seq
	narrowed := issueBenchToken(b, s, map[string]any{"title": "one project", "project_scope": []string{"p07"}})
	rng := rand.New(rand.NewPCG(5, 6))
	// Far enough from the end that a full page follows, even for the
	// narrowed credential, which sees about a tenth of the events.
	since := func() string { return fmt.Sprintf("since=%d&", 1+rng.Int64N(maxSeq-20_000)) }
	for _, c := range []struct {
		name  string
		token string
		query func() string
	}{
		{"since", s.token, func() string { return "/v1/changes?" + since() + "limit=100" }},
		{"newest", s.token, func() string { return "/v1/changes?limit=100" }},
		{"journal", s.token, func() string { return "/v1/journal?limit=100" }},
		{"one_project", narrowed, func() string { return "/v1/changes?" + since() + "limit=100" }},
	} {
		b.Run(c.name, func(b *testing.B) {
			lat := make(latencies, 0, b.N)
			b.ResetTimer()
			for range b.N {
				lat = append(lat, pageGet(b, s, c.query(), c.token))
			}
			b.StopTimer()
			lat.report(b)
		})
	}
}

// issueBenchToken issues a credential for the seeded administrator.
func issueBenchToken(b *testing.B, s *seeded, body map[string]any) string {
	var issued struct {
		Token string `json:"token"`
	}
	s.create(b, "/v1/tokens", body, &issued)
	return issued.Token
}

// pageGet reads one page as the credential token and fails the benchmark
// on a page short of 100; it answers how long the exchange took.
func pageGet(b *testing.B, s *seeded, path, token string) time.Duration {
	as := *s
	as.token = token
	body, took := as.get(b, path)
	var page pageAnswer
	if err := json.Unmarshal(body, &page); err != nil || len(page.Items) != 100 {
		b.Fatalf("GET %s: %d items (%v)", path, len(page.Items), err)
	}
	return took
}
