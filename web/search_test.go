package web_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"

	"tend/app"
	"tend/web/webtest"
)

// searchFix is a workspace with a few tasks to search: a public project,
// a private one the reader cannot see, and a reader.
type searchFix struct {
	e      *env
	reader string
	refs   map[string]int64 // title → ref
}

func newSearchFix(t *testing.T) *searchFix {
	e := newEnv(t)
	f := &searchFix{e: e, refs: map[string]int64{}}
	f.reader = e.Member("rita", "member")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "web", "title": "Web"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "hush", "title": "Hush", "visibility": "private"})
	for _, tk := range []map[string]any{
		{"title": "Login page crashes on submit", "project": "web", "type": "bug", "tags": []string{"urgent"}},
		{"title": "Rewrite the login flow", "description": "the crashes come from the old session code", "project": "web", "type": "feature"},
		{"title": "Café menu résumé", "project": "web"},
		{"title": "Secret login crashes", "project": "hush", "type": "bug"},
		{"title": "Done login crash fix", "project": "web", "type": "bug", "status": "done"},
		{"title": "Authentication tokens expire", "description": "login crashes after expiry", "project": "web", "assignee": "rita"},
	} {
		got := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, tk)
		f.refs[tk["title"].(string)] = lstNum(got["ref"])
	}
	// Filler, so the searched words are rare enough for ranking to mean
	// something (BM25 gives words in most rows no weight).
	for i := 0; i < 30; i++ {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Water the plants " + lstItoa(int64(i)), "project": "web"})
	}
	return f
}

func (f *searchFix) search(token, q string, extra ...string) []string {
	f.e.T.Helper()
	v := url.Values{"q": {q}}
	for i := 0; i+1 < len(extra); i += 2 {
		v.Set(extra[i], extra[i+1])
	}
	return titlesInOrder(lstItems(f.e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?"+v.Encode(), token, nil)))
}

// walkTitles follows next_cursor from path to the end (at most ten pages)
// and returns the titles met, in order.
func walkTitles(e *env, token, path string) []string {
	e.T.Helper()
	var walked []string
	next := ""
	for i := 0; i < 10; i++ {
		p := path
		if next != "" {
			p += "&cursor=" + url.QueryEscape(next)
		}
		m := e.OK(http.StatusOK, http.MethodGet, p, token, nil)
		walked = append(walked, titlesInOrder(lstItems(m))...)
		if next, _ = lstPage(m)["next_cursor"].(string); next == "" {
			break
		}
	}
	return walked
}

func titlesInOrder(items []map[string]any) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it["title"].(string))
	}
	return out
}

func TestTaskSearch(t *testing.T) {
	t.Parallel()
	f := newSearchFix(t)
	e := f.e
	t.Run("words must all appear, best match first", func(t *testing.T) {
		got := f.search(f.reader, "login crashes")
		want := []string{"Login page crashes on submit", "Rewrite the login flow", "Authentication tokens expire"}
		if len(got) != 3 || got[0] != want[0] || !sameWords(got, want) {
			t.Fatalf("got %v, want %v with the title hit first", got, want)
		}
		items := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?q=login+crashes", f.reader, nil))
		prev := 1e308
		for _, it := range items {
			r, ok := it["relevance"].(float64)
			if !ok || r > prev {
				t.Fatalf("relevance missing or rising: %v", items)
			}
			prev = r
		}
	})
	t.Run("unseen projects never match", func(t *testing.T) {
		if got := f.search(f.reader, "secret"); len(got) != 0 {
			t.Fatalf("a private project's task was found: %v", got)
		}
		if got := f.search(e.Admin, "secret"); !slices.Equal(got, []string{"Secret login crashes"}) {
			t.Fatalf("its owner should find it: %v", got)
		}
		total := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?q=crashes&include_total=true", f.reader, nil)
		if n := lstNum(lstPage(total)["total"]); n != 3 {
			t.Fatalf("total %d counts what the reader cannot see", n)
		}
	})
	t.Run("terms, phrases, prefixes and exclusions", func(t *testing.T) {
		cases := []struct {
			q    string
			want []string
		}{
			{"type:bug login", []string{"Login page crashes on submit"}},
			{"type:bug status:done login", []string{"Done login crash fix"}},
			{"category:done crash", []string{"Done login crash fix"}},
			{"#urgent", []string{"Login page crashes on submit"}},
			{"tag:URGENT crashes", []string{"Login page crashes on submit"}},
			{"+web assignee:rita", []string{"Authentication tokens expire"}},
			{"assignee:me", []string{"Authentication tokens expire"}},
			{`"login flow"`, []string{"Rewrite the login flow"}},
			{`"flow login"`, nil},
			{"authent*", []string{"Authentication tokens expire"}},
			{"login -rewrite -submit", []string{"Authentication tokens expire"}},
			{"cafe resume", []string{"Café menu résumé"}},
			{"#nosuchtag", nil},
			{"NOT AND ( ) \" *", nil},
		}
		for _, c := range cases {
			if got := f.search(f.reader, c.q); !sameWords(got, c.want) {
				t.Errorf("q=%q: got %v, want %v", c.q, got, c.want)
			}
		}
		if got := f.search(f.reader, "login", "type", "feature"); !slices.Equal(got, []string{"Rewrite the login flow"}) {
			t.Errorf("q with type=feature: %v", got)
		}
		if got := f.search(f.reader, "type:bug login", "type", "feature"); len(got) != 0 {
			t.Errorf("a term and a parameter that disagree match nothing: %v", got)
		}
	})
	t.Run("order and cursor", func(t *testing.T) {
		got := f.search(f.reader, "login crashes", "order", "title")
		if !slices.Equal(got, []string{"Authentication tokens expire", "Login page crashes on submit", "Rewrite the login flow"}) {
			t.Fatalf("order=title: %v", got)
		}
		walked := walkTitles(e, f.reader, "/v1/tasks?q=crashes&limit=1")
		if whole := f.search(f.reader, "crashes"); !slices.Equal(walked, whole) || len(walked) != 3 {
			t.Fatalf("walking the search by cursor: %v", walked)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?order=relevance", f.reader, nil)
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?q=type:nosuch", f.reader, nil)
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?q=category:later", f.reader, nil)
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?q=%2Bhush", f.reader, nil)
	})
	t.Run("the index follows edits", func(t *testing.T) {
		ref := lstItoa(f.refs["Café menu résumé"])
		e.OK(http.StatusOK, http.MethodPatch, "/v1/tasks/"+ref, e.Admin, map[string]any{"title": "Kitchen inventory"})
		if got := f.search(f.reader, "cafe"); len(got) != 0 {
			t.Fatalf("the old title is still found: %v", got)
		}
		if got := f.search(f.reader, "kitchen"); !slices.Equal(got, []string{"Kitchen inventory"}) {
			t.Fatalf("the new title is not found: %v", got)
		}
		e.OK(http.StatusOK, http.MethodDelete, "/v1/tasks/"+ref, e.Admin, nil)
		if got := f.search(f.reader, "kitchen"); len(got) != 0 {
			t.Fatalf("a trashed task is found: %v", got)
		}
	})
}

func sameWords(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func TestDocumentSearch(t *testing.T) {
	t.Parallel()
	f := newSearchFix(t)
	e := f.e
	mk := func(body map[string]any) {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin, body)
	}
	mk(map[string]any{"title": "Session storage decision", "type": "decision", "body": "Sessions live in SQLite.", "project": "web", "tags": []string{"auth"}})
	mk(map[string]any{"title": "Notes", "body": "We talked about session storage and cookies.", "project": "web"})
	mk(map[string]any{"title": "Private session plan", "type": "decision", "body": "session storage", "project": "hush"})
	mk(map[string]any{"title": "Old cookie plan", "type": "decision", "status": "superseded", "body": "cookies for session storage", "project": "web"})
	for i := 0; i < 20; i++ {
		mk(map[string]any{"title": "Filler " + lstItoa(int64(i)), "body": "nothing to see", "project": "web"})
	}
	find := func(q string, extra ...string) []string {
		v := url.Values{"q": {q}}
		for i := 0; i+1 < len(extra); i += 2 {
			v.Set(extra[i], extra[i+1])
		}
		items := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/documents?"+v.Encode(), f.reader, nil))
		for _, it := range items {
			// Relevance ranks words; terms alone have nothing to rank by.
			if _, ok := it["relevance"].(float64); ok == (app.ParseSearch(q).Match == "") {
				t.Fatalf("q=%q: relevance %v", q, it["relevance"])
			}
		}
		return titlesInOrder(items)
	}
	if got := find("session storage"); len(got) != 3 || got[0] != "Session storage decision" {
		t.Fatalf("the title hit comes first, the private one never: %v", got)
	}
	cases := []struct {
		q    string
		want []string
	}{
		{"type:decision session", []string{"Session storage decision", "Old cookie plan"}},
		{"type:decision status:superseded", []string{"Old cookie plan"}},
		{"category:in_progress #auth", []string{"Session storage decision"}},
		{"cookies -old", []string{"Notes"}},
		{"+hush session", nil},
	}
	for _, c := range cases {
		if c.q == "+hush session" {
			e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/documents?q="+url.QueryEscape(c.q), f.reader, nil)
			continue
		}
		if got := find(c.q); !sameWords(got, c.want) {
			t.Errorf("q=%q: got %v, want %v", c.q, got, c.want)
		}
	}
	// Walking a ranked search one by one meets every hit once, in rank order.
	walked := walkTitles(e, f.reader, "/v1/documents?q=session&limit=1")
	if whole := find("session"); len(walked) != 3 || !slices.Equal(walked, whole) {
		t.Fatalf("walked %v, whole %v", walked, whole)
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/documents?q=assignee:me", f.reader, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/documents?order=-relevance", f.reader, nil)
	total := e.OK(http.StatusOK, http.MethodGet, "/v1/documents?q=session&include_total=true", f.reader, nil)
	if n := lstNum(lstPage(total)["total"]); n != 3 {
		t.Fatalf("total %d, want 3 (the private plan is not counted)", n)
	}
}

// TestSearchRanksNewestMatches: service_search ranks at most
// search_ranked_matches task matches, the newest of those the reader may
// see, and says more exist; the listing still ranks every match.
func TestSearchRanksNewestMatches(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, app.Options{Version: "test", Limits: app.Limits{SearchRankedMatches: 3}})
	reader := e.Member("rita", "member")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "web", "title": "Web"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "hush", "title": "Hush", "visibility": "private"})
	task := func(title, project string) {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": title, "project": project})
	}
	task("Gravel gravel gravel", "web") // the best match, and the oldest
	for i := range 20 {
		// Filler, so that BM25 gives gravel a weight.
		task("Water the plants "+lstItoa(int64(i)), "web")
	}
	for _, title := range []string{"Order gravel for the long drive", "Rake the gravel by the shed", "Pay the gravel invoice from March"} {
		task(title, "web")
	}
	task("Hide gravel in the vault", "hush")
	task("Count the hidden gravel", "hush")

	search := func(token string) ([]string, map[string]any) {
		m := e.Connect(t, token, webtest.EraStateless)
		r := m.OK("service_search", map[string]any{"q": "gravel", "limit": 2})
		var titles []string
		prev := 1e308
		for _, it := range r.Structured["tasks"].([]any) {
			tk := it.(map[string]any)
			titles = append(titles, tk["title"].(string))
			if rel, ok := tk["relevance"].(float64); !ok || rel > prev {
				t.Fatalf("relevance missing or rising: %v", r.Structured["tasks"])
			} else {
				prev = rel
			}
		}
		return titles, r.Structured
	}
	// A page of two from the newest three matches the searcher may see.
	within := func(who, token string, newest []string) {
		got, out := search(token)
		if len(got) != 2 || !slices.Contains(newest, got[0]) || !slices.Contains(newest, got[1]) || out["tasks_more"] != true {
			t.Fatalf("%s's search gives %v (more: %v), want two of the newest three matches %v and more", who, got, out["tasks_more"], newest)
		}
	}
	within("the reader", reader, []string{"Order gravel for the long drive", "Rake the gravel by the shed", "Pay the gravel invoice from March"})
	within("the administrator", e.Admin, []string{"Hide gravel in the vault", "Count the hidden gravel", "Pay the gravel invoice from March"})
	if got := titlesInOrder(lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?q=gravel", reader, nil))); len(got) != 4 || got[0] != "Gravel gravel gravel" {
		t.Fatalf("the listing ranks every match, the best first: %v", got)
	}
}

// TestTaskFoundRightAfterCreate: a task's text is indexed after its create
// answers (app/task_index.go), yet the searches that start after it find
// it at once, through the listing's q, GET /v1/search, and a -word; a
// reader still finds nothing of a private project's new task.
func TestTaskFoundRightAfterCreate(t *testing.T) {
	e := newEnv(t)
	reader := e.Member("rita", "member")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "web", "title": "Web"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "hush", "title": "Hush", "visibility": "private"})
	for i, title := range []string{"Tune the piano", "Tune the guitar", "Secret tune"} {
		project := "web"
		if i == 2 {
			project = "hush"
		}
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": title, "project": project})
		listed := titlesInOrder(lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?q=tune", e.Admin, nil)))
		if len(listed) != i+1 || !slices.Contains(listed, title) {
			t.Fatalf("after creating %q, q=tune lists %v", title, listed)
		}
		found := e.OK(http.StatusOK, http.MethodGet, "/v1/search?q=tune", e.Admin, nil)["tasks"].([]any)
		if len(found) != i+1 {
			t.Fatalf("after creating %q, /v1/search finds %d tasks", title, len(found))
		}
	}
	if got := titlesInOrder(lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?q="+url.QueryEscape("tune -piano"), e.Admin, nil))); len(got) != 2 || slices.Contains(got, "Tune the piano") {
		t.Fatalf("tune -piano lists %v", got)
	}
	if got := titlesInOrder(lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?q=tune", reader, nil))); len(got) != 2 || slices.Contains(got, "Secret tune") {
		t.Fatalf("the reader's q=tune lists %v", got)
	}
}

// TestSearchAsTyped: the last word of q matches as a prefix, as a person
// types it ("pass" finds "passport"), in the task and document listings; a
// whole-word match ranks before a prefix one even when the prefix one is
// otherwise the better match; quoted, the word is whole; what the reader
// may not see is neither found nor counted.
func TestSearchAsTyped(t *testing.T) {
	t.Parallel()
	f := newSearchFix(t)
	e := f.e
	for _, tk := range []map[string]any{
		{"title": "Passport", "project": "web"},
		{"title": "Pass the salt to whoever sits at the far end of the table", "project": "web"},
		{"title": "Passport of the secret agent", "project": "hush"},
	} {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, tk)
	}
	if got := f.search(f.reader, "pass"); !slices.Equal(got, []string{"Pass the salt to whoever sits at the far end of the table", "Passport"}) {
		t.Fatalf("q=pass: %v, want the whole word first, then the prefix, and no private task", got)
	}
	total := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?q=pass&include_total=true", f.reader, nil)
	if n := lstNum(lstPage(total)["total"]); n != 2 {
		t.Fatalf("total %d counts what the reader cannot see", n)
	}
	if got := f.search(e.Admin, "passp"); !sameWords(got, []string{"Passport", "Passport of the secret agent"}) {
		t.Fatalf("its owner finds the private one by prefix: %v", got)
	}
	for q, want := range map[string][]string{
		`"pass"`:         {"Pass the salt to whoever sits at the far end of the table"},
		"pass salt":      {"Pass the salt to whoever sits at the far end of the table"},
		"salt pass":      {"Pass the salt to whoever sits at the far end of the table"},
		"renew pa":       nil,
		"p":              nil,
		"passport*":      {"Passport"},
		"pass -passport": {"Pass the salt to whoever sits at the far end of the table"},
		"passport -pa":   {"Passport"},
	} {
		if got := f.search(f.reader, q); !sameWords(got, want) {
			t.Errorf("q=%q: got %v, want %v", q, got, want)
		}
	}
	e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin, map[string]any{"title": "Passport scan", "body": "front page", "project": "web"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin, map[string]any{"title": "Passport plans", "body": "private", "project": "hush"})
	docs := e.OK(http.StatusOK, http.MethodGet, "/v1/documents?q=pass&include_total=true", f.reader, nil)
	if got := titlesInOrder(lstItems(docs)); !slices.Equal(got, []string{"Passport scan"}) || lstNum(lstPage(docs)["total"]) != 1 {
		t.Fatalf("documents q=pass: %v, total %v", got, lstPage(docs)["total"])
	}
}
