package pages_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"tend/web/webtest"
)

// asBrowser sends a request as a browser navigating does: asking for HTML,
// with the session cookie when one is given.
func (p *pageEnv) asBrowser(t *testing.T, method, path, session string) webtest.Response {
	t.Helper()
	e := p.On(t)
	req := e.Request(method, path, nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	if session != "" {
		req.AddCookie(&http.Cookie{Name: "tend_session", Value: session})
	}
	return e.Send(req)
}

// problemCode is the code an error page shows, "" when it is no error page.
func problemCode(body []byte) string {
	m := regexp.MustCompile(`id="problem-code">([a-z_]+)<`).FindSubmatch(body)
	if m == nil {
		return ""
	}
	return string(m[1])
}

// TestPageErrorsArePages: an unknown URL a browser asks for is the styled
// error page, signed in or not, and so is a method a page route does not
// answer; an API client (or anybody asking under /v1) still gets the
// problem document.
func TestPageErrorsArePages(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	for _, c := range []struct {
		method, path, session string
		status                int
		code                  string
	}{
		{http.MethodGet, "/no/such/page", "", http.StatusNotFound, "not_found"},
		{http.MethodGet, "/no/such/page", p.session, http.StatusNotFound, "not_found"},
		{http.MethodGet, "/tasks/1/claim", p.session, http.StatusMethodNotAllowed, "method_not_allowed"},
	} {
		r := p.asBrowser(t, c.method, c.path, c.session)
		body := string(r.Body)
		if r.Status != c.status || problemCode(r.Body) != c.code || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") ||
			!strings.Contains(body, `/app.css">`) || !strings.Contains(body, `nav id="topbar"`) {
			t.Fatalf("%s %s as a browser: %d %s\n%s", c.method, c.path, r.Status, r.Header.Get("Content-Type"), body)
		}
		if c.session != "" && !strings.Contains(body, `<span class="who">admin`) {
			t.Fatalf("the error page of a signed-in person does not name them:\n%s", body)
		}
	}
	webtest.AssertProblem(t, p.Do(http.MethodGet, "/no/such/page", "", nil), http.StatusNotFound, "not_found")
	webtest.AssertProblem(t, p.asBrowser(t, http.MethodGet, "/v1/no/such/route", ""), http.StatusNotFound, "not_found")
	webtest.AssertProblem(t, p.asBrowser(t, http.MethodGet, "/v1/tasks/1/claim", ""), http.StatusMethodNotAllowed, "method_not_allowed")
}

// TestPageSignIn: the confirmation page and the spent-link page use the
// app's stylesheet, and the confirmation says when the link expires in
// words. A cross-site sign-in is refused with a page for a browser and a
// problem document for anybody else.
func TestPageSignIn(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	link := p.MintLink(p.Admin, map[string]any{})
	r := p.asBrowser(t, http.MethodGet, "/signin?link="+link, "")
	contains(t, "the sign-in page", string(r.Body), `/app.css">`, `<main id="signin" class="lone">`,
		`expires <strong id="signin-expiry">in 15 minutes</strong>`, "Sign in as admin")
	p.SignIn(link)
	r = p.asBrowser(t, http.MethodGet, "/signin?link="+link, "")
	if r.Status != http.StatusGone {
		t.Fatalf("a spent link: %d", r.Status)
	}
	contains(t, "the spent-link page", string(r.Body), `/app.css">`, `id="spent"`)

	req := p.Request(http.MethodPost, "/signin", strings.NewReader(url.Values{"link": {p.MintLink(p.Admin, nil)}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Accept", "text/html")
	if r = p.Send(req); r.Status != http.StatusForbidden || problemCode(r.Body) != "cross_origin" {
		t.Fatalf("a cross-site sign-in from a browser: %d\n%s", r.Status, r.Body)
	}
}

// TestPageListsPageOnlyWhenPaged: a listing that fits one page has no
// pager; a later page links back to the first.
func TestPageListsPageOnlyWhenPaged(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	for _, title := range []string{"one", "two"} {
		p.CreateTask(p.Admin, map[string]any{"title": title})
	}
	if body := p.get(t, "/tasks", http.StatusOK); strings.Contains(body, "First page") || strings.Contains(body, "Next page") {
		t.Fatalf("a one-page listing has a pager:\n%s", body)
	}
	first := p.get(t, "/tasks?limit=1", http.StatusOK)
	if strings.Contains(first, "First page") {
		t.Fatal("the first page links to the first page")
	}
	next := regexp.MustCompile(`href="([^"]+)" rel="next"`).FindStringSubmatch(first)
	if next == nil {
		t.Fatalf("no next page:\n%s", first)
	}
	contains(t, "the second page", p.get(t, strings.ReplaceAll(next[1], "&amp;", "&"), http.StatusOK), "First page")
}
