package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emersion/go-ical"

	"tend/bench/benchmain"
	"tend/web/webtest"
)

// TestWorkloadRunsOnTend runs the harness's own commands against the real
// server, twice (once named as a peer, as Radicale is in bench/caldav.sh):
// the seed, every load with its expected answers, and a report with every
// load, the ratios and the targets. It measures nothing.
func TestWorkloadRunsOnTend(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results.jsonl")
	for _, name := range []string{"tend", "peer"} {
		url, token := webtest.ServeBootstrapped(t, nil)
		user := webtest.AdminUsername
		t.Setenv("TEND_AB_TOKEN", token)
		var stdout, stderr bytes.Buffer
		if err := cli(context.Background(), []string{"seed-tend", "-url", url, "-tasks", "12"}, &stdout, &stderr); err != nil {
			t.Fatalf("seed: %v\n%s", err, stderr.String())
		}
		args := []string{"run", "-server", name, "-url", url, "-col", "/dav/calendars/default.home/", "-user", user,
			"-n", "4", "-initial", "1", "-out", out}
		if name == "tend" {
			args = append(args, "-patch")
		}
		if err := cli(context.Background(), args, &stdout, &stderr); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, stderr.String())
		}
	}
	runs, err := benchmain.ReadRuns[Run]([]string{out})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Objects != 12 || len(runs[0].Results) != 5 || len(runs[1].Results) != 4 {
		t.Fatalf("runs %+v: want 12 objects each, 5 loads on tend and 4 on the peer", runs)
	}
	var table bytes.Buffer
	if err := cli(context.Background(), []string{"report", out}, &table, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range append(loadOrder, "peer/tend p50", "target: deltas ≤ 5 ms", "target: initial sync", "target: deltas ≥ 10× peer", "target: CalDAV PUT") {
		if !strings.Contains(table.String(), want) {
			t.Errorf("the report has no %q:\n%s", want, table.String())
		}
	}
}

// TestSeedFilesWritesACollection checks the files Radicale is given: its
// collection's properties and one VTODO a task, each a calendar that
// parses, with the description's comma escaped.
func TestSeedFilesWritesACollection(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "collection-root", "bench", "home")
	if err := cli(context.Background(), []string{"seed-files", "-dir", dir, "-tasks", "5"}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 6 {
		t.Fatalf("%d files, want .Radicale.props and 5 tasks", len(entries))
	}
	b, err := os.ReadFile(filepath.Join(dir, "bench-00000.ics"))
	if err != nil {
		t.Fatal(err)
	}
	cal, err := ical.NewDecoder(bytes.NewReader(b)).Decode()
	if err != nil {
		t.Fatal(err)
	}
	todo := cal.Children[0]
	if d, _ := todo.Props.Text(ical.PropDescription); todo.Name != ical.CompToDo || !strings.Contains(d, "Friday, keep") {
		t.Fatalf("%s with description %q", todo.Name, d)
	}
}

// TestRunRefusesMissingFlags: run says what it needs rather than sending
// requests nowhere.
func TestRunRefusesMissingFlags(t *testing.T) {
	for _, args := range [][]string{{"run", "-server", "tend"}, {"seed-tend"}, {"seed-files"}, {"report"}, {"frobnicate"}, {}} {
		if err := cli(context.Background(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}
