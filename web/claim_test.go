package web_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"tend/store/storetest"
)

// tskTime parses a timestamp field of a response.
func tskTime(t *testing.T, m map[string]any, field string) time.Time {
	t.Helper()
	s, ok := m[field].(string)
	if !ok {
		t.Fatalf("%s is not a timestamp: %v", field, m[field])
	}
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("%s: %v", field, err)
	}
	return v
}

// tskClock moves the store's clock to its epoch plus offset. It is only
// called between requests: the next request happens after it.
func (e *env) tskClock(offset time.Duration) {
	e.Clock.Set(storetest.Epoch.Add(offset))
}

func TestTaskClaim(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pat := e.Member("pat", "member")
	vic := e.Member("vic", "viewer")
	bot := e.tskAgent("bot")
	task := e.CreateTask(e.Admin, map[string]any{"title": "Claim me"})
	claim := tskPath(task, "claim")

	// The default lease is the claim_minutes setting: 30 minutes out of the box.
	first := e.OK(http.StatusOK, http.MethodPost, claim, e.Admin, nil)
	tskWant(t, first, map[string]any{"claimed_by": "admin", "claimed_by_is_agent": false, "claimed_by_answers_to": nil, "version": 2})
	if first["claimed_by_id"] == nil {
		t.Fatalf("claimed_by_id is set: %v", first)
	}
	took, until := tskTime(t, first, "claimed_at"), tskTime(t, first, "claim_expires_at")
	if until.Sub(took) != 30*time.Minute {
		t.Fatalf("default lease %v, want 30m", until.Sub(took))
	}

	t.Run("held by another", func(t *testing.T) {
		for _, tok := range []string{pat, bot} {
			p := e.Problem(http.StatusConflict, "claim_held", http.MethodPost, claim, tok, nil)
			if p["holder"] != "admin" || p["expires_at"] == nil {
				t.Fatalf("the refusal names the holder and the expiry: %v", p)
			}
			if exp := tskTime(t, p, "expires_at"); !exp.Equal(until) {
				t.Fatalf("expires_at %v, want %v", exp, until)
			}
			if !strings.Contains(p["detail"].(string), "admin") {
				t.Fatalf("the detail names the holder: %v", p["detail"])
			}
		}
		tskWant(t, e.tskGet(task), map[string]any{"claimed_by": "admin", "version": 2})
	})
	t.Run("renewal keeps claimed_at", func(t *testing.T) {
		e.tskClock(10 * time.Minute)
		defer e.tskClock(0)
		again := e.OK(http.StatusOK, http.MethodPost, claim, e.Admin, nil)
		if !tskTime(t, again, "claimed_at").Equal(took) {
			t.Fatalf("claimed_at moved on renewal: %v, want %v", again["claimed_at"], first["claimed_at"])
		}
		if got := tskTime(t, again, "claim_expires_at"); got.Sub(until) < 9*time.Minute {
			t.Fatalf("renewal extends the lease: %v, was %v", got, until)
		}
		until = tskTime(t, again, "claim_expires_at")
	})
	t.Run("an expired claim is not held", func(t *testing.T) {
		e.tskClock(until.Sub(storetest.Epoch) + time.Second)
		defer e.tskClock(0)
		got := e.tskGet(task)
		tskWant(t, got, map[string]any{"claimed_by": nil, "claimed_by_id": nil, "claimed_at": nil, "claim_expires_at": nil})
		if n := len(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?claimed_by=admin", e.Admin, nil)["items"].([]any)); n != 0 {
			t.Fatalf("an expired claim is left out of claimed_by: %d items", n)
		}
		before := len(e.tskEvents(e.Admin, task, ""))
		e.OK(http.StatusOK, http.MethodPost, tskPath(task, "release"), e.Admin, nil)
		if after := len(e.tskEvents(e.Admin, task, "")); after != before {
			t.Fatalf("releasing an expired claim recorded %d events", after-before)
		}
		taken := e.OK(http.StatusOK, http.MethodPost, claim+"?minutes=5", pat, nil)
		tskWant(t, taken, map[string]any{"claimed_by": "pat"})
		if tskTime(t, taken, "claim_expires_at").Sub(tskTime(t, taken, "claimed_at")) != 5*time.Minute {
			t.Fatalf("minutes=5 gives a five-minute lease: %v", taken)
		}
		if !tskTime(t, taken, "claimed_at").After(took) {
			t.Fatalf("a new claim has its own claimed_at")
		}
		p := e.Problem(http.StatusConflict, "claim_held", http.MethodPost, claim, e.Admin, nil)
		if p["holder"] != "pat" {
			t.Fatalf("holder %v, want pat", p["holder"])
		}
		mine := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?claimed_by=me", pat, nil)["items"].([]any)
		if len(mine) != 1 {
			t.Fatalf("claimed_by=me lists the claim: %v", mine)
		}
	})
	t.Run("release by anybody who may change it", func(t *testing.T) {
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, tskPath(task, "release"), vic, nil)
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, claim, vic, nil)
		before := e.tskEvents(e.Admin, task, "")
		// bot is a member like pat and holds no claim: it may release pat's.
		got := e.OK(http.StatusOK, http.MethodPost, tskPath(task, "release"), bot, nil)
		tskWant(t, got, map[string]any{"claimed_by": nil, "claimed_at": nil, "claim_expires_at": nil})
		after := e.tskEvents(e.Admin, task, "")
		if len(after) != len(before)+1 || after[0]["action"] != "task.released" {
			t.Fatalf("a release records one task.released event: %v", tskActions(after))
		}
		if after[0]["changes"].(map[string]any)["holder"] != "pat" {
			t.Fatalf("the release names whom it released: %v", after[0]["changes"])
		}
		unheld := e.OK(http.StatusOK, http.MethodPost, tskPath(task, "release"), pat, nil)
		tskWant(t, unheld, map[string]any{"claimed_by": nil, "version": got["version"]})
		if n := len(e.tskEvents(e.Admin, task, "")); n != len(after) {
			t.Fatalf("releasing an unheld task recorded %d events", n-len(after))
		}
	})
	t.Run("an agent's claim", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodPost, claim, bot, nil)
		tskWant(t, got, map[string]any{"claimed_by": "bot", "claimed_by_is_agent": true, "claimed_by_answers_to": "admin"})
		done := e.OK(http.StatusOK, http.MethodPost, tskPath(task, "complete"), e.Admin, nil)
		tskWant(t, done, map[string]any{"is_complete": true, "claimed_by": nil})
	})
	t.Run("minutes out of range", func(t *testing.T) {
		other := e.CreateTask(e.Admin, map[string]any{"title": "Other"})
		for _, m := range []string{"0", "-5", "abc", "1.5", "100000000"} {
			e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, tskPath(other, "claim")+"?minutes="+m, e.Admin, nil)
		}
		tskWant(t, e.tskGet(other), map[string]any{"claimed_by": nil, "version": 1})
	})
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/tasks/9999/claim", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/tasks/9999/release", e.Admin, nil)
}

func TestTaskClaimMinutesSetting(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin,
		map[string]any{"key": "quick", "title": "Quick", "settings": map[string]any{"claim_minutes": 10}})
	e.OK(http.StatusOK, http.MethodPatch, "/v1/workspaces/default", e.Admin, map[string]any{"settings": map[string]any{"claim_minutes": 45}})
	for _, c := range []struct {
		project string
		want    time.Duration
	}{{"quick", 10 * time.Minute}, {"inbox", 45 * time.Minute}} {
		task := e.CreateTask(e.Admin, map[string]any{"title": "In " + c.project, "project": c.project})
		got := e.OK(http.StatusOK, http.MethodPost, tskPath(task, "claim"), e.Admin, nil)
		if d := tskTime(t, got, "claim_expires_at").Sub(tskTime(t, got, "claimed_at")); d != c.want {
			t.Errorf("in %s the lease is %v, want %v", c.project, d, c.want)
		}
	}
}

// tskClient sends requests from many goroutines: it never calls t.Fatal,
// and keeps enough idle connections for every goroutine.
type tskClient struct {
	base string
	c    *http.Client
}

func newTskClient(e *env, conns int) *tskClient {
	tr := e.Srv.Client().Transport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = conns
	tr.MaxIdleConns = conns
	e.T.Cleanup(tr.CloseIdleConnections)
	return &tskClient{base: e.Srv.URL, c: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
}

// send answers the status and the decoded JSON object of the reply.
func (c *tskClient) send(method, path, token string, body any) (int, map[string]any, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return res.StatusCode, nil, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, b)
	}
	return res.StatusCode, m, nil
}

// tskRaceDetector reports whether the test binary was built with -race,
// which makes every request (and the SQLite engine, which is Go) many times
// slower; the races below then run on fewer rows to stay within seconds.
func tskRaceDetector() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// TestTaskClaimRace: 32 accounts race to claim the same tasks, each trying
// every task in its own order. Every task ends held by exactly one account;
// every other attempt is refused with claim_held naming that account. Without
// the race detector it is 200 tasks (6,400 claims); with it, 8 (256).
func TestTaskClaimRace(t *testing.T) {
	t.Parallel()
	const workers = 32
	tasks := 200
	if tskRaceDetector() || testing.Short() {
		tasks = 8
	}
	e := newEnv(t)
	names := make([]string, workers)
	tokens := make([]string, workers)
	for i := range workers {
		names[i] = fmt.Sprintf("racer%02d", i)
		tokens[i] = e.tskAgent(names[i])
	}
	refs := make([]string, tasks)
	for i := range tasks {
		refs[i] = fmt.Sprint(e.CreateTask(e.Admin, map[string]any{"title": fmt.Sprintf("Race %d", i)})["ref"])
	}

	c := newTskClient(e, workers)
	type outcome struct {
		worker, status int
		code, holder   string
	}
	results := make([][]outcome, tasks) // per task, every attempt
	var mu sync.Mutex
	var failures []string
	var wg sync.WaitGroup
	start := make(chan struct{})
	began := time.Now()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			order := rand.New(rand.NewSource(int64(w))).Perm(tasks)
			<-start
			for _, i := range order {
				status, body, err := c.send(http.MethodPost, "/v1/tasks/"+refs[i]+"/claim", tokens[w], nil)
				mu.Lock()
				if err != nil {
					failures = append(failures, err.Error())
				} else {
					o := outcome{worker: w, status: status}
					o.code, _ = body["code"].(string)
					o.holder, _ = body["holder"].(string)
					if status == http.StatusOK {
						o.holder, _ = body["claimed_by"].(string)
					}
					results[i] = append(results[i], o)
				}
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	t.Logf("%d claims by %d accounts in %v", workers*tasks, workers, time.Since(began))
	for _, f := range failures {
		t.Error(f)
	}

	list := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?limit=500", e.Admin, nil)["items"].([]any)
	held := map[string]string{}
	for _, it := range list {
		m := it.(map[string]any)
		if h, _ := m["claimed_by"].(string); h != "" {
			held[fmt.Sprint(m["ref"])] = h
		}
	}
	for i, ref := range refs {
		var winners []string
		for _, o := range results[i] {
			switch {
			case o.status >= 500:
				t.Errorf("task %s: a claim answered %d (%s)", ref, o.status, o.code)
			case o.status == http.StatusOK:
				winners = append(winners, names[o.worker])
			case o.status != http.StatusConflict || o.code != "claim_held":
				t.Errorf("task %s: a losing claim answered %d %s, want 409 claim_held", ref, o.status, o.code)
			}
		}
		if len(results[i]) != workers {
			t.Errorf("task %s: %d attempts recorded, want %d", ref, len(results[i]), workers)
		}
		if len(winners) != 1 {
			t.Errorf("task %s: %d claims succeeded (%v), want exactly one", ref, len(winners), winners)
			continue
		}
		if held[ref] != winners[0] {
			t.Errorf("task %s is held by %q, but the claim that succeeded was %s's", ref, held[ref], winners[0])
		}
		for _, o := range results[i] {
			if o.status == http.StatusConflict && o.holder != winners[0] {
				t.Errorf("task %s: a refusal named %q as holder, want %s", ref, o.holder, winners[0])
			}
		}
	}
	if len(held) != tasks {
		t.Errorf("%d tasks held, want %d", len(held), tasks)
	}
}

// TestTaskUpdateExpectedVersionRace: writers read a task and write back an
// incremented estimate_minutes on the version they read. Exactly one write
// wins per version and the final value counts every winning write.
func TestTaskUpdateExpectedVersionRace(t *testing.T) {
	t.Parallel()
	workers, attempts := 16, 20
	if tskRaceDetector() || testing.Short() {
		workers, attempts = 8, 6
	}
	e := newEnv(t)
	task := e.CreateTask(e.Admin, map[string]any{"title": "Counter", "estimate_minutes": 0})
	path := tskPath(task)
	tokens := make([]string, workers)
	for i := range workers {
		tokens[i] = e.tskAgent(fmt.Sprintf("writer%02d", i))
	}

	c := newTskClient(e, workers)
	var mu sync.Mutex
	var failures []string
	won := map[int]int{} // expected_version -> how many writes it won
	successes := 0
	var wg sync.WaitGroup
	start := make(chan struct{})
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for range attempts {
				// Read, modify, write back on the version read.
				status, cur, err := c.send(http.MethodGet, path, tokens[w], nil)
				if err != nil || status != http.StatusOK {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("GET: %d %v %v", status, cur, err))
					mu.Unlock()
					return
				}
				v, est := int(cur["version"].(float64)), int(cur["estimate_minutes"].(float64))
				status, body, err := c.send(http.MethodPatch, path, tokens[w], map[string]any{"estimate_minutes": est + 1, "expected_version": v})
				mu.Lock()
				switch {
				case err != nil:
					failures = append(failures, err.Error())
				case status == http.StatusOK:
					successes++
					won[v]++
					if body["version"] != float64(v+1) || body["estimate_minutes"] != float64(est+1) {
						failures = append(failures, fmt.Sprintf("a winning write on version %d answered %v", v, body))
					}
				case status != http.StatusConflict || body["code"] != "version_conflict":
					failures = append(failures, fmt.Sprintf("a losing write answered %d %v, want 409 version_conflict", status, body["code"]))
				}
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
	for v, n := range won {
		if n != 1 {
			t.Errorf("%d writes won on version %d, want exactly one", n, v)
		}
	}
	final := e.tskGet(task)
	if successes == 0 || final["estimate_minutes"] != float64(successes) || final["version"] != float64(1+successes) {
		t.Fatalf("after %d successful increments: estimate_minutes %v, version %v (a lost update)",
			successes, final["estimate_minutes"], final["version"])
	}
	t.Logf("%d of %d read-modify-writes won", successes, workers*attempts)
	updates := 0
	for _, ev := range e.tskEvents(e.Admin, task, "") {
		if ev["action"] == "task.updated" {
			updates++
		}
	}
	if updates != successes {
		t.Fatalf("%d task.updated events for %d successful writes", updates, successes)
	}
}
