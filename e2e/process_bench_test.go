package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkCLIAddLs times the terminal's round trip, tend add then tend
// ls, each a process of its own from start to exit, on benchSeed's copy:
// "file" on the database file itself, "server" against tend serve on that
// file over loopback. Reported: p50-ms and p90-ms of add, of ls, and of
// the two together, wall time; and of each command's CPU time (user and
// system, the process's own), which other work on the machine stretches
// less.
func BenchmarkCLIAddLs(b *testing.B) {
	dbPath, token, bin := benchSeed(b, "bench-cli")
	env := []string{"XDG_CONFIG_HOME=" + b.TempDir(), "TEND_DB=", "NO_COLOR=1"}
	b.Run("file", func(b *testing.B) {
		benchAddLs(b, bin, append(env, "TEND_URL="), "--db", dbPath)
	})
	b.Run("server", func(b *testing.B) {
		srv := startChild(b, dbPath, false)
		benchAddLs(b, bin, append(env, "TEND_URL="+srv.url, "TEND_TOKEN="+token))
	})
}

func benchAddLs(b *testing.B, bin string, env []string, flags ...string) {
	var add, ls, both, addCPU, lsCPU []time.Duration
	run := func(cpu *[]time.Duration, args ...string) time.Duration {
		c := exec.Command(bin, append(slices.Clone(flags), args...)...)
		c.Env = append(os.Environ(), env...)
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		start := time.Now()
		err := c.Run()
		took := time.Since(start)
		if err != nil {
			b.Fatalf("tend %s: %v\n%s", strings.Join(args, " "), err, out.String())
		}
		*cpu = append(*cpu, c.ProcessState.UserTime()+c.ProcessState.SystemTime())
		return took
	}
	i := 0
	for b.Loop() {
		i++
		a := run(&addCPU, "add", fmt.Sprintf("Bench task %d tomorrow 9am #bench !3", i))
		l := run(&lsCPU, "ls")
		add, ls, both = append(add, a), append(ls, l), append(both, a+l)
	}
	for name, d := range map[string][]time.Duration{"add": add, "ls": ls, "add+ls": both, "add-cpu": addCPU, "ls-cpu": lsCPU} {
		reportTimes(b, name+"-", d)
	}
}

// reportTimes sorts took and reports its median and 90th percentile in
// milliseconds, as prefix+"p50-ms" and prefix+"p90-ms".
func reportTimes(b *testing.B, prefix string, took []time.Duration) {
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, prefix+"p50-ms")
	b.ReportMetric(float64(took[len(took)*9/10].Microseconds())/1000, prefix+"p90-ms")
}

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
	reportTimes(b, "", took)
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "max-ms")
}
