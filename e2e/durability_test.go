package main

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestKillNineLosesNoAcknowledgedWrite: `tend serve` is killed with
// SIGKILL while eight clients write over HTTP, at a point picked at random
// (after a random number of acknowledged writes, so the test waits on
// events, never on a clock), and restarted, several times over. After each
// kill the file passes integrity_check and holds every write that was
// acknowledged, in every round so far. The server is the real main() run
// by this test binary in a child process, on loopback.
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

// child is a running `tend serve` child.
type child struct {
	cmd   *exec.Cmd
	url   string
	token string // printed on the first start only
	done  chan error
}

// startChild starts `tend serve`, as a process of its own, on dbPath and a
// free loopback port, with more flags if given, and waits until it listens
// (and, on a first start, until it printed the administrator's token).
func startChild(t testing.TB, dbPath string, first bool, flags ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"--db", dbPath, "serve", "--addr", "127.0.0.1:0"}, flags...)...)
	cmd.Env = append(os.Environ(), "TEND_TEST_RUN_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &child{cmd: cmd, done: make(chan error, 1)}
	addr, token := make(chan string, 1), make(chan string, 1)
	scan := func(r io.Reader, re *regexp.Regexp, found chan<- string) {
		sc := bufio.NewScanner(r)
		for sc.Scan() { // drains the pipe for as long as the child lives
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[len(m)-1]:
				default:
				}
			}
		}
		close(found)
	}
	go scan(stderr, servingRE, addr)
	go scan(stdout, secretRE, token)
	a, ok := <-addr
	if first && ok {
		s.token, ok = <-token
	}
	if !ok {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatal("tend serve ended before listening")
	}
	go func() { s.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-s.done
	})
	s.url = "http://" + a
	return s
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
	for w := range writers {
		wg.Go(func() {
			refused := 0
			for i := 0; ; i++ {
				select {
				case <-killed:
					return
				default:
				}
				title := fmt.Sprintf("r%d-w%d-%d", round, w, i)
				if !create(client, s.url, token, title) {
					// Before the kill nothing should fail; bound it so a
					// broken server ends the round instead of the test hanging.
					if refused++; refused == 100 {
						t.Errorf("writer %d: 100 writes not acknowledged before the kill", w)
						kill()
					}
					continue
				}
				mu.Lock()
				titles = append(titles, title)
				if len(titles) >= target {
					kill()
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	<-s.done
	s.done <- nil // for the cleanup's wait
	client.CloseIdleConnections()
	return titles
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
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	rows, err := db.Query("SELECT title FROM tasks WHERE title LIKE 'r%-w%'")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	stored := map[string]bool{}
	for rows.Next() {
		var title string
		if err := rows.Scan(&title); err != nil {
			t.Fatal(err)
		}
		stored[title] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
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
