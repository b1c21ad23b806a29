package web_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"tend/app"
)

// BenchmarkAgenda10k is GET /v1/agenda for a reader with 10,000 open tasks
// in 10 projects: a third dated (all-day and timed, from 20 days ago to 40
// days on), a tenth in progress, a tenth events, a tenth assigned to
// someone else, 1,000 "blocks" links. It reports the per-request p50 and
// p99 over loopback, as the seeded benchmarks do (BENCHMARKS.md, "The
// agenda"): "read" asks again and again while nothing changes, as a person
// reloading the page does; "after-a-write" changes one task before each
// request, so every request merges a change into the open tasks the store
// keeps in memory.
func BenchmarkAgenda10k(b *testing.B) {
	dir := b.TempDir()
	s, admin, err := openBenchServer(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer s.close()
	ctx := context.Background()
	refs, err := seedAgenda(ctx, s.svc, admin)
	if err != nil {
		b.Fatal(err)
	}
	benchReadsAndWrites(b, s, admin, "/v1/agenda?timezone=Pacific/Auckland", refs)
}

// benchReadsAndWrites measures GET path as "read", again and again while
// nothing changes, and as "after-a-write", with the importance of one of
// refs changed before each request (the write not timed).
func benchReadsAndWrites(b *testing.B, s *seeded, admin app.Actor, path string, refs []int64) {
	ctx := context.Background()
	for _, write := range []bool{false, true} {
		name := "read"
		if write {
			name = "after-a-write"
		}
		b.Run(name, func(b *testing.B) {
			lat := make(latencies, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				if write {
					b.StopTimer()
					ref := strconv.FormatInt(refs[(i*7919)%len(refs)], 10)
					if _, err := s.svc.UpdateTask(ctx, admin, "", ref, app.TaskUpdate{Importance: app.PatchOf(1 + i%5)}); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				_, took := s.get(b, path)
				lat = append(lat, took)
			}
			b.StopTimer()
			lat.report(b)
		})
	}
}

func seedAgenda(ctx context.Context, svc *app.Service, admin app.Actor) ([]int64, error) {
	rng := rand.New(rand.NewPCG(5, 6))
	if _, err := svc.CreateUser(ctx, admin, app.UserCreate{Username: "bob"}); err != nil {
		return nil, err
	}
	if _, err := svc.AddMember(ctx, admin, "default", app.Join{Username: "bob", Role: "member"}); err != nil {
		return nil, err
	}
	for i := range 10 {
		if _, err := svc.CreateProject(ctx, admin, "", app.ProjectCreate{Key: fmt.Sprintf("p%d", i), Title: "P"}); err != nil {
			return nil, err
		}
	}
	base := time.Now().UTC().Truncate(time.Hour)
	var refs []int64
	for i := range 10_000 {
		in := app.TaskCreate{Title: fmt.Sprintf("Agenda task %d", i), Project: fmt.Sprintf("p%d", rng.IntN(10)),
			Timezone: "Pacific/Auckland"}
		switch rng.IntN(10) {
		case 0:
			in.Status = "in_progress"
		case 1:
			in.Type = "event"
		case 2:
			in.Assignee = "bob"
		}
		if rng.IntN(3) == 0 {
			due := base.Add(time.Duration(rng.IntN(60*24)-20*24) * time.Hour)
			if rng.IntN(2) == 0 {
				due = time.Date(due.Year(), due.Month(), due.Day(), 11, 0, 0, 0, time.UTC)
				in.DueIsAllDay = true
			}
			in.DueAt = &due
		}
		t, err := svc.CreateTask(ctx, admin, "", in)
		if err != nil {
			return nil, err
		}
		refs = append(refs, t.Ref)
	}
	for range 1_000 {
		src, dst := refs[rng.IntN(len(refs))], refs[rng.IntN(len(refs))]
		_, err := svc.AddLinks(ctx, admin, "", app.LinkRequest{LinkType: "blocks",
			Target: app.FlexRef(strconv.FormatInt(dst, 10))}.Set("task", strconv.FormatInt(src, 10)))
		if err != nil && app.CodeOf(err) != app.CodeConflict && app.CodeOf(err) != app.CodeValidation {
			return nil, err
		}
	}
	return refs, nil
}
