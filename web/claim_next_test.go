package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"tend/web/webtest"
)

func TestClaimNextHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bot := e.Agent("bot", "admin")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "web", "title": "Web"})
	low := e.TaskRef(e.Admin, map[string]any{"title": "Low", "importance": 1, "urgency": 1})
	high := e.TaskRef(e.Admin, map[string]any{"title": "High", "importance": 5, "urgency": 5})
	blocker := e.TaskRef(e.Admin, map[string]any{"title": "Blocked one", "importance": 5, "urgency": 5, "project": "web", "tags": []string{"ui"}})
	e.OK(http.StatusCreated, http.MethodPost, fmt.Sprintf("/v1/tasks/%d/links", low), e.Admin, map[string]any{"link_type": "blocks", "target": blocker})
	e.TaskRef(e.Admin, map[string]any{"title": "Someone else's", "assignee": "admin", "importance": 5, "urgency": 5})

	got := e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/next/claim", bot, nil)
	if got["ref"] != float64(high) || got["claimed_by"] != "bot" {
		t.Fatalf("next is the highest priority_score ready to act on: %v", got)
	}
	e.Problem(http.StatusNotFound, "nothing_ready", http.MethodPost, "/v1/tasks/next/claim?project=web", bot, nil)
	got = e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/next/claim?minutes=5", bot, nil)
	if got["ref"] != float64(low) {
		t.Fatalf("then the next one, skipping what it holds, what is blocked and what is someone else's: %v", got)
	}
	e.OK(http.StatusOK, http.MethodPost, fmt.Sprintf("/v1/tasks/%d/complete", low), bot, nil)
	got = e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/next/claim?project=web&tag=ui&type=task", bot, nil)
	if got["ref"] != float64(blocker) {
		t.Fatalf("completing the blocker makes the blocked one ready: %v", got)
	}
	p := e.Problem(http.StatusNotFound, "nothing_ready", http.MethodPost, "/v1/tasks/next/claim", bot, nil)
	if !strings.Contains(p["detail"].(string), "to_act_on") {
		t.Fatalf("the refusal says where to look: %v", p)
	}
	listed := e.Do(http.MethodGet, "/v1/tasks?project=nope", bot, nil)
	e.Problem(listed.Status, listed.JSON(t)["code"].(string), http.MethodPost, "/v1/tasks/next/claim?project=nope", bot, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tasks/next/claim?minutes=0", bot, nil)
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodPost, "/v1/tasks/next/claim", "", nil)
}

// claimAll has each agent claim next until nothing is ready and returns
// who got which ref; fail records anything but a claim or nothing_ready.
func claimAll(agents []string, claim func(agent int) (ref int, done bool, err error)) (map[int][]int, []error) {
	var mu sync.Mutex
	owners := map[int][]int{}
	var errs []error
	var wg sync.WaitGroup
	for i := range agents {
		wg.Go(func() {
			for {
				ref, done, err := claim(i)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else if !done {
					owners[ref] = append(owners[ref], i)
				}
				mu.Unlock()
				if done || err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	return owners, errs
}

func checkEachOnce(t *testing.T, owners map[int][]int, errs []error, tasks int) {
	t.Helper()
	for _, err := range errs {
		t.Error(err)
	}
	if len(owners) != tasks {
		t.Fatalf("%d tasks handed out, want %d", len(owners), tasks)
	}
	for ref, who := range owners {
		if len(who) != 1 {
			t.Fatalf("#%d handed to agents %v", ref, who)
		}
	}
}

// newDrain is an instance holding the tasks that agents will drain at
// once: full is {agents, tasks}, short the smaller pair used under -short.
// The tasks' importance varies, so the order of handing out matters.
func newDrain(t *testing.T, full, short [2]int) (e *env, agents, tasks int) {
	t.Helper()
	agents, tasks = full[0], full[1]
	if testing.Short() {
		agents, tasks = short[0], short[1]
	}
	e = newEnv(t)
	for i := range tasks {
		e.TaskRef(e.Admin, map[string]any{"title": fmt.Sprintf("work %d", i), "importance": 1 + i%5})
	}
	return e, agents, tasks
}

// TestClaimNextConcurrentHTTP: agents claiming next at once over HTTP are
// each handed a different task until none is left. 32 agents drain 500
// tasks; under -short (the README's everyday command) 12 drain 60, and the
// full run is left to CI.
func TestClaimNextConcurrentHTTP(t *testing.T) {
	t.Parallel()
	e, agents, tasks := newDrain(t, [2]int{32, 500}, [2]int{12, 60})
	tokens := make([]string, agents)
	for i := range tokens {
		tokens[i] = e.Agent(fmt.Sprintf("agent%d", i), "admin")
	}
	post := func(token, path string) (int, map[string]any, error) {
		req, _ := http.NewRequest(http.MethodPost, e.Srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := e.Srv.Client().Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer res.Body.Close()
		var body map[string]any
		err = json.NewDecoder(res.Body).Decode(&body)
		return res.StatusCode, body, err
	}
	// With 32 agents reading at once some may be told 503 reads_saturated
	// and, as a client should, ask again.
	get := func(token, path string) (map[string]any, error) {
		for {
			req, _ := http.NewRequest(http.MethodGet, e.Srv.URL+path, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			res, err := e.Srv.Client().Do(req)
			if err != nil {
				return nil, err
			}
			var body map[string]any
			err = json.NewDecoder(res.Body).Decode(&body)
			res.Body.Close()
			switch {
			case err != nil:
				return nil, err
			case res.StatusCode == http.StatusServiceUnavailable && body["code"] == "reads_saturated":
				continue
			case res.StatusCode != http.StatusOK:
				return nil, fmt.Errorf("GET %s: %d %v", path, res.StatusCode, body)
			}
			return body, nil
		}
	}
	owners, errs := claimAll(tokens, func(i int) (int, bool, error) {
		status, body, err := post(tokens[i], "/v1/tasks/next/claim")
		switch {
		case err != nil:
			return 0, false, err
		case status == http.StatusOK:
			return int(body["ref"].(float64)), false, nil
		case status == http.StatusNotFound && body["code"] == "nothing_ready":
			return 0, true, nothingLeft(i, tokens[i], post, get)
		}
		return 0, false, fmt.Errorf("agent %d: status %d %v", i, status, body)
	})
	checkEachOnce(t, owners, errs, tasks)
}

// nothingLeft checks a nothing_ready answer: asked again, next still has
// nothing; and once a write of the agent's own has committed (a refusal
// returns before the shared commit, a success after it), no task is left
// unclaimed.
func nothingLeft(i int, token string, post func(token, path string) (int, map[string]any, error),
	get func(token, path string) (map[string]any, error)) error {
	if status, body, err := post(token, "/v1/tasks/next/claim"); err != nil || status != http.StatusNotFound {
		return fmt.Errorf("agent %d: nothing was ready, then: %d %v %v", i, status, body, err)
	}
	mine, err := get(token, "/v1/tasks?claimed_by=me&limit=1")
	if err != nil {
		return err
	}
	items, _ := mine["items"].([]any)
	if len(items) == 0 {
		return nil
	}
	ref := int(items[0].(map[string]any)["ref"].(float64))
	if status, body, err := post(token, fmt.Sprintf("/v1/tasks/%d/claim", ref)); err != nil || status != http.StatusOK {
		return fmt.Errorf("agent %d renewing #%d: %d %v %v", i, ref, status, body, err)
	}
	left, err := get(token, "/v1/tasks?ready=true&to_act_on=true&claimed_by.is=unset&limit=1")
	if err != nil {
		return err
	}
	if items := left["items"].([]any); len(items) > 0 {
		return fmt.Errorf("agent %d was told nothing is ready while #%v was unclaimed", i, items[0].(map[string]any)["ref"])
	}
	return nil
}

// TestClaimNextConcurrentMCP is TestClaimNextConcurrentHTTP over MCP
// sessions of both eras: 16 agents drain 100 tasks, under -short 8 drain 30.
func TestClaimNextConcurrentMCP(t *testing.T) {
	t.Parallel()
	e, agents, tasks := newDrain(t, [2]int{16, 100}, [2]int{8, 30})
	clients := make([]*webtest.MCPClient, agents)
	for i := range clients {
		clients[i] = e.Connect(t, e.Agent(fmt.Sprintf("agent%d", i), "admin"), webtest.Eras[i%2])
	}
	owners, errs := claimAll(make([]string, agents), func(i int) (int, bool, error) {
		r := clients[i].Call("service_claim", map[string]any{"ref": "next"})
		switch {
		case !r.IsError:
			return int(r.Structured["task"].(map[string]any)["ref"].(float64)), false, nil
		case strings.HasPrefix(r.Text, "nothing_ready: "):
			return 0, true, nil
		}
		return 0, false, fmt.Errorf("agent %d: %s", i, r.Text)
	})
	checkEachOnce(t, owners, errs, tasks)
}
