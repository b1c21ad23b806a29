// Command load is the load generator of the A/B harness (bench/ab.sh).
//
//	load run -url http://127.0.0.1:PORT [-label old -rev df25264 -round 1] [-tasks 5000] [-requests 2000] [-pid PID] [-out results.jsonl]
//	load report results.jsonl
//
// run seeds one running tend server through its HTTP API and drives it
// through every load in turn, over one keep-alive client, then appends what
// it measured as one JSON line. The bearer token comes from the
// environment (TEND_AB_TOKEN), never from the command line, where other
// users of the machine could read it. run exits 1 when any answer was not
// a 2xx, after recording the run. report prints the runs side by side:
// requests per second, p50 and p99, the server's CPU a request when run
// was given the server's process (-pid), and the new/old ratio of each.
//
// It speaks only the HTTP API and MCP, as any client would, so one build
// of it drives every revision of tend the same way.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"tend/bench/benchmain"
)

func main() { benchmain.Run("load", cli) }

const usage = `usage:
  load run -url URL [-label L] [-rev R] [-round N] [-tasks N] [-requests N] [-pid PID] [-out FILE]   (token in TEND_AB_TOKEN)
  load report FILE...`

func cli(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	switch {
	case len(args) == 0:
		fmt.Fprintln(stderr, usage)
		return errors.New("no command given")
	case args[0] == "run":
		return cliRun(ctx, args[1:], stdout, stderr)
	case args[0] == "report":
		return cliReport(args[1:], stdout, stderr)
	}
	fmt.Fprintln(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

func cliRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := Config{Progress: stderr}
	var label, rev, out string
	var round int
	fs.StringVar(&cfg.URL, "url", "", "the server's base URL, e.g. http://127.0.0.1:8421")
	fs.IntVar(&cfg.Tasks, "tasks", 5000, "tasks seeded into the large project before the loads")
	fs.IntVar(&cfg.Requests, "requests", 2000, "requests per load")
	fs.StringVar(&label, "label", "run", "which side this run is (old, new)")
	fs.StringVar(&rev, "rev", "", "the revision the server was built from")
	fs.IntVar(&round, "round", 1, "the round this run belongs to")
	fs.IntVar(&cfg.ServerPID, "pid", 0, "the server's process, to record its CPU a request (Linux /proc)")
	fs.StringVar(&out, "out", "", "append the run as a JSON line to this file (default: stdout)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg.Token = os.Getenv("TEND_AB_TOKEN")
	if cfg.URL == "" || cfg.Token == "" {
		return errors.New("run needs -url and a token in TEND_AB_TOKEN")
	}
	run, runErr := Measure(ctx, cfg)
	if ctx.Err() != nil {
		return ctx.Err() // a run cut short measured nothing worth keeping
	}
	run.Label, run.Rev, run.Round = label, rev, round
	if err := benchmain.AppendRun(out, stdout, run); err != nil {
		return err
	}
	return runErr
}

func cliReport(paths []string, stdout, stderr io.Writer) error {
	if len(paths) == 0 {
		fmt.Fprintln(stderr, usage)
		return errors.New("report needs a file of runs")
	}
	runs, err := benchmain.ReadRuns[Run](paths)
	if err != nil {
		return err
	}
	return Report(stdout, runs)
}
