package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// burstTasks is how many events the burst delivers to each endpoint: a
// replay of that many task.created.
const burstTasks = 10000

// BenchmarkWriteWhileDelivering times a cheap write, PATCH of a task's
// title over loopback, one after another against `tend serve` in a child
// process, on a copy of a file holding burstTasks tasks: "quiet" with no
// webhooks, "delivering" while 10 endpoints receive a burst of burstTasks
// events each (a replay from seq 0). Five endpoints answer 204 on loopback
// in this process; of the five dead, three refuse the connection and two
// take it and never answer, so that their attempts run to the 15 s
// timeout and are retried 5 s later, on the real schedule. Run with -count
// to alternate the halves. Reported: p50-ms and p99-ms of the write; with
// delivery, delivered/s while the writes ran and burst-left, the burst's
// deliveries not yet made when they ended (above 0: the writes were timed
// while delivery went on throughout).
func BenchmarkWriteWhileDelivering(b *testing.B) {
	seed, token := burstSeed(b)
	b.Run("quiet", func(b *testing.B) { benchWriteDuring(b, seed, token, false) })
	b.Run("delivering", func(b *testing.B) { benchWriteDuring(b, seed, token, true) })
}

func benchWriteDuring(b *testing.B, seed, token string, deliver bool) {
	srv := startOnCopy(b, seed)
	var delivered atomic.Int64
	if deliver {
		for _, url := range burstEndpoints(b, &delivered) {
			var hook struct{ ID string }
			benchCall(b, http.StatusCreated, srv.url, token, http.MethodPost, "/v1/webhooks", fmt.Sprintf(`{"url":%q,"events":["task.*"]}`, url), &hook)
			benchCall(b, http.StatusAccepted, srv.url, token, http.MethodPost, "/v1/webhooks/"+hook.ID+"/replay?since=0", "", nil)
		}
	}
	var took []time.Duration
	start, before := time.Now(), delivered.Load()
	i := 0
	for b.Loop() {
		i++
		took = append(took, renameTask(b, srv, token, i))
	}
	elapsed, sent := time.Since(start), delivered.Load()-before
	reportWrites(b, took)
	if deliver {
		b.ReportMetric(float64(sent)/elapsed.Seconds(), "delivered/s")
		b.ReportMetric(float64(5*burstTasks-delivered.Load()), "burst-left")
	}
}

// burstEndpoints starts the ten endpoints and answers their URLs: five
// receivers that count what they take in delivered, three addresses that
// refuse, two that take the connection and never answer.
func burstEndpoints(b *testing.B, delivered *atomic.Int64) []string {
	var urls []string
	for range 5 {
		rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			delivered.Add(1)
			w.WriteHeader(http.StatusNoContent)
		}))
		b.Cleanup(rcv.Close)
		urls = append(urls, rcv.URL)
	}
	for i := range 5 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		urls = append(urls, "http://"+ln.Addr().String())
		if i < 3 {
			_ = ln.Close()
		} else {
			// Never accepted: the kernel completes the connection, the
			// request goes in, no answer comes out.
			b.Cleanup(func() { _ = ln.Close() })
		}
	}
	return urls
}

// benchCall calls the API and decodes the answer into out (nil: not at
// all); any status but want ends the benchmark.
func benchCall(b *testing.B, want int, base, token, method, path, body string, out any) {
	status, answer, err := apiRequest(context.Background(), base, token, method, path, body)
	if err == nil && status != want {
		err = fmt.Errorf("%d %s", status, answer)
	}
	if err == nil && out != nil {
		err = json.Unmarshal(answer, out)
	}
	if err != nil {
		b.Fatalf("%s %s: %v", method, path, err)
	}
}

// burstSeed is a file holding burstTasks tasks, made once per test binary
// beside the built tend (removed with it), and the administrator's token.
func burstSeed(b *testing.B) (string, string) {
	burstOnce.Do(func() {
		dbPath := filepath.Join(filepath.Dir(builtTend(b)), "burst.db")
		srv := startChild(b, dbPath, true)
		const writers = 8
		var wg sync.WaitGroup
		var failed atomic.Int64
		for w := range writers {
			wg.Go(func() {
				for i := w; i < burstTasks; i += writers {
					status, _, err := apiRequest(context.Background(), srv.url, srv.token, http.MethodPost, "/v1/tasks", fmt.Sprintf(`{"title":"Burst %d"}`, i))
					if err != nil || status != http.StatusCreated {
						failed.Add(1)
					}
				}
			})
		}
		wg.Wait()
		if n := failed.Load(); n > 0 {
			b.Fatalf("%d of %d seed tasks not created", n, burstTasks)
		}
		// Stopped, not killed: the file is whole without its WAL.
		if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			b.Fatal(err)
		}
		<-srv.done
		srv.done <- nil
		burstPath, burstToken = dbPath, srv.token
	})
	if burstPath == "" {
		b.Fatal("the seed failed in an earlier run")
	}
	return burstPath, burstToken
}

var (
	burstOnce             sync.Once
	burstPath, burstToken string
)

// startOnCopy starts `tend serve` in a child process on a copy of the file
// at seed (burstSeed's, with its WAL), loopback allowed as an outbound
// address, so that a benchmark leaves the seed as it found it.
func startOnCopy(b *testing.B, seed string) *child {
	dir := b.TempDir()
	for _, suffix := range []string{"", "-wal"} {
		if err := copyFile(seed+suffix, filepath.Join(dir, "tend.db"+suffix)); err != nil && !errors.Is(err, os.ErrNotExist) {
			b.Fatal(err)
		}
	}
	return startChild(b, filepath.Join(dir, "tend.db"), false, "--outbound-allow", "127.0.0.1/32")
}

// renameTask times the benchmarks' cheap write: PATCH of task 1's title
// to its i-th name.
func renameTask(b *testing.B, srv *child, token string, i int) time.Duration {
	t0 := time.Now()
	benchCall(b, http.StatusOK, srv.url, token, http.MethodPatch, "/v1/tasks/1", fmt.Sprintf(`{"title":"Renamed %d"}`, i), nil)
	return time.Since(t0)
}

// reportWrites reports the p50 and p99 of the writes timed in took.
func reportWrites(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
}
