package dav_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
	"tend/web/webtest"
)

// BenchmarkDav times what a task app does against one collection of
// 10,000 tasks over loopback: the initial sync (a calendar-query of
// everything with its data), an empty sync-collection delta, a one-change
// delta, a PUT changing one task, and the API PATCH making the same
// change (issue 36's target: the PUT within 1.2× of the PATCH).
func BenchmarkDav(b *testing.B) {
	ctx := context.Background()
	db, _, admin := webtest.OpenBootstrapped(b)
	svc := app.New(db, storetest.Options(app.Options{Version: "bench"}))
	srv := webtest.Serve(b, svc)
	a, err := svc.Authenticate(ctx, admin, "http")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.CreateProject(ctx, a, "", app.ProjectCreate{Key: "home", Title: "Home"}); err != nil {
		b.Fatal(err)
	}
	var first app.Task
	for i := range 10000 {
		t, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: fmt.Sprintf("task %d", i), Project: "home", Tags: []string{"bench"}})
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			first = t
		}
	}
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(a.User.Username+":"+admin))
	col := srv.URL + "/dav/calendars/default.home/"
	do := func(method, url, body string, want int) string {
		req, _ := http.NewRequest(method, url, strings.NewReader(body))
		req.Header.Set("Authorization", auth)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		out, _ := io.ReadAll(res.Body)
		if res.StatusCode != want {
			b.Fatalf("%s %s: %d\n%.500s", method, url, res.StatusCode, out)
		}
		return string(out)
	}
	query := `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>` +
		`<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>`
	sync := func(token string) string {
		return `<d:sync-collection xmlns:d="DAV:"><d:sync-token>` + token + `</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`
	}
	// tokenNow syncs as a client does, following the token while the
	// server cuts the answer (a 507 member), to the collection's newest.
	tokenNow := func() string {
		tok := ""
		for {
			out := do("REPORT", col, sync(tok), http.StatusMultiStatus)
			_, rest, _ := strings.Cut(out, "<d:sync-token>")
			tok, _, _ = strings.Cut(rest, "</d:sync-token>")
			if !strings.Contains(out, " 507 ") {
				return tok
			}
		}
	}
	put := func(i int) {
		do(http.MethodPut, col+"bench.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VTODO\r\nUID:bench\r\nDTSTAMP:20261201T100000Z\r\n"+
			fmt.Sprintf("SUMMARY:bench %d\r\n", i)+"END:VTODO\r\nEND:VCALENDAR\r\n", map[bool]int{true: http.StatusCreated, false: http.StatusNoContent}[i == 0])
	}
	put(0)
	b.Run("initial-query-10k", func(b *testing.B) {
		defer cpuPerOp(b)()
		for b.Loop() {
			do("REPORT", col, query, http.StatusMultiStatus)
		}
	})
	b.Run("empty-delta", func(b *testing.B) {
		now := tokenNow()
		defer cpuPerOp(b)()
		for b.Loop() {
			do("REPORT", col, sync(now), http.StatusMultiStatus)
		}
	})
	b.Run("one-change-delta", func(b *testing.B) {
		now := tokenNow()
		put(1)
		defer cpuPerOp(b)()
		for b.Loop() {
			do("REPORT", col, sync(now), http.StatusMultiStatus)
		}
	})
	// The PUT and the PATCH change the title of the same seeded task, the
	// PUT sending back the object a GET answered, as a client does.
	object := do(http.MethodGet, col+first.ID+".ics", "", http.StatusOK)
	b.Run("put", func(b *testing.B) {
		i := 0
		defer cpuPerOp(b)()
		for b.Loop() {
			do(http.MethodPut, col+first.ID+".ics", strings.Replace(object, "SUMMARY:task 0", fmt.Sprintf("SUMMARY:changed %d", i), 1), http.StatusNoContent)
			i++
		}
	})
	b.Run("api-patch", func(b *testing.B) {
		i := 0
		defer cpuPerOp(b)()
		for b.Loop() {
			req, _ := http.NewRequest(http.MethodPatch, srv.URL+"/v1/tasks/"+first.ID, strings.NewReader(fmt.Sprintf(`{"title":"changed %d"}`, i)))
			req.Header.Set("Authorization", "Bearer "+admin)
			req.Header.Set("Content-Type", "application/json")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				b.Fatal(res.Status)
			}
			i++
		}
	})
}

// cpuPerOp reports the process's CPU (user and system, client and server
// together) per operation, called when the benchmark's loop is over. On a
// shared machine it moves far less than the wall time: a neighbour's work
// delays the loop but does not add to this process's CPU.
func cpuPerOp(b *testing.B) func() {
	before := processCPU(b)
	return func() {
		b.ReportMetric(float64(processCPU(b)-before)/float64(b.N), "cpu-ns/op")
	}
}

func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
