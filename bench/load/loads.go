package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// load is one kind of request, sent n times by workers clients at once.
type load struct {
	key, name string
	workers   int
	request   func(ctx context.Context, t *target, i int) *http.Request
	// check, when set, looks at a 2xx answer's body too.
	check func(t *target, i int, body []byte) error
	// probe, when set, runs before the timed loop: unsupported says why
	// this revision cannot run the load at all.
	probe func(ctx context.Context, t *target) (unsupported string, err error)
}

// The projects the run creates: the seed goes into big; each create load
// has a project of its own, so every revision writes into the same state.
var projects = []string{"big", "seq", "line", "conc"}

// The same task, as fields and as a captured line, so that the two create
// loads differ only in the line reader.
var (
	plumberTitle = "Call the plumber about the leak"
	lineBody     = []byte(`{"text":"` + plumberTitle + ` !4 ~15m #home #errand","project":"line"}`)
)

func structuredBody(project string) []byte {
	return []byte(`{"title":"` + plumberTitle + `","project":"` + project + `","tags":["home","errand"],"importance":4,"estimate_minutes":15}`)
}

// searchWord is in the title of one seeded task in ten.
const searchWord = "invoice"

// loads run in this order on every revision.
var loads = []load{
	{key: "create-seq", name: "sequential creates", workers: 1, request: post("/v1/tasks", structuredBody("seq"))},
	{key: "create-line", name: "captured-line creates", workers: 1, request: post("/v1/tasks", lineBody), probe: probeLine},
	{key: "create-8", name: "8 writers, creates", workers: 8, request: post("/v1/tasks", structuredBody("conc"))},
	{key: "create-big", name: "creates into the large project", workers: 1, request: post("/v1/tasks", structuredBody("big"))},
	{key: "get", name: "GET one task", workers: 1, request: getTask},
	{key: "list", name: "list page (50, large project)", workers: 1, request: get("/v1/tasks?project=big&limit=50")},
	{key: "search", name: "search (50)", workers: 1, request: get("/v1/tasks?q=" + searchWord + "&limit=50")},
	{key: "mcp", name: "MCP tools/call service_list", workers: 1, request: mcpCall, check: mcpCheck, probe: probeMCP},
}

func post(path string, body []byte) func(context.Context, *target, int) *http.Request {
	return func(ctx context.Context, t *target, _ int) *http.Request {
		return t.request(ctx, http.MethodPost, path, body)
	}
}

func get(path string) func(context.Context, *target, int) *http.Request {
	return func(ctx context.Context, t *target, _ int) *http.Request {
		return t.request(ctx, http.MethodGet, path, nil)
	}
}

// getTask reads the seeded tasks in a fixed scattered order.
func getTask(ctx context.Context, t *target, i int) *http.Request {
	ref := t.refs[(i*7919)%len(t.refs)]
	return t.request(ctx, http.MethodGet, "/v1/tasks/"+strconv.FormatInt(ref, 10), nil)
}

// probeLine tells a revision that reads captured lines from one that
// predates them: the line is well formed, so a refusal naming the text
// field means the revision does not take the field (unknown, or "not
// accepted here yet"). The answer is quoted, so a revision that broke
// lines shows as such in the report.
func probeLine(ctx context.Context, t *target) (string, error) {
	status, body, err := t.call(t.request(ctx, http.MethodPost, "/v1/tasks", lineBody))
	switch {
	case err != nil:
		return "", err
	case status == http.StatusCreated:
		return "", nil
	case (status == http.StatusBadRequest || status == http.StatusUnprocessableEntity) && namesTextField(body):
		return "POST /v1/tasks with text answered " + problemSummary(status, body), nil
	}
	return "", fmt.Errorf("a captured line was answered %d %s", status, clip(body))
}

// namesTextField is whether a problem document points at the body's text
// field, in any of the shapes tend has used.
func namesTextField(problem []byte) bool {
	for _, s := range []string{`"body.text"`, `["body","text"]`, `unknown field \"text\"`} {
		if bytes.Contains(problem, []byte(s)) {
			return true
		}
	}
	return false
}

// problemSummary is a problem document in one short line: the status, the
// code and the first thing its detail says.
func problemSummary(status int, body []byte) string {
	var p struct {
		Code   string          `json:"code"`
		Detail json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &p) != nil || p.Code == "" {
		return fmt.Sprintf("%d %s", status, clip(body))
	}
	var text string
	var fields []struct {
		Msg string `json:"msg"`
	}
	if json.Unmarshal(p.Detail, &text) != nil && json.Unmarshal(p.Detail, &fields) == nil && len(fields) > 0 {
		text = fields[0].Msg
	}
	return fmt.Sprintf("%d %s: %s", status, p.Code, text)
}

// seed creates the projects, then tasks tasks in big from eight clients,
// keeping their refs for the reads.
func (t *target) seed(ctx context.Context, tasks int) (time.Duration, error) {
	start := time.Now()
	for _, key := range projects {
		body, _ := json.Marshal(map[string]string{"key": key, "title": "A/B " + key})
		status, answer, err := t.call(t.request(ctx, http.MethodPost, "/v1/projects", body))
		if err != nil {
			return 0, err
		}
		if status != http.StatusCreated {
			return 0, fmt.Errorf("creating project %s: %d %s", key, status, clip(answer))
		}
	}
	t.refs = make([]int64, tasks)
	seeding := load{key: "seed", workers: 8,
		request: func(ctx context.Context, t *target, i int) *http.Request {
			return t.request(ctx, http.MethodPost, "/v1/tasks", seedBody(i))
		},
		check: func(t *target, i int, body []byte) error {
			var created struct {
				Ref int64 `json:"ref"`
			}
			if err := json.Unmarshal(body, &created); err != nil || created.Ref == 0 {
				return fmt.Errorf("no ref in %s", clip(body))
			}
			t.refs[i] = created.Ref
			return nil
		}}
	if r := t.drive(ctx, seeding, tasks); r.Failed > 0 {
		return 0, fmt.Errorf("%d of %d tasks failed, e.g. %s", r.Failed, tasks, r.FirstFailure)
	}
	return time.Since(start), nil
}

var (
	seedVerbs   = []string{"Fix", "Write", "Review", "Plan", "Call about", "Order", "Clean", "Draft", "Check", "Update", "Book"}
	seedObjects = []string{"the kitchen tap", "the quarterly report", "the garden fence", "the tax return", "the team offsite",
		"the car service", "the website copy", "the backup drive", "the dentist visit", "the client proposal", "the bike tyre",
		"the wedding gift", "the server logs"}
	seedTags = []string{"home", "work", "errand", "later", "phone", "read"}
)

// seedBody is the i-th seeded task: the same on every run, with varied
// titles, a description on one in four, one or two tags, importance on
// half, and the search word in one title in ten.
func seedBody(i int) []byte {
	tk := map[string]any{
		"title":   seedVerbs[i%len(seedVerbs)] + " " + seedObjects[(i/len(seedVerbs))%len(seedObjects)],
		"project": "big",
	}
	if i%10 == 0 {
		tk["title"] = tk["title"].(string) + " and the " + searchWord
	}
	if i%4 == 0 {
		tk["description"] = "Notes: ask before Friday, keep the receipt, and write down what was agreed."
	}
	a, b := seedTags[i%len(seedTags)], seedTags[(i/len(seedTags))%len(seedTags)]
	tk["tags"] = []string{a}
	if a != b {
		tk["tags"] = []string{a, b}
	}
	if i%2 == 0 {
		tk["importance"] = 1 + i%5
	}
	body, _ := json.Marshal(tk)
	return body
}
