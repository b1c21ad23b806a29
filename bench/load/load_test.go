package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"tend/bench/benchmain"
	"tend/web/webtest"
)

// small keeps every load brief: the test proves the loads still work on
// this revision, it measures nothing.
const smallTasks, smallRequests = "12", "6"

// TestEveryLoadRunsOnThisRevision runs the harness's own commands, run
// twice (as old and new) and report, against the real server: every load
// runs, gets only 2xx answers and shows in the table with a ratio.
func TestEveryLoadRunsOnThisRevision(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results.jsonl")
	for _, side := range []string{"old", "new"} {
		url, token := webtest.ServeBootstrapped(t, nil)
		t.Setenv("TEND_AB_TOKEN", token)
		var stdout, stderr bytes.Buffer
		// The server runs in this process: its CPU is this process's.
		args := []string{"run", "-url", url, "-label", side, "-rev", side + "rev", "-tasks", smallTasks, "-requests", smallRequests,
			"-pid", strconv.Itoa(os.Getpid()), "-out", out}
		if err := cli(context.Background(), args, &stdout, &stderr); err != nil {
			t.Fatalf("%s: %v\n%s", side, err, stderr.String())
		}
	}
	runs, err := benchmain.ReadRuns[Run]([]string{out})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("%d runs recorded, want 2", len(runs))
	}
	for _, run := range runs {
		if run.Tasks != 12 || run.Label == "" || len(run.Results) != len(loads) {
			t.Fatalf("run %+v: want 12 tasks, a label and %d loads", run, len(loads))
		}
		for i, r := range run.Results {
			if r.Load != loads[i].key || r.Requests != 6 || r.Failed != 0 || r.Unsupported != "" || r.PerSec <= 0 || r.P99ms < r.P50ms || r.ServerCPUus < 0 {
				t.Errorf("%s %s: %+v", run.Label, loads[i].key, r)
			}
		}
	}
	var table bytes.Buffer
	if err := cli(context.Background(), []string{"report", out}, &table, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, l := range loads {
		line := lineOf(table.String(), "| "+l.name+" ")
		// a row of req/s: the load, old 1, new 1, and a ratio such as 0.97 or 0.91–1.04
		cells := strings.Split(strings.Trim(line, "| "), "|")
		if len(cells) != 4 || !strings.Contains(cells[3], ".") {
			t.Errorf("report row for %s is %q\n%s", l.name, line, table.String())
		}
	}
}

// TestServerCPU: the CPU a process used, read from /proc, grows as it
// works (this process burns CPU until the clock ticks: /proc counts in
// hundredths of a second), and a process that is not there has none.
func TestServerCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/PID/stat is Linux's")
	}
	before, ok := serverCPU(os.Getpid())
	if !ok {
		t.Fatal("no CPU read for this process")
	}
	x := 1.0
	for now, _ := serverCPU(os.Getpid()); now == before; now, _ = serverCPU(os.Getpid()) {
		for i := range 1_000_000 {
			x = x*1.0000001 + float64(i&1)
		}
	}
	if x == 0 {
		t.Fatal("the burn was optimised away")
	}
	if _, ok := serverCPU(0); ok {
		t.Error("pid 0 read as a process")
	}
	if _, ok := serverCPU(1 << 30); ok {
		t.Error("a process that does not exist read as one")
	}
}

// TestMissingEndpointIsUnsupported: a revision without MCP (as before
// POST /mcp existed) shows the load as unsupported, not as a failure.
func TestMissingEndpointIsUnsupported(t *testing.T) {
	url, token := webtest.ServeBootstrapped(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/mcp" {
				http.NotFound(w, r)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	run, err := Measure(context.Background(), Config{URL: url, Token: token, Tasks: 4, Requests: 2})
	if err != nil {
		t.Fatal(err)
	}
	mcp, _ := result(run, "mcp")
	if !strings.Contains(mcp.Unsupported, "404") || mcp.Failed != 0 || mcp.Requests != 0 {
		t.Fatalf("MCP without the endpoint: %+v", mcp)
	}
	var table bytes.Buffer
	if err := Report(&table, []Run{run}); err != nil {
		t.Fatal(err)
	}
	if row := lineOf(table.String(), "| MCP tools/call"); !strings.Contains(row, "unsupported") {
		t.Fatalf("MCP row %q", row)
	}
}

// TestFailedAnswersFailTheRun: answers that are not 2xx are counted, the
// run's error names the load, and the table says FAILED; a credential the
// server refuses stops the run at the seed.
func TestFailedAnswersFailTheRun(t *testing.T) {
	url, token := webtest.ServeBootstrapped(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Has("q") {
				http.Error(w, "search is down", http.StatusServiceUnavailable)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	run, err := Measure(context.Background(), Config{URL: url, Token: token, Tasks: 4, Requests: 3})
	if err == nil || !strings.Contains(err.Error(), "search (50): 3 of 3 requests failed") || !strings.Contains(err.Error(), "503 search is down") {
		t.Fatalf("err = %v", err)
	}
	if got, _ := result(run, "mcp"); got.Requests != 3 || got.Failed != 0 {
		t.Fatalf("the loads after the failed one still run: %+v", got)
	}
	var table bytes.Buffer
	if err := Report(&table, []Run{run}); err != nil {
		t.Fatal(err)
	}
	if row := lineOf(table.String(), "| search (50)"); !strings.Contains(row, "FAILED 3/3") {
		t.Fatalf("search row %q\n%s", row, table.String())
	}

	_, err = Measure(context.Background(), Config{URL: url, Token: "tend_not_a_token", Tasks: 4, Requests: 3})
	if err == nil || !strings.Contains(err.Error(), "seeding") || !strings.Contains(err.Error(), "401") {
		t.Fatalf("with a refused credential: err = %v", err)
	}
}

// lineOf is the first line of s that starts with prefix.
func lineOf(s, prefix string) string {
	for line := range strings.Lines(s) {
		if strings.HasPrefix(line, prefix) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// TestReportRatios: each round's new/old ratio of req/s and of p50, the
// range over the rounds, and a load one side could not run.
func TestReportRatios(t *testing.T) {
	run := func(label string, round int, perSec, p50 float64, mcp string) Run {
		return Run{Label: label, Round: round, Rev: label + "rev", Tasks: 10, Results: []Result{
			{Load: "get", Requests: 100, PerSec: perSec, P50ms: p50, P99ms: 2 * p50, ServerCPUus: 400 * p50},
			{Load: "mcp", Requests: 100, PerSec: perSec, P50ms: p50, P99ms: 2 * p50, Unsupported: mcp},
		}}
	}
	runs := []Run{
		run("old", 1, 1000, 0.50, "POST /mcp answers 404"), run("new", 1, 1100, 0.45, ""),
		run("old", 2, 1000, 0.50, "POST /mcp answers 404"), run("new", 2, 900, 0.55, ""),
	}
	var b bytes.Buffer
	if err := Report(&b, runs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"old = oldrev, new = newrev; 10 seeded tasks; 100 requests per load; 2 rounds",
		"| GET one task                |       1,000 | 1,100 |       1,000 |   900 | 0.90–1.10 |",
		"| GET one task                | 0.50 / 1.00 | 0.45 / 0.90 | 0.50 / 1.00 | 0.55 / 1.10 |   0.90–1.10 |",
		"| MCP tools/call service_list | unsupported | 1,100 | unsupported |   900 |         — |",
		"- MCP tools/call service_list: old (oldrev): unsupported, POST /mcp answers 404",
		"| GET one task                |         200 |   180 |         200 |   220 | 0.90–1.10 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q\n%s", want, out)
		}
	}
}
