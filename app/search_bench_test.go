package app_test

import (
	"context"
	"strconv"
	"testing"

	"tend/app"
)

// BenchmarkSearchAfterCreate creates a task and searches for its word at
// once, the task's text still waiting to be indexed: the search has it
// indexed (app/background) and finds it. Without a batch, as the command
// line runs, so every search meets its task queued.
func BenchmarkSearchAfterCreate(b *testing.B) {
	ctx := context.Background()
	db, _ := seeded.Open(b)
	svc := app.New(db, app.Options{Version: "bench"})
	b.Cleanup(svc.StopWork)
	a, err := svc.Authenticate(ctx, adminSecret, "bench")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		word := "w" + strconv.Itoa(i)
		if _, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: "Bench " + word}); err != nil {
			b.Fatal(err)
		}
		found, err := svc.Tasks(ctx, a, app.TaskListQuery{Q: word})
		if err != nil || len(found.Items) != 1 {
			b.Fatalf("%s: %d found, %v", word, len(found.Items), err)
		}
	}
}
