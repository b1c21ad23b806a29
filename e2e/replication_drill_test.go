package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// drillInterval is the replica sync interval the drill runs the server
// with; TEND_DRILL_INTERVAL sets another (BENCHMARKS.md measures the loss
// window at the default, 1s).
var drillInterval = 100 * time.Millisecond

// TestReplicationDrill: `tend serve --replica` runs as a child process on
// one database while eight clients write to it; it is killed with SIGKILL
// at a point picked at random, the replica is restored into a fresh file
// with tend restore --from-replica, and the server is started again on the
// same database for the next round. Replicas: a directory (file://) and an
// S3-protocol server run by this test (gofakes3).
//
// What is required of every round: the restored copy passes
// integrity_check, and it holds every write acknowledged before the last
// synced_through the server reported on /readyz before it was killed: the
// server's own account of what is off the machine is true. The kill waits
// for that account to cover a random number of acknowledged writes, then
// for a random number more (events, not a clock). The writes acknowledged but missing from the copy
// are the ones at risk; the test logs how long before the kill the oldest
// of them was acknowledged, the measured loss window, and fails only past
// the interval plus two seconds, a bound a replica that syncs at all never
// reaches.
//
// It runs when TEND_DRILL_ROUNDS=N asks for N rounds per replica: CI's
// replication drill step, on its own, without the race detector (under it
// a round takes ten times as long). The everyday suite skips it; the store
// tests replicate and restore both kinds in-process.
func TestReplicationDrill(t *testing.T) {
	v := os.Getenv("TEND_DRILL_ROUNDS")
	if v == "" {
		t.Skip("set TEND_DRILL_ROUNDS=N to run N kill -9 rounds per replica (.ci/run runs 12)")
	}
	rounds, err := strconv.Atoi(v)
	if err != nil || rounds < 1 {
		t.Fatalf("TEND_DRILL_ROUNDS=%q is not a positive number", v)
	}
	if v := os.Getenv("TEND_DRILL_INTERVAL"); v != "" {
		if drillInterval, err = time.ParseDuration(v); err != nil {
			t.Fatalf("TEND_DRILL_INTERVAL: %v", err)
		}
	}
	for _, kind := range []string{"file", "s3"} {
		t.Run(kind, func(t *testing.T) {
			replica := "file://" + filepath.Join(t.TempDir(), "replica")
			if kind == "s3" {
				replica = drillS3(t)
			}
			dbPath := filepath.Join(t.TempDir(), "tend.db")
			var token string
			acked := map[string]time.Time{}
			var worst time.Duration
			for round := range rounds {
				srv := startChild(t, dbPath, round == 0, "--replica", replica, "--replica-sync-interval", drillInterval.String())
				if round == 0 {
					token = srv.token
				}
				r := replicateUntilKilled(t, srv, token, round, 30+rand.IntN(200), rand.IntN(1500))
				for title, at := range r.acked {
					acked[title] = at
				}
				window := checkRestore(t, replica, acked, r)
				worst = max(worst, window)
				t.Logf("round %d: killed after %d acknowledged writes; replica synced through %s before the kill; loss window %s",
					round, len(r.acked), r.killedAt.Sub(r.syncedThrough).Round(time.Millisecond), window.Round(time.Millisecond))
			}
			t.Logf("%s replica, %d rounds, interval %s: widest loss window %s", kind, rounds, drillInterval, worst.Round(time.Millisecond))
		})
	}
}

// drillS3 runs an S3-protocol server for the child to replicate to and
// answers the replica URL.
func drillS3(t *testing.T) string {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("drill"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "drill-key-id")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "drill-secret-key")
	t.Setenv("AWS_CA_BUNDLE", os.Getenv("AWS_CA_BUNDLE"))
	t.Setenv("SSL_CERT_FILE", os.Getenv("SSL_CERT_FILE"))
	return "s3://drill/tend?endpoint=" + url.QueryEscape(srv.URL)
}

// drillRound is what one round saw.
type drillRound struct {
	acked         map[string]time.Time // title → when its 201 arrived
	syncedThrough time.Time            // the last the server reported before the kill
	killedAt      time.Time
}

// replicateUntilKilled writes with eight clients and watches /readyz; once
// the server reports as replicated the target-th acknowledged write, and
// then extra more writes were acknowledged (so that the kill falls anywhere
// in the sync cycle, not just after a sync), it is killed while the clients
// go on.
func replicateUntilKilled(t *testing.T, s *child, token string, round, target, extra int) drillRound {
	t.Helper()
	const writers = 8
	var (
		mu      sync.Mutex
		r       = drillRound{acked: map[string]time.Time{}}
		order   []time.Time // ack times in arrival order
		killed  = make(chan struct{})
		once    sync.Once
		wg      sync.WaitGroup
		failure string
		killAt  = -1 // the count of acknowledged writes to kill at, once known
	)
	kill := func(why string) {
		once.Do(func() {
			r.killedAt = time.Now()
			if err := s.cmd.Process.Kill(); err != nil {
				t.Error(err)
			}
			failure = why
			close(killed)
		})
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: writers + 1}}
	writeLoad(&wg, client, s, token, fmt.Sprintf("d%d", round), writers, killed, func(title string) {
		at := time.Now()
		mu.Lock()
		r.acked[title] = at
		order = append(order, at)
		// A replica that never catches up ends the round instead of the
		// test hanging.
		if len(order) > target+50000 {
			kill("the server never reported the target write as replicated")
		}
		if killAt >= 0 && len(order) >= killAt {
			kill("")
		}
		mu.Unlock()
	}, func(w int) {
		kill(fmt.Sprintf("writer %d: 100 writes not acknowledged before the kill", w))
	})
	wg.Go(func() {
		poll := time.NewTicker(5 * time.Millisecond) // how often /readyz is asked, not a wait for an outcome
		defer poll.Stop()
		for {
			select {
			case <-killed:
				return
			case <-poll.C:
			}
			synced, ok := syncedThrough(client, s.url)
			if !ok {
				continue
			}
			mu.Lock()
			if synced.After(r.syncedThrough) {
				r.syncedThrough = synced
			}
			if killAt < 0 && len(order) >= target && r.syncedThrough.After(order[target-1]) {
				killAt = len(order) + extra
			}
			mu.Unlock()
		}
	})
	wg.Wait()
	<-s.done
	s.done <- nil // for the cleanup's wait
	client.CloseIdleConnections()
	if failure != "" {
		t.Fatalf("round %d: %s", round, failure)
	}
	return r
}

// syncedThrough reads replication.synced_through from /readyz.
func syncedThrough(client *http.Client, base string) (time.Time, bool) {
	res, err := client.Get(base + "/readyz")
	if err != nil {
		return time.Time{}, false
	}
	defer res.Body.Close()
	var body struct {
		Replication struct {
			SyncedThrough *time.Time `json:"synced_through"`
		} `json:"replication"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || body.Replication.SyncedThrough == nil {
		return time.Time{}, false
	}
	return *body.Replication.SyncedThrough, true
}

// checkRestore restores the replica into a fresh file with tend restore,
// checks it as the drill requires, and returns the loss window: how long
// before the kill the oldest acknowledged write missing from it was
// acknowledged (0 when none is missing).
func checkRestore(t *testing.T, replica string, acked map[string]time.Time, r drillRound) time.Duration {
	t.Helper()
	fresh := filepath.Join(t.TempDir(), "restored.db")
	mustRun(t, "--db", fresh, "restore", "--from-replica", replica)
	stored := storedTitles(t, fresh, "d%-w%")
	var window time.Duration
	var lostCovered []string
	for title, at := range acked {
		if stored[title] {
			continue
		}
		if at.Before(r.syncedThrough) {
			lostCovered = append(lostCovered, title)
		}
		window = max(window, r.killedAt.Sub(at))
	}
	if len(lostCovered) > 0 {
		t.Fatalf("%d writes acknowledged before the server reported the replica synced through %s are not in it, such as %s",
			len(lostCovered), r.syncedThrough.Format(time.RFC3339Nano), lostCovered[0])
	}
	if limit := drillInterval + 2*time.Second; window > limit {
		t.Fatalf("a write acknowledged %s before the kill is not in the replica (interval %s)", window, drillInterval)
	}
	return window
}
