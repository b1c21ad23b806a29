package e2e

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkMCPStdioStart times `tend mcp` from starting the process to
// reading its answer to initialize, on benchSeed's copy. Reported: p50-ms,
// p90-ms and max-ms of start → answer; ns/op also counts the exit after
// stdin closes.
func BenchmarkMCPStdioStart(b *testing.B) {
	dbPath, secret, bin := benchSeed(b, "bench-agent")
	env := []string{"TEND_TOKEN=" + secret}
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
