// Package benchmain is what the load generators under bench/ share: the
// main function (run the command line until it ends or is interrupted,
// and exit as a shell expects) and the file of runs, one JSON line a run,
// that a run appends to and a report reads.
package benchmain

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// Run runs cli with the process's arguments and streams, cancelled by
// Ctrl-C or SIGTERM, and exits: 130 when interrupted, as a shell reports a
// command ended by Ctrl-C, 1 with the error prefixed by name, else 0.
func Run(name string, cli func(ctx context.Context, args []string, stdout, stderr io.Writer) error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cli(ctx, os.Args[1:], os.Stdout, os.Stderr)
	interrupted := ctx.Err() != nil
	stop()
	if interrupted {
		fmt.Fprintln(os.Stderr, name+": interrupted")
		os.Exit(130)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

// AppendRun writes run as one JSON line: appended to the file out, or to
// stdout when out is "".
func AppendRun(out string, stdout io.Writer, run any) error {
	line, err := json.Marshal(run)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if out == "" {
		_, err := stdout.Write(line)
		return err
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ReadRuns reads the runs AppendRun wrote to the files at paths, in order.
func ReadRuns[R any](paths []string) ([]R, error) {
	var runs []R
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		rs, err := readRuns[R](f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		runs = append(runs, rs...)
	}
	return runs, nil
}

func readRuns[R any](r io.Reader) ([]R, error) {
	var runs []R
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var run R
		if err := json.Unmarshal(sc.Bytes(), &run); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		runs = append(runs, run)
	}
	return runs, sc.Err()
}
