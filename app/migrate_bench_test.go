package app_test

import (
	"bytes"
	"fmt"
	"testing"

	"tend/app"
	"tend/app/from"
)

// todoistRows writes a Todoist CSV of n rows as people's exports look: a
// section every 100 rows, every fourth task a subtask, every tenth row a
// note, dates in words, a quarter of them repeating, labels and quotes.
func todoistRows(n int) []byte {
	var b bytes.Buffer
	b.WriteString("TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE,DURATION,DURATION_UNIT\r\n")
	b.WriteString("meta,view_style,list,,,,,,,,,\r\n")
	dates := []string{"every monday", "tomorrow 9am", "Jan 12 2027", "", "every other friday at 5pm", "in 3 days", "", "next week"}
	for i := 0; i < n-1; i++ {
		switch {
		case i%100 == 99:
			fmt.Fprintf(&b, "section,Section %d,,,,,,,,,,\r\n", i/100)
		case i%10 == 9:
			fmt.Fprintf(&b, "note,\"A note, with \"\"quotes\"\" %d\",,,,Alice (1),,,,,,\r\n", i)
		default:
			indent := 1
			if i%4 == 3 {
				indent = 2
			}
			fmt.Fprintf(&b, "task,Task %d @label%d,\"Line one, %d\",%d,%d,Alice (1),,%s,en,,30,minute\r\n", i, i%7, i, 1+i%4, indent, dates[i%len(dates)])
		}
	}
	return b.Bytes()
}

// BenchmarkMigrateTodoist reads and imports 1,000 Todoist rows into an
// instance (a copy of the fixture's) per iteration: the target is
// 2 s (BENCHMARKS.md, "Importers").
func BenchmarkMigrateTodoist(b *testing.B) {
	file := todoistRows(1000)
	ctx := b.Context()
	for b.Loop() {
		b.StopTimer()
		svc, admin := benchInstance(b)
		b.StartTimer()
		m, err := from.Todoist(bytes.NewReader(file), "Bench", from.DefaultMaxSize)
		if err != nil {
			b.Fatal(err)
		}
		rep, err := svc.Migrate(ctx, admin, m, app.MigrateOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if n := rep.Projects[0].TasksCreated; n == 0 {
			b.Fatalf("report %+v", rep)
		}
	}
}

// largeProject is the size of the project whose import issue 32 found
// holding the writer for seconds.
const largeProject = 50_000

// BenchmarkMigrateLargeProject imports one GitHub repository of
// largeProject issues, each with a label and a comment: one project, so one
// transaction, and the time it holds the database's writer (docs/data.md,
// "Moving from another tool"). Run it with -benchtime=1x.
func BenchmarkMigrateLargeProject(b *testing.B) {
	var file bytes.Buffer
	file.WriteString("[")
	for i := 1; i <= largeProject; i++ {
		if i > 1 {
			file.WriteString(",\n")
		}
		fmt.Fprintf(&file, `{"number":%d,"title":"Issue %d","body":"What happens, and how to see it (%d).","state":"OPEN",`+
			`"labels":[{"name":"label %d"}],"comments":[{"id":"c%d","author":{"login":"octocat"},"body":"Seen it too.",`+
			`"url":"https://github.com/acme/big/issues/%d#c"}]}`, i, i, i, i%20, i, i)
	}
	file.WriteString("]")
	ctx := b.Context()
	for b.Loop() {
		b.StopTimer()
		svc, admin := benchInstance(b)
		m, err := from.GitHub(bytes.NewReader(file.Bytes()), "big", from.DefaultMaxSize)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		rep, err := svc.Migrate(ctx, admin, m, app.MigrateOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if n := rep.Projects[0].TasksCreated; n != largeProject {
			b.Fatalf("report %+v", rep.Projects)
		}
	}
	b.ReportMetric(float64(file.Len())/(1<<20), "MiB-file")
}

// benchInstance is a copy of the fixture's instance and its administrator.
func benchInstance(b *testing.B) (*app.Service, app.Actor) {
	b.Helper()
	db, _ := seeded.Open(b)
	svc := app.New(db, app.Options{Version: "test"})
	admin, err := svc.Authenticate(b.Context(), adminSecret, "test")
	if err != nil {
		b.Fatal(err)
	}
	return svc, admin
}
