package web_test

import (
	"context"
	"testing"
)

// BenchmarkSeededToday is the Today page (the agenda) of the seeded
// workspace of 100,000 tasks: "read" as BenchmarkSeededPages/today, and
// "after-a-write" with one task changed before each request, so every
// request merges a change into the open tasks kept in memory
// (BENCHMARKS.md, "The agenda").
func BenchmarkSeededToday(b *testing.B) {
	s := seededEnv(b)
	admin, err := s.svc.Authenticate(context.Background(), s.token, "bench")
	if err != nil {
		b.Fatal(err)
	}
	benchReadsAndWrites(b, s, admin, "/", s.refs)
}
