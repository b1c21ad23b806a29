package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestStandbyDrill: the built binary serves as the primary, replicating to
// an S3-protocol server run by the test (gofakes3), and a second one
// follows that replica (tend serve --follow). Four clients write to the
// primary while a sampler measures how long an acknowledged write takes to
// be served by the standby; then the primary is killed with SIGKILL, the
// standby is promoted with tend promote, and it must take writes and pass
// integrity_check once stopped.
//
// What it must hold is judged as the replication drill judges a restore:
// every write acknowledged before the last synced_through the primary
// reported on /readyz (the primary's own account of what is off the
// machine) must be on the promoted standby, with no timing in the check.
// The loss window, how long before the kill the oldest missing write was
// acknowledged, is logged with the number of rounds in which it passed one
// sync interval (the replication loop aims at one interval; a loaded
// machine's slow round can stretch it), and fails only past the interval
// plus two seconds, a bound a replica that syncs at all never reaches.
//
// Visibility is measured and logged (p50, p99, the worst) and fails only
// past 10 s, a bound a standby that follows at all never reaches; the
// issue's 2 s p99 is what BENCHMARKS.md records. TEND_DRILL_ROUNDS=N runs
// N rounds (.ci/run runs 10); unset, one; TEND_DRILL_WRITERS sets the
// writers (4; BENCHMARKS.md measures 8).
func TestStandbyDrill(t *testing.T) {
	if testing.Short() {
		t.Skip("the standby drill runs two servers under load; not in -short")
	}
	rounds := 1
	if v := os.Getenv("TEND_DRILL_ROUNDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("TEND_DRILL_ROUNDS=%q is not a positive number", v)
		}
		rounds = n
	}
	writers := 4
	if v := os.Getenv("TEND_DRILL_WRITERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("TEND_DRILL_WRITERS=%q is not a positive number", v)
		}
		writers = n
	}
	var lags []time.Duration
	var failovers []time.Duration
	var worst time.Duration
	beyond := 0 // rounds that lost a write acknowledged more than one interval before the kill
	for round := range rounds {
		l, f, w := standbyRound(t, round, writers)
		lags = append(lags, l...)
		failovers = append(failovers, f)
		worst = max(worst, w)
		if w > drillInterval {
			beyond++
		}
	}
	slices.Sort(lags)
	slices.Sort(failovers)
	pct := func(p float64) time.Duration { return lags[min(len(lags)-1, int(p*float64(len(lags))))] }
	t.Logf("%d rounds, %d writers, sync interval %s: standby visibility p50 %s p99 %s max %s over %d samples; kill to first write after promote: median %s, worst %s; widest loss window %s, past one interval in %d of %d rounds",
		rounds, writers, drillInterval, pct(0.5).Round(time.Millisecond), pct(0.99).Round(time.Millisecond), lags[len(lags)-1].Round(time.Millisecond), len(lags),
		failovers[len(failovers)/2].Round(time.Millisecond), failovers[len(failovers)-1].Round(time.Millisecond), worst.Round(time.Millisecond), beyond, rounds)
	if worst := lags[len(lags)-1]; worst > 10*time.Second {
		t.Errorf("a write took %s to reach the standby", worst)
	}
}

// standbyRound runs one primary and standby pair to a failover, and
// answers the visibility lags sampled, the time from the kill to the
// first write the promoted standby accepted, and the loss window: how long
// before the kill the oldest acknowledged write missing from the promoted
// standby was acknowledged (0 when none is missing).
func standbyRound(t *testing.T, round, writers int) ([]time.Duration, time.Duration, time.Duration) {
	replica := drillS3(t)
	dir := t.TempDir()
	primary := startChild(t, filepath.Join(dir, "primary.db"), true, "--replica", replica, "--replica-sync-interval", drillInterval.String())
	token := primary.token
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: writers + 4}}
	for deadline := time.Now().Add(time.Minute); ; {
		if _, ok := syncedThrough(client, primary.url); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the primary never reported a sync to the replica")
		}
		time.Sleep(20 * time.Millisecond)
	}
	standbyPath := filepath.Join(dir, "standby.db")
	standby := startChild(t, standbyPath, false, "--follow", replica, "--follow-interval", "50ms", "--primary-url", primary.url)

	type ack struct {
		ref int
		at  time.Time
	}
	var (
		mu     sync.Mutex
		acked  = map[string]time.Time{}
		latest ack
		lags   []time.Duration
		wg     sync.WaitGroup
	)
	stop := make(chan struct{})
	stopped := func() bool {
		select {
		case <-stop:
			return true
		default:
			return false
		}
	}
	for w := range writers {
		wg.Go(func() {
			for i := 0; ; i++ {
				if stopped() {
					return
				}
				title := fmt.Sprintf("s%d-w%d-%d", round, w, i)
				ref, ok := createRef(client, primary.url, token, title)
				if !ok {
					continue
				}
				mu.Lock()
				acked[title] = time.Now()
				latest = ack{ref, acked[title]}
				mu.Unlock()
			}
		})
	}
	// The sampler follows one acknowledged write at a time until the
	// standby serves it.
	wg.Go(func() {
		for {
			if stopped() {
				return
			}
			mu.Lock()
			a := latest
			mu.Unlock()
			if a.ref == 0 {
				time.Sleep(time.Millisecond)
				continue
			}
			for get(client, standby.url, token, fmt.Sprintf("/v1/tasks/%d", a.ref)) != http.StatusOK {
				if stopped() {
					return
				}
				time.Sleep(time.Millisecond)
			}
			mu.Lock()
			lags = append(lags, time.Since(a.at))
			mu.Unlock()
		}
	})
	// What the primary says is on the replica, read until the kill: every
	// write acknowledged before it must be on the promoted standby.
	var covered time.Time
	wg.Go(func() {
		for {
			if stopped() {
				return
			}
			if at, ok := syncedThrough(client, primary.url); ok {
				mu.Lock()
				covered = at
				mu.Unlock()
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	// The load runs until the sampler has seen enough writes arrive.
	for {
		time.Sleep(100 * time.Millisecond)
		mu.Lock()
		n := len(lags)
		mu.Unlock()
		if n >= 50 {
			break
		}
	}
	killedAt := time.Now()
	if err := primary.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	<-primary.done
	primary.done <- nil

	// Promote once the standby has applied what the replica holds: nothing
	// behind, and nothing more applied over ten follow intervals.
	for deadline, last, same := time.Now().Add(time.Minute), -1, 0; same < 10; {
		if time.Now().After(deadline) {
			t.Fatal("the standby never caught up with the replica")
		}
		time.Sleep(50 * time.Millisecond)
		behind, applied := followState(client, standby.url)
		if behind == 0 && applied == last {
			same++
		} else {
			same = 0
		}
		last = applied
	}
	cmd := exec.Command(builtTend(t), "promote", "--server", standby.url)
	cmd.Env = append(os.Environ(), "TEND_TOKEN="+token)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tend promote: %v\n%s", err, out)
	}
	for deadline := time.Now().Add(time.Minute); ; {
		if _, ok := createRef(client, standby.url, token, fmt.Sprintf("s%d-after", round)); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the promoted standby took no write")
		}
		time.Sleep(5 * time.Millisecond)
	}
	failover := time.Since(killedAt)
	if err := standby.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-standby.done
	standby.done <- nil
	client.CloseIdleConnections()

	stored := storedTitles(t, standbyPath, fmt.Sprintf("s%d-%%", round))
	var window time.Duration
	var lostCovered []string
	for title, at := range acked {
		if stored[title] {
			continue
		}
		if at.Before(covered) {
			lostCovered = append(lostCovered, title)
		}
		window = max(window, killedAt.Sub(at))
	}
	if len(lostCovered) > 0 {
		t.Fatalf("round %d: %d writes acknowledged before the primary reported the replica synced through %s are not on the promoted standby, such as %v",
			round, len(lostCovered), covered.Format(time.RFC3339Nano), lostCovered[:min(5, len(lostCovered))])
	}
	if limit := drillInterval + 2*time.Second; window > limit {
		t.Fatalf("round %d: a write acknowledged %s before the kill is not on the promoted standby (interval %s)", round, window, drillInterval)
	}
	if !stored[fmt.Sprintf("s%d-after", round)] {
		t.Fatalf("round %d: the write after the failover is not in the file", round)
	}
	t.Logf("round %d: %d writes acknowledged, %d visibility samples, kill to first write after promote %s, loss window %s",
		round, len(acked), len(lags), failover.Round(time.Millisecond), window.Round(time.Millisecond))
	return lags, failover, window
}

// createRef posts one task and answers its ref when the server
// acknowledged it.
func createRef(client *http.Client, base, token, title string) (int, bool) {
	body, _ := json.Marshal(map[string]string{"title": title})
	req, err := http.NewRequest(http.MethodPost, base+"/v1/tasks", bytes.NewReader(body))
	if err != nil {
		return 0, false
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return 0, false
	}
	defer res.Body.Close()
	var task struct {
		Ref int `json:"ref"`
	}
	if res.StatusCode != http.StatusCreated || json.NewDecoder(res.Body).Decode(&task) != nil {
		return 0, false
	}
	return task.Ref, true
}

// get answers the status of a GET of path with token.
func get(client *http.Client, base, token, path string) int {
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		return 0
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := client.Do(req)
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode
}

// followState is how many transactions the standby's /readyz says it has
// not applied, and the last it applied; -1s when it does not say.
func followState(client *http.Client, base string) (behind, applied int) {
	res, err := client.Get(base + "/readyz")
	if err != nil {
		return -1, -1
	}
	defer res.Body.Close()
	var ready struct {
		Follow *struct {
			Transactions int `json:"lag_transactions"`
			Applied      int `json:"applied_txid"`
		} `json:"follow"`
	}
	if json.NewDecoder(res.Body).Decode(&ready) != nil || ready.Follow == nil {
		return -1, -1
	}
	return ready.Follow.Transactions, ready.Follow.Applied
}
