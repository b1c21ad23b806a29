package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// TestWebhookKillNine: `tend serve --outbound-allow 127.0.0.1/32` runs as
// a child process while four clients create tasks and comment on them,
// and three receivers on loopback in this process take its webhooks: one
// answers at once, one slowly, one fails half the time. The server is
// killed with SIGKILL after a random number of acknowledged writes and
// started again on the same file, several times over (once with -short);
// then the deliveries are let finish. Required of every endpoint, from the
// events in the file: each event it matches arrived, signed so that the
// Standard Webhooks library verifies it; first arrivals came in seq order,
// none skipped; and an event arrived again only as often as there were
// kills, one delivery being in flight per endpoint when the server died.
//
// TEND_TEST_RETRY_SCALE shrinks the retry schedule (5 s, 5 min, …) ten
// thousand times, so that the failing receiver's retries take
// milliseconds; the drill waits on arrivals, never on a clock.
func TestWebhookKillNine(t *testing.T) {
	t.Parallel()
	kills, writesPerRound := 3, 80
	if testing.Short() {
		kills, writesPerRound = 1, 30
	}
	dbPath := tempDB(t)
	env := append(os.Environ(), "TEND_TEST_RETRY_SCALE=0.0001")
	start := func(first bool) *child {
		return startServe(t, env, first, "--db", dbPath, "serve", "--addr", "127.0.0.1:0", "--outbound-allow", "127.0.0.1/32")
	}
	arrived := make(chan struct{}, 1)
	receivers := []*drillReceiver{
		newDrillReceiver(t, "normal", arrived, []string{"*"}, 0, false),
		newDrillReceiver(t, "slow", arrived, []string{"task.*"}, 20*time.Millisecond, false),
		newDrillReceiver(t, "failing", arrived, []string{"task.created", "comment.*"}, 0, true),
	}
	srv := start(true)
	token := srv.token
	for _, r := range receivers {
		status, out := apiJSON(t, srv.url, token, http.MethodPost, "/v1/webhooks",
			map[string]any{"url": r.URL + "/" + r.name, "events": r.events})
		if status != http.StatusCreated {
			t.Fatalf("webhook %s: %d %v", r.name, status, out)
		}
		r.setSecret(t, out["secret"].(string))
	}
	since := newestEvent(t, dbPath)
	for round := range kills {
		if round > 0 {
			srv = start(false)
		}
		n := writeComments(t, srv, token, fmt.Sprintf("k%d", round), writesPerRound/2+rand.IntN(writesPerRound), true)
		t.Logf("round %d: killed after %d acknowledged writes", round, n)
	}
	srv = start(false)
	writeComments(t, srv, token, "last", writesPerRound/4, false)
	want := map[string][]int64{}
	for _, r := range receivers {
		want[r.name] = matchingEvents(t, dbPath, since, r.events)
	}
	// Waiting for every arrival fails only when none comes for longer than
	// a lease (a minute): a delivery that is stuck, not one that is slow.
	for {
		missing := 0
		for _, r := range receivers {
			missing += r.missing(want[r.name])
		}
		if missing == 0 {
			break
		}
		select {
		case <-arrived:
		case <-time.After(90 * time.Second):
			t.Fatalf("%d deliveries still missing, and none arrived for 90 s", missing)
		}
	}
	if err := srv.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-srv.done
	srv.done <- nil // for the cleanup's wait
	openChecked(t, dbPath)
	for _, r := range receivers {
		r.check(t, want[r.name], kills)
	}
}

// drillReceiver takes one endpoint's deliveries: it checks each one's
// signature and keeps the seq of each it accepted, in arrival order.
type drillReceiver struct {
	*httptest.Server
	name    string
	events  []string
	arrived chan<- struct{}
	mu      sync.Mutex
	hook    *standardwebhooks.Webhook
	seqs    []int64 // accepted, in arrival order
	refused map[string]int
	bad     []string // what did not verify or parse
}

// newDrillReceiver starts a receiver that answers after delay, and, when
// flaky, answers 500 on a coin toss, though never three times to the same
// event, so that no delivery spends its nine retries.
func newDrillReceiver(t *testing.T, name string, arrived chan<- struct{}, events []string, delay time.Duration, flaky bool) *drillReceiver {
	r := &drillReceiver{name: name, events: events, arrived: arrived, refused: map[string]int{}}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		time.Sleep(delay)
		id := req.Header.Get("webhook-id")
		r.mu.Lock()
		defer r.mu.Unlock()
		if flaky && r.refused[id] < 2 && rand.IntN(2) == 0 {
			r.refused[id]++
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		var p struct {
			Type string `json:"type"`
			Data struct {
				Seq    int64  `json:"seq"`
				ID     string `json:"id"`
				Action string `json:"action"`
			} `json:"data"`
		}
		switch err := r.hook.Verify(body, req.Header); {
		case err != nil:
			r.bad = append(r.bad, fmt.Sprintf("%s: %v", id, err))
		case json.Unmarshal(body, &p) != nil || p.Data.ID != id || p.Type != p.Data.Action || p.Data.Seq == 0:
			r.bad = append(r.bad, fmt.Sprintf("%s: %.200s", id, body))
		default:
			r.seqs = append(r.seqs, p.Data.Seq)
		}
		w.WriteHeader(http.StatusNoContent)
		select {
		case r.arrived <- struct{}{}:
		default:
		}
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *drillReceiver) setSecret(t *testing.T, secret string) {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	r.hook = wh
	r.mu.Unlock()
}

// missing counts the events of want that have not arrived.
func (r *drillReceiver) missing(want []int64) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	got := map[int64]bool{}
	for _, s := range r.seqs {
		got[s] = true
	}
	n := 0
	for _, s := range want {
		if !got[s] {
			n++
		}
	}
	return n
}

// check asserts what the drill requires of one endpoint.
func (r *drillReceiver) check(t *testing.T, want []int64, kills int) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.bad) > 0 {
		t.Errorf("%s: %d deliveries did not verify, such as %s", r.name, len(r.bad), r.bad[0])
	}
	var first []int64
	times := map[int64]int{}
	dups := 0
	for _, s := range r.seqs {
		if times[s]++; times[s] == 1 {
			first = append(first, s)
		} else {
			dups++
		}
	}
	if len(first) != len(want) {
		t.Errorf("%s: %d events arrived, %d match it", r.name, len(first), len(want))
	}
	for i := range min(len(first), len(want)) {
		if first[i] != want[i] {
			t.Errorf("%s: arrival %d is event %d, event %d was due (arrivals %v)", r.name, i, first[i], want[i], first[max(0, i-3):min(len(first), i+4)])
			break
		}
	}
	if dups > kills {
		t.Errorf("%s: %d events arrived twice or more over %d kills: only the one in flight at each kill may", r.name, dups, kills)
	}
	t.Logf("%s: %d events, %d arrived again after a kill, %d refused once or twice", r.name, len(first), dups, len(r.refused))
}

// writeComments creates tasks and comments on each with four clients
// until target writes were acknowledged, then stops them, killing the
// server first while they go on when kill says so, and answers how many
// writes were acknowledged.
func writeComments(t *testing.T, s *child, token, prefix string, target int, kill bool) int {
	t.Helper()
	var (
		acked   atomic.Int64
		stopped = make(chan struct{})
		once    sync.Once
		wg      sync.WaitGroup
	)
	stop := func() {
		once.Do(func() {
			if kill {
				if err := s.cmd.Process.Kill(); err != nil {
					t.Error(err)
				}
			}
			close(stopped)
		})
	}
	ctx := context.Background()
	for w := range 4 {
		wg.Go(func() {
			refused := 0
			for i := 0; ; i++ {
				select {
				case <-stopped:
					return
				default:
				}
				ok := func() bool {
					status, b, err := apiRequest(ctx, s.url, token, http.MethodPost, "/v1/tasks", fmt.Sprintf(`{"title":"%s-w%d-%d"}`, prefix, w, i))
					var task struct{ ID string }
					if err != nil || status != http.StatusCreated || json.Unmarshal(b, &task) != nil {
						return false
					}
					if acked.Add(1) >= int64(target) {
						stop()
					}
					status, _, err = apiRequest(ctx, s.url, token, http.MethodPost, "/v1/tasks/"+task.ID+"/comments", `{"body":"seen"}`)
					return err == nil && status == http.StatusCreated
				}()
				if ok && acked.Add(1) >= int64(target) {
					stop()
				}
				// Before the kill nothing should fail: a broken server
				// ends the round instead of the test hanging.
				if !ok {
					if refused++; refused == 100 {
						t.Errorf("writer %d: 100 writes not acknowledged before the kill", w)
						stop()
					}
				}
			}
		})
	}
	wg.Wait()
	if kill {
		<-s.done
		s.done <- nil // for the cleanup's wait
	}
	return int(acked.Load())
}

// newestEvent is the seq of the newest event in the file.
func newestEvent(t *testing.T, dbPath string) int64 {
	t.Helper()
	var seq int64
	if err := openChecked(t, dbPath).QueryRow("SELECT max(seq) FROM events").Scan(&seq); err != nil {
		t.Fatal(err)
	}
	return seq
}

// matchingEvents reads from the file, in seq order, the workspace events
// after since whose action matches one of patterns (the API's GLOBs, which
// path.Match reads the same on actions).
func matchingEvents(t *testing.T, dbPath string, since int64, patterns []string) []int64 {
	t.Helper()
	rows, err := openChecked(t, dbPath).Query("SELECT seq, action FROM events WHERE seq > ? AND workspace_id IS NOT NULL ORDER BY seq", since)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var seq int64
		var action string
		if err := rows.Scan(&seq, &action); err != nil {
			t.Fatal(err)
		}
		for _, p := range patterns {
			if ok, _ := path.Match(p, action); ok {
				out = append(out, seq)
				break
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
