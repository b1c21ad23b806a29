package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkMCPStdioStart times `tend mcp` from starting the process to
// reading its answer to initialize, on a copy of the 100,000-task database
// the web benchmarks seed and keep in TEND_BENCH_SEED (BENCHMARKS.md,
// "Projects and tasks"). The process is this test binary running the real
// main, or the tend binary named in TEND_BENCH_BIN (to compare builds).
// Reported: p50-ms, p90-ms and max-ms of start → answer; ns/op also
// counts the exit after stdin closes.
func BenchmarkMCPStdioStart(b *testing.B) {
	seed := os.Getenv("TEND_BENCH_SEED")
	if seed == "" {
		b.Skip("name the seeded database in TEND_BENCH_SEED (see BENCHMARKS.md)")
	}
	dbPath := filepath.Join(b.TempDir(), "tend.db")
	if err := copyFileTo(seed, dbPath); err != nil {
		b.Fatal(err)
	}
	var out, errb bytes.Buffer
	cmd := newRootCmd(&out, &errb)
	cmd.SetArgs([]string{"--db", dbPath, "token", "issue", "--user", "bench-agent"})
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		b.Fatalf("token issue: %v %s", err, errb.String())
	}
	secret := strings.TrimSpace(out.String())
	bin, env := os.Getenv("TEND_BENCH_BIN"), []string{"TEND_TOKEN=" + secret}
	if bin == "" {
		bin, env = os.Args[0], append(env, "TEND_TEST_RUN_MAIN=1")
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n"
	var took []time.Duration
	for b.Loop() {
		c := exec.Command(bin, "--db", dbPath, "mcp")
		c.Env = append(os.Environ(), env...)
		c.Stderr = io.Discard
		in, _ := c.StdinPipe()
		stdout, _ := c.StdoutPipe()
		start := time.Now()
		if err := c.Start(); err != nil {
			b.Fatal(err)
		}
		_, _ = io.WriteString(in, initialize)
		line, err := bufio.NewReader(stdout).ReadString('\n')
		took = append(took, time.Since(start))
		if err != nil || !strings.HasPrefix(line, `{"jsonrpc":"2.0","id":1,"result":`) {
			b.Fatalf("initialize: %v %.200s", err, line)
		}
		_ = in.Close()
		if err := c.Wait(); err != nil {
			b.Fatal(err)
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*9/10].Microseconds())/1000, "p90-ms")
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "max-ms")
}

func copyFileTo(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o600)
}
