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
// agenda").
func BenchmarkAgenda10k(b *testing.B) {
	dir := b.TempDir()
	s, admin, err := openBenchServer(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer s.close()
	ctx := context.Background()
	if err := seedAgenda(ctx, s.svc, admin); err != nil {
		b.Fatal(err)
	}
	lat := make(latencies, 0, b.N)
	b.ResetTimer()
	for range b.N {
		_, took := s.get(b, "/v1/agenda?timezone=Pacific/Auckland")
		lat = append(lat, took)
	}
	b.StopTimer()
	lat.report(b)
}

func seedAgenda(ctx context.Context, svc *app.Service, admin app.Actor) error {
	rng := rand.New(rand.NewPCG(5, 6))
	if _, err := svc.CreateUser(ctx, admin, app.UserCreate{Username: "bob"}); err != nil {
		return err
	}
	if _, err := svc.AddMember(ctx, admin, "default", app.Join{Username: "bob", Role: "member"}); err != nil {
		return err
	}
	for i := range 10 {
		if _, err := svc.CreateProject(ctx, admin, "", app.ProjectCreate{Key: fmt.Sprintf("p%d", i), Title: "P"}); err != nil {
			return err
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
			return err
		}
		refs = append(refs, t.Ref)
	}
	for range 1_000 {
		src, dst := refs[rng.IntN(len(refs))], refs[rng.IntN(len(refs))]
		_, err := svc.AddLinks(ctx, admin, "", app.LinkRequest{LinkType: "blocks",
			Target: app.FlexRef(strconv.FormatInt(dst, 10))}.Set("task", strconv.FormatInt(src, 10)))
		if err != nil && app.CodeOf(err) != app.CodeConflict && app.CodeOf(err) != app.CodeValidation {
			return err
		}
	}
	return nil
}
