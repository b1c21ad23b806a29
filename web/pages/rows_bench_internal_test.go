package pages

import (
	"bytes"
	"strconv"
	"testing"
	"time"

	"tend/app"
)

// BenchmarkTaskRows renders a list of 50 task rows of each kind, every task
// due at a time in a named zone (as a person's tasks are), which is what a
// list page adds for each task it shows.
func BenchmarkTaskRows(b *testing.B) {
	due := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	list := make([]app.Task, 50)
	for i := range list {
		list[i] = app.Task{Ref: int64(1000 + i), Title: "Seeded task " + strconv.Itoa(i), Version: 3, DueAt: &due, Timezone: "Europe/Berlin",
			Status: app.Status{VocabEntry: app.VocabEntry{Key: "todo", Label: "To do", Category: "todo"}}, Tags: []string{"home", "errand"}}
	}
	statuses := []app.Status{{VocabEntry: app.VocabEntry{Key: "todo", Label: "To do"}}, {VocabEntry: app.VocabEntry{Key: "in_progress", Label: "In progress"}},
		{VocabEntry: app.VocabEntry{Key: "done", Label: "Done"}}}
	for _, kind := range []string{"li", "tr", "card"} {
		b.Run(kind, func(b *testing.B) {
			var buf bytes.Buffer
			for range b.N {
				buf.Reset()
				for i := range list {
					r := rowAt("/tasks", list, i)
					r.Statuses = statuses
					if err := templates().ExecuteTemplate(&buf, rowTemplates[kind], r); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(buf.Len())/float64(len(list)), "bytes/row")
		})
	}
}
