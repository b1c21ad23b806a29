package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestConcurrentWritesOverHTTP puts 50 clients writing through the HTTP API
// for five seconds against the loopback test server: every answer must be a
// 2xx, nothing may be lost, and the database must never report itself locked.
func TestConcurrentWritesOverHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("load test: five seconds of concurrent writes")
	}
	const (
		clients  = 50
		duration = 5 * time.Second
	)
	e := newEnv(t)
	tokens := make([]string, clients)
	for c := range tokens {
		tokens[c] = e.Person(fmt.Sprintf("load%02d", c))
	}

	tr := e.Srv.Client().Transport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = clients
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	defer tr.CloseIdleConnections()

	var (
		writes, failures          atomic.Int64
		workspacesMade, usersMade atomic.Int64
		mu                        sync.Mutex
		firstFailures             []string
		wg                        sync.WaitGroup
		deadline                  = time.Now().Add(duration)
		start                     = time.Now()
	)
	send := func(method, path, token string, body any) bool {
		b, _ := json.Marshal(body)
		req, err := http.NewRequest(method, e.Srv.URL+path, bytes.NewReader(b))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+token)
			var res *http.Response
			if res, err = client.Do(req); err == nil {
				out, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode/100 == 2 {
					writes.Add(1)
					return true
				}
				err = fmt.Errorf("status %d: %s", res.StatusCode, out)
			}
		}
		failures.Add(1)
		mu.Lock()
		if len(firstFailures) < 5 {
			firstFailures = append(firstFailures, fmt.Sprintf("%s %s: %v", method, path, err))
		}
		mu.Unlock()
		return false
	}
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			slug := ""
			for i := 0; time.Now().Before(deadline); i++ {
				switch i % 4 {
				case 0:
					s := fmt.Sprintf("load-%02d-%d", c, i)
					if send(http.MethodPost, "/v1/workspaces", tokens[c], map[string]any{"slug": s, "name": "Load " + s}) {
						slug = s
						workspacesMade.Add(1)
					}
				case 1:
					if slug != "" {
						send(http.MethodPatch, "/v1/workspaces/"+slug, tokens[c], map[string]any{"name": fmt.Sprintf("Renamed %d", i)})
					}
				case 2:
					if send(http.MethodPost, "/v1/users", e.Admin, map[string]any{"username": fmt.Sprintf("u%02d-%d", c, i)}) {
						usersMade.Add(1)
					}
				case 3:
					send(http.MethodPost, "/v1/tokens", tokens[c], map[string]any{"title": fmt.Sprintf("load %d", i)})
				}
			}
		}(c)
	}
	wg.Wait()
	took := time.Since(start)

	n := writes.Load()
	t.Logf("%d clients, %v: %d writes, %.0f writes/s, %d failures", clients, took.Round(time.Millisecond), n,
		float64(n)/took.Seconds(), failures.Load())
	if f := failures.Load(); f != 0 {
		t.Errorf("%d requests did not answer 2xx; first ones:\n%s", f, strings.Join(firstFailures, "\n"))
	}
	if n == 0 {
		t.Fatal("no write succeeded")
	}
	logs := strings.ToLower(e.LogText())
	for _, bad := range []string{"database is locked", "sqlite_busy", "busy"} {
		if strings.Contains(logs, bad) {
			t.Errorf("the server log mentions %q", bad)
		}
	}

	// Nothing acknowledged was lost.
	ws := e.OK(http.StatusOK, http.MethodGet, "/v1/instance/workspaces", e.Admin, nil)
	if got, want := len(ws["items"].([]any)), 1+int(workspacesMade.Load()); got != want {
		t.Errorf("%d workspaces on the instance, want %d", got, want)
	}
	us := e.OK(http.StatusOK, http.MethodGet, "/v1/users?limit=1&include_total=true", e.Admin, nil)
	if got, want := us["page"].(map[string]any)["total"], float64(1+clients+usersMade.Load()); got != want {
		t.Errorf("%v accounts, want %v", got, want)
	}
}
