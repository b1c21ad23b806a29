package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestKillNineLosesNoAcknowledgedWrite: `tend serve` is killed with
// SIGKILL while eight clients write over HTTP, at a point picked at random
// (after a random number of acknowledged writes, so the test waits on
// events, never on a clock), and restarted, several times over. After each
// kill the file passes integrity_check and holds every write that was
// acknowledged, in every round so far. The server is the built tend in a
// child process, on loopback.
func TestKillNineLosesNoAcknowledgedWrite(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts and kills a server five times")
	}
	dbPath := filepath.Join(t.TempDir(), "tend.db")
	const rounds, writers = 5, 8
	var token string
	acked := map[string]bool{}
	for round := range rounds {
		srv := startChild(t, dbPath, round == 0)
		if round == 0 {
			token = srv.token
		}
		target := 20 + rand.IntN(100)
		got := writeUntilKilled(t, srv, token, round, writers, target)
		for _, title := range got {
			acked[title] = true
		}
		t.Logf("round %d: killed after %d acknowledged writes", round, len(got))
		assertDurable(t, dbPath, acked)
	}
}

// writeUntilKilled runs writers clients creating tasks until target writes
// were acknowledged, then kills the server while they go on, and returns
// the titles of every write that was acknowledged.
func writeUntilKilled(t *testing.T, s *child, token string, round, writers, target int) []string {
	t.Helper()
	var (
		mu     sync.Mutex
		titles []string
		killed = make(chan struct{})
		once   sync.Once
		wg     sync.WaitGroup
	)
	kill := func() {
		once.Do(func() {
			if err := s.cmd.Process.Kill(); err != nil {
				t.Error(err)
			}
			close(killed)
		})
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: writers}}
	writeLoad(&wg, client, s, token, fmt.Sprintf("r%d", round), writers, killed, func(title string) {
		mu.Lock()
		titles = append(titles, title)
		if len(titles) >= target {
			kill()
		}
		mu.Unlock()
	}, func(w int) {
		t.Errorf("writer %d: 100 writes not acknowledged before the kill", w)
		kill()
	})
	wg.Wait()
	<-s.done
	s.done <- nil // for the cleanup's wait
	client.CloseIdleConnections()
	return titles
}

// writeLoad starts writers clients on wg, each creating tasks titled
// prefix-wN-I on s until killed is closed: acked hears each title the
// server acknowledged; refused hears a writer's hundredth refusal, since
// before the kill nothing should fail and a broken server must end the
// round instead of the test hanging.
func writeLoad(wg *sync.WaitGroup, client *http.Client, s *child, token, prefix string, writers int, killed <-chan struct{},
	acked func(title string), refused func(w int)) {
	for w := range writers {
		wg.Go(func() {
			n := 0
			for i := 0; ; i++ {
				select {
				case <-killed:
					return
				default:
				}
				title := fmt.Sprintf("%s-w%d-%d", prefix, w, i)
				if !create(client, s.url, token, title) {
					if n++; n == 100 {
						refused(w)
					}
					continue
				}
				acked(title)
			}
		})
	}
}

// create posts one task and reports whether the server acknowledged it.
func create(client *http.Client, base, token, title string) bool {
	body, _ := json.Marshal(map[string]string{"title": title})
	req, err := http.NewRequest(http.MethodPost, base+"/v1/tasks", bytes.NewReader(body))
	if err != nil {
		return false
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return false
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode == http.StatusCreated
}

// assertDurable opens the file the killed server left, as the next start
// would, and checks its integrity and that every acknowledged title is in it.
func assertDurable(t *testing.T, dbPath string, acked map[string]bool) {
	t.Helper()
	stored := storedTitles(t, dbPath, "r%-w%")
	var lost []string
	for title := range acked {
		if !stored[title] {
			lost = append(lost, title)
		}
	}
	if len(lost) > 0 {
		t.Fatalf("%d of %d acknowledged writes lost, such as %s", len(lost), len(acked), strings.Join(lost[:min(5, len(lost))], ", "))
	}
}
