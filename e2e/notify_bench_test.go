package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// notifyBurst is how many reminders the burst fires in one minute.
const notifyBurst = 10000

// BenchmarkNotifyBurst: notifyBurst tasks, each with a reminder at the
// same instant a little ahead, are created in `tend serve` (a child
// process) with an ntfy channel to a receiver on loopback in this process
// that answers at once. Reported: sent-s, from the instant the reminders
// fell due to the last one's arrival, and sent/s. Run with -benchtime=1x.
func BenchmarkNotifyBurst(b *testing.B) {
	for b.Loop() {
		var got atomic.Int64
		last := make(chan time.Time, 1)
		rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			if got.Add(1) == notifyBurst {
				last <- time.Now()
			}
			w.WriteHeader(http.StatusOK)
		}))
		srv := startChild(b, filepath.Join(b.TempDir(), "tend.db"), true, "--outbound-allow", "127.0.0.1/32")
		benchCall(b, http.StatusCreated, srv.url, srv.token, http.MethodPost, "/v1/me/channels", fmt.Sprintf(`{"type":"ntfy","url":%q}`, rcv.URL+"/burst"), nil)
		// Far enough ahead that every task is written before it; the
		// creates run eight at a time.
		at := time.Now().Add(90 * time.Second).Truncate(time.Minute).Add(time.Minute)
		var wg sync.WaitGroup
		var failed atomic.Int64
		for w := range 8 {
			wg.Go(func() {
				for i := w; i < notifyBurst; i += 8 {
					status, _, err := apiRequest(context.Background(), srv.url, srv.token, http.MethodPost, "/v1/tasks",
						fmt.Sprintf(`{"title":"Burst %d","reminders":[{"at":%q}]}`, i, at.UTC().Format(time.RFC3339)))
					if err != nil || status != http.StatusCreated {
						failed.Add(1)
					}
				}
			})
		}
		wg.Wait()
		if n := failed.Load(); n > 0 || !time.Now().Before(at) {
			b.Fatalf("%d tasks not created, or created past the reminders' time", n)
		}
		var end time.Time
		select {
		case end = <-last:
		case <-time.After(time.Until(at) + 5*time.Minute):
			b.Fatalf("%d of %d reminders arrived", got.Load(), notifyBurst)
		}
		took := end.Sub(at)
		b.ReportMetric(took.Seconds(), "sent-s")
		b.ReportMetric(notifyBurst/took.Seconds(), "sent/s")
		rcv.Close()
	}
}

// BenchmarkWriteWhileNotifying times a cheap write, PATCH of a task's
// title over loopback, one every writePace against `tend serve` on a copy
// of burstSeed's file: "quiet" with no notification going out, "notifying"
// while 1,000 go to an ntfy receiver that answers each after 5 s, which
// takes about 80 s with 64 in flight. Paced, 1,000 writes (-benchtime
// 1000x) span that whole time rather than its first seconds. Reported:
// p50-ms and p99-ms of the write, and with notifications the sends still
// waiting when the writes ended (near 0: the writes were timed while
// sending went on throughout).
func BenchmarkWriteWhileNotifying(b *testing.B) {
	seed, token := burstSeed(b)
	b.Run("quiet", func(b *testing.B) { benchWriteNotifying(b, seed, token, false) })
	b.Run("notifying", func(b *testing.B) { benchWriteNotifying(b, seed, token, true) })
}

// writePace is the time between two writes of BenchmarkWriteWhileNotifying.
const writePace = 80 * time.Millisecond

func benchWriteNotifying(b *testing.B, seed, token string, notifying bool) {
	srv := startOnCopy(b, seed)
	var answered atomic.Int64
	const queued = 1000
	if notifying {
		stop := make(chan struct{})
		rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			select {
			case <-time.After(5 * time.Second):
			case <-stop:
			}
			answered.Add(1)
			w.WriteHeader(http.StatusOK)
		}))
		b.Cleanup(rcv.Close)
		b.Cleanup(func() { close(stop) })
		var ch struct{ ID string }
		benchCall(b, http.StatusCreated, srv.url, token, http.MethodPost, "/v1/me/channels", fmt.Sprintf(`{"type":"ntfy","url":%q}`, rcv.URL+"/slow"), &ch)
		for range queued {
			benchCall(b, http.StatusAccepted, srv.url, token, http.MethodPost, "/v1/me/channels/"+ch.ID+"/test", "", nil)
		}
	}
	var took []time.Duration
	i := 0
	tick := time.NewTicker(writePace)
	defer tick.Stop()
	for b.Loop() {
		<-tick.C
		i++
		took = append(took, renameTask(b, srv, token, i))
	}
	reportWrites(b, took)
	if notifying {
		b.ReportMetric(float64(queued-answered.Load()), "sends-left")
	}
}
