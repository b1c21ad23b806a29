package pages_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"tend/web/webtest"
)

// pageEnv is an env with a signed-in browser session for the administrator.
type pageEnv struct {
	*env
	session string
}

func newPageEnv(t *testing.T) *pageEnv { return signedIn(newEnv(t)) }

// signedIn is e with the administrator signed in in a browser.
func signedIn(e *env) *pageEnv {
	return &pageEnv{env: e, session: e.SignIn(e.MintLink(e.Admin, map[string]any{})).Value}
}

// get fetches a page with the session and wants status.
func (p *pageEnv) get(t *testing.T, path string, status int) string {
	t.Helper()
	r := p.Browser(http.MethodGet, path, p.session, "", nil)
	if r.Status != status {
		t.Fatalf("GET %s: %d, want %d\n%s", path, r.Status, status, r.Body)
	}
	if status == http.StatusOK && !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET %s: Content-Type %q", path, r.Header.Get("Content-Type"))
	}
	return string(r.Body)
}

// post submits a form from the server's own origin and returns the answer.
func (p *pageEnv) post(t *testing.T, path string, form url.Values) webtest.Response {
	t.Helper()
	return p.Browser(http.MethodPost, path, p.session, p.Srv.URL, form)
}

// seeOther posts and wants a 303, returning where it points.
func (p *pageEnv) seeOther(t *testing.T, path string, form url.Values) string {
	t.Helper()
	r := p.post(t, path, form)
	if r.Status != http.StatusSeeOther {
		t.Fatalf("POST %s: %d, want 303\n%s", path, r.Status, r.Body)
	}
	return r.Header.Get("Location")
}

func contains(t *testing.T, what, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Fatalf("%s lacks %q:\n%s", what, w, body)
		}
	}
}

// TestPagesRenderAndAct walks every page and every page action once, as a
// person in a browser would: the quick add, the listing with its filters,
// the board's move and its conflict, the task page's edit, comment, claim
// and complete, a document, search, projects and the account.
func TestPagesRenderAndAct(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	p.OK(http.StatusCreated, http.MethodPost, "/v1/projects", p.Admin, map[string]any{"key": "web", "title": "Web site"})
	p.CreateTask(p.Admin, map[string]any{"title": "Write the copy", "project": "web", "tags": []string{"words"}})

	to := p.seeOther(t, "/tasks", url.Values{"text": {"Pay the rent friday #home +web !4"}})
	m := regexp.MustCompile(`^/\?added=(\d+)$`).FindStringSubmatch(to)
	if m == nil {
		t.Fatalf("quick add went to %q", to)
	}
	ref := m[1]
	today := p.get(t, to, http.StatusOK)
	contains(t, "Today after the quick add", today, `id="added"`, "Pay the rent", "#home", "web", `nav id="topbar"`, `aria-current="page">Today`)

	list := p.get(t, "/tasks?project=web&tag=home", http.StatusOK)
	contains(t, "Tasks filtered", list, `<tr id="t-`+ref+`"`, `data-ref="`+ref+`"`, `<a class="title" href="/tasks/`+ref+`">Pay the rent`)
	if strings.Contains(list, "Write the copy") {
		t.Fatal("the tag filter let another task through")
	}
	contains(t, "Tasks sorted", p.get(t, "/tasks?order=-due_at", http.StatusOK), `aria-sort="descending"`)
	paged := p.get(t, "/tasks?limit=1", http.StatusOK)
	contains(t, "Tasks paged", paged, `rel="next"`)

	board := p.get(t, "/board?project=web", http.StatusOK)
	contains(t, "Board", board, `data-category="todo"`, `data-category="done"`, `<article id="t-`+ref+`" class="card trow"`)
	task := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)
	version := number(task["version"])
	if to := p.seeOther(t, "/tasks/"+ref+"/status", url.Values{"status": {"done"}, "expected_version": {version}, "back": {"/board?project=web"}}); to != "/board?project=web#t-"+ref {
		t.Fatalf("move went to %q", to)
	}
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)["status"]; got != "done" {
		t.Fatalf("moved to %v", got)
	}
	to = p.seeOther(t, "/tasks/"+ref+"/status", url.Values{"status": {"todo"}, "expected_version": {version}, "back": {"/board?project=web"}})
	contains(t, "Board after a stale move", p.get(t, to, http.StatusOK), "Someone changed that task")
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)["status"]; got != "done" {
		t.Fatalf("a stale move changed the status to %v", got)
	}
	if to := p.seeOther(t, "/tasks/"+ref+"/status", url.Values{"status": {"todo"}, "back": {"//evil.example"}}); to != "/board#t-"+ref {
		t.Fatalf("the move followed back to %q", to)
	}

	version = number(p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)["version"])
	p.seeOther(t, "/tasks/"+ref, url.Values{"expected_version": {version}, "title": {"Pay the rent, really"},
		"description": {"See **#1** and the [bank](https://bank.example)"}, "tags": {"home money"}, "importance": {"5"}, "urgency": {""}})
	p.seeOther(t, "/tasks/"+ref+"/comments", url.Values{"body": {"Paid by *transfer*"}})
	p.seeOther(t, "/tasks/"+ref+"/claim", url.Values{})
	page := p.get(t, "/tasks/"+ref, http.StatusOK)
	contains(t, "Task page", page, "<h1>Pay the rent, really</h1>", `<strong><a href="/items/1">#1</a></strong>`,
		`href="https://bank.example"`, "#money", `class="comment"`, "Paid by <em>transfer</em>", "held by admin", `id="comment-add"`, "History")
	p.seeOther(t, "/tasks/"+ref+"/release", url.Values{})
	p.seeOther(t, "/tasks/"+ref+"/complete", url.Values{})
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil); got["is_complete"] != true || got["claimed_by"] != nil {
		t.Fatalf("after release and complete: %v %v", got["is_complete"], got["claimed_by"])
	}

	doc := p.OK(http.StatusCreated, http.MethodPost, "/v1/documents", p.Admin, map[string]any{"title": "How we pay", "type": "decision",
		"project": "web", "body": "# Rules\n\nPay by transfer; see #" + ref})
	dref := number(doc["ref"])
	for path, want := range map[string]string{"/items/" + dref: "/documents/" + dref, "/items/" + ref: "/tasks/" + ref, "/tasks/" + dref: "/documents/" + dref} {
		if r := p.Browser(http.MethodGet, path, p.session, "", nil); r.Status != http.StatusSeeOther || r.Header.Get("Location") != want {
			t.Fatalf("GET %s: %d %s, want %s", path, r.Status, r.Header.Get("Location"), want)
		}
	}
	contains(t, "Document page", p.get(t, "/documents/"+dref, http.StatusOK), "<h1>How we pay</h1>", "<h1>Rules</h1>", `href="/items/`+ref+`"`)
	p.seeOther(t, "/documents/"+dref+"/comments", url.Values{"body": {"agreed"}})
	dversion := number(p.OK(http.StatusOK, http.MethodGet, "/v1/documents/"+dref, p.Admin, nil)["version"])
	p.seeOther(t, "/documents/"+dref, url.Values{"expected_version": {dversion}, "title": {"How we pay rent"}, "body": {"By transfer."}})
	if r := p.post(t, "/documents/"+dref, url.Values{"expected_version": {dversion}, "body": {"stale"}}); r.Status != http.StatusConflict ||
		!strings.Contains(string(r.Body), "Someone changed this document") || !strings.Contains(string(r.Body), ">stale</textarea>") {
		t.Fatalf("a stale document edit: %d\n%s", r.Status, r.Body)
	}
	contains(t, "Document after the edit", p.get(t, "/documents/"+dref, http.StatusOK), "<h1>How we pay rent</h1>", "By transfer.", "agreed")
	contains(t, "Search", p.get(t, "/search?q=rent", http.StatusOK), "Pay the rent, really")
	contains(t, "Search by type", p.get(t, "/search?q=type:decision", http.StatusOK), "How we pay")
	contains(t, "Projects", p.get(t, "/projects", http.StatusOK), "Web site", `href="/board?project=web"`)

	account := p.get(t, "/account", http.StatusOK)
	contains(t, "Account", account, `id="signout"`, "Tokens", "Calendar feeds")
	p.seeOther(t, "/account", url.Values{"display_name": {"The Admin"}, "timezone": {"Pacific/Auckland"}})
	contains(t, "Account after saving", p.get(t, "/account", http.StatusOK), "The Admin", "Pacific/Auckland")
}

// TestPageTokenAndFeedShownOnce: a token's secret and a feed's URL appear on
// the answer that issued them and never again; both can be revoked.
func TestPageTokenAndFeedShownOnce(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	r := p.post(t, "/account/tokens", url.Values{"title": {"laptop"}, "expires_days": {"30"}})
	if r.Status != http.StatusOK || r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("issue: %d %v", r.Status, r.Header)
	}
	secret := regexp.MustCompile(`id="new-secret">(tend_[^<]+)<`).FindStringSubmatch(string(r.Body))
	if secret == nil {
		t.Fatalf("no secret shown:\n%s", r.Body)
	}
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/me", secret[1], nil); got["user"].(map[string]any)["username"] != "admin" {
		t.Fatalf("the shown token does not work: %v", got)
	}
	again := p.get(t, "/account", http.StatusOK)
	if strings.Contains(again, secret[1]) {
		t.Fatal("the secret is shown again")
	}
	id := regexp.MustCompile(`action="/account/tokens/([0-9a-f-]+)/revoke"`).FindAllStringSubmatch(again, -1)
	for _, m := range id {
		p.seeOther(t, "/account/tokens/"+m[1]+"/revoke", url.Values{})
	}
	p.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me", secret[1], nil)

	r = p.post(t, "/account/calendars", url.Values{"title": {"Mine"}, "audience": {"me"}})
	feed := regexp.MustCompile(`id="new-feed">(http[^<]+)<`).FindStringSubmatch(string(r.Body))
	if r.Status != http.StatusOK || feed == nil {
		t.Fatalf("feed issue: %d\n%s", r.Status, r.Body)
	}
	u, _ := url.Parse(feed[1])
	if got := p.Do(http.MethodGet, u.Path, "", nil); got.Status != http.StatusOK {
		t.Fatalf("the shown feed answers %d", got.Status)
	}
	cal := regexp.MustCompile(`action="/account/calendars/([0-9a-f-]+)/reset"`).FindStringSubmatch(p.get(t, "/account", http.StatusOK))
	if cal == nil {
		t.Fatal("no reset button")
	}
	r = p.post(t, "/account/calendars/"+cal[1]+"/reset", url.Values{})
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `id="new-feed"`) {
		t.Fatalf("reset: %d", r.Status)
	}
	if got := p.Do(http.MethodGet, u.Path, "", nil); got.Status != http.StatusNotFound {
		t.Fatalf("the old feed answers %d after a reset", got.Status)
	}
	p.seeOther(t, "/account/calendars/"+cal[1]+"/revoke", url.Values{})
}

// TestPageRefusals: no session is the signed-out page; a refusal is an HTML
// page with its status and code; a cross-site form is refused; text with
// U+0000 is refused; signing out ends the session.
func TestPageRefusals(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	for _, path := range []string{"/", "/tasks", "/board", "/account", "/tasks/1"} {
		r := p.Browser(http.MethodGet, path, "", "", nil)
		if r.Status != http.StatusUnauthorized || !strings.Contains(string(r.Body), `id="signed-out"`) || strings.Contains(string(r.Body), "application/problem") {
			t.Fatalf("GET %s signed out: %d\n%s", path, r.Status, r.Body)
		}
	}
	missing := p.get(t, "/tasks/4242", http.StatusNotFound)
	contains(t, "the not-found page", missing, `id="problem-code">not_found<`)
	r := p.Browser(http.MethodPost, "/tasks", p.session, "https://evil.example", url.Values{"text": {"planted"}})
	if r.Status != http.StatusForbidden || !strings.Contains(string(r.Body), `id="problem-code">cross_origin<`) {
		t.Fatalf("cross-site quick add: %d\n%s", r.Status, r.Body)
	}
	r = p.post(t, "/tasks", url.Values{"text": {"nul \x00 inside"}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `id="problem-code">validation<`) {
		t.Fatalf("U+0000: %d\n%s", r.Status, r.Body)
	}
	r = p.post(t, "/tasks", url.Values{"text": {""}})
	if r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("an empty line: %d\n%s", r.Status, r.Body)
	}
	for _, days := range []string{"x", "0", "-3"} {
		r = p.post(t, "/account/tokens", url.Values{"title": {"t"}, "expires_days": {days}})
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `id="problem-code">validation<`) {
			t.Fatalf("expires_days %q: %d\n%s", days, r.Status, r.Body)
		}
	}
	if list := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks", p.Admin, nil); len(list["items"].([]any)) != 0 {
		t.Fatalf("a refused add stored %v", list["items"])
	}
	p.seeOther(t, "/signout", url.Values{})
	if r := p.Browser(http.MethodGet, "/", p.session, "", nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("after signing out: %d", r.Status)
	}
	contains(t, "/signin without a link", string(p.Browser(http.MethodGet, "/signin", "", "", nil).Body), `id="signed-out"`)
}

// TestPagesDisclosure: a task in a private project never shows on any page
// of someone who cannot see it, and its page answers exactly as a missing
// one does.
func TestPagesDisclosure(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	bob := p.Member("bob", "member")
	p.OK(http.StatusCreated, http.MethodPost, "/v1/projects", p.Admin, map[string]any{"key": "sec", "title": "Secret", "visibility": "private"})
	hidden := p.CreateTask(p.Admin, map[string]any{"title": "Hushhush plan", "project": "sec", "tags": []string{"quiet"}})
	p.CreateTask(bob, map[string]any{"title": "Open thing"})
	bp := &pageEnv{env: p.env, session: p.SignIn(p.MintLink(bob, map[string]any{})).Value}
	for _, path := range []string{"/", "/tasks", "/tasks?include_completed=true", "/board", "/projects", "/search?q=hushhush", "/search?q=tag:quiet"} {
		body := bp.get(t, path, http.StatusOK)
		if strings.Contains(body, "Hushhush") || strings.Contains(body, "Secret") {
			t.Fatalf("%s shows the private task or project:\n%s", path, body)
		}
	}
	ref := number(hidden["ref"])
	unseen := bp.Browser(http.MethodGet, "/tasks/"+ref, bp.session, "", nil)
	absent := bp.Browser(http.MethodGet, "/tasks/9999", bp.session, "", nil)
	if unseen.Status != absent.Status || string(unseen.Body) != string(absent.Body) {
		t.Fatalf("an unseen task answers %d, a missing one %d:\n%s\n---\n%s", unseen.Status, absent.Status, unseen.Body, absent.Body)
	}
	if r := bp.post(t, "/tasks/"+ref+"/comments", url.Values{"body": {"hello?"}}); r.Status != absent.Status {
		t.Fatalf("commenting on the unseen task: %d", r.Status)
	}
}

// TestPageLiveWakesOnWrite: the long poll answers at once without after,
// and with it, wakes when a write lands.
func TestPageLiveWakesOnWrite(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	first := p.Browser(http.MethodGet, "/live", p.session, "", nil).JSON(t)["seq"].(float64)
	var wg sync.WaitGroup
	var got map[string]any
	wg.Add(1)
	go func() {
		defer wg.Done()
		got = p.Browser(http.MethodGet, "/live?after="+number(first), p.session, "", nil).JSON(t)
	}()
	p.CreateTask(p.Admin, map[string]any{"title": "wakes the page"})
	wg.Wait()
	if got["seq"].(float64) <= first {
		t.Fatalf("live answered %v after %v", got["seq"], first)
	}
	if r := p.Browser(http.MethodGet, "/live?after=x", p.session, "", nil); r.Status != http.StatusUnprocessableEntity ||
		!strings.Contains(string(r.Body), `id="problem-code">validation<`) {
		t.Fatalf("after=x: %d\n%s", r.Status, r.Body)
	}
}

// TestPageQueryCountFixed: the listing pages read a fixed number of
// statements whatever the number of tasks and documents. Each page is asked once before
// it is counted: the first agenda after a write also reads what changed
// into the open tasks the store keeps (a statement or two, however many
// tasks changed), and the count compares like with like.
func TestPageQueryCountFixed(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	counts := map[int]map[string]int64{}
	made := 0
	for _, n := range []int{3, 40} {
		for ; made < n; made++ {
			p.CreateTask(p.Admin, map[string]any{"title": "task " + strconv.Itoa(made), "tags": []string{"a", "b"}, "due_at": "2026-11-25T09:00:00Z"})
			p.OK(http.StatusCreated, http.MethodPost, "/v1/documents", p.Admin, map[string]any{"title": "doc " + strconv.Itoa(made), "type": "note"})
		}
		counts[n] = map[string]int64{}
		for _, path := range []string{"/", "/tasks", "/board", "/projects", "/projects/inbox", "/tasks/1", "/documents", "/documents/2",
			"/search?q=task", "/account"} {
			p.get(t, path, http.StatusOK)
			before := p.DB.QueryCount()
			p.get(t, path, http.StatusOK)
			counts[n][path] = p.DB.QueryCount() - before
		}
	}
	for path, c := range counts[3] {
		if counts[40][path] != c {
			t.Errorf("%s: %d statements for 3 tasks, %d for 40", path, c, counts[40][path])
		}
	}
}
