package pages

import (
	"embed"
	"html/template"
	"net/http"
	"strconv"
	"sync"
	"time"

	"tend/app"
	"tend/web/wire"
)

//go:embed *.html
var pageFiles embed.FS

// templates are parsed when New first asks for them, not as the binary
// starts: every terminal command (tend ls, tend add) starts this binary and
// renders no page, and parsing them is a millisecond and more of each start.
var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("pages").Funcs(pageFuncs).Funcs(rowFuncs).ParseFS(pageFiles, "*.html"))
})

// writePage renders a page with the headers every sign-in page carries: the
// link's secret is in the URL, so no Referer may leak it and no cache keep it.
func writePage(w http.ResponseWriter, status int, name string, data any) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = templates().ExecuteTemplate(w, name, data)
}

// handleSignInPage shows the confirmation page; it never spends the link, so
// a link preview or a mail scanner fetching it cannot burn it. This is the
// one route whose query carries a secret.
func (s *Server) handleSignInPage(w http.ResponseWriter, r *http.Request) {
	secret := r.URL.Query().Get("link")
	if secret == "" {
		// Where signing out lands: how to sign in again.
		s.signedOut(w, r, http.StatusOK)
		return
	}
	l, err := s.app.CheckLoginLink(r.Context(), secret, wire.ClientAddr(r))
	if err != nil {
		s.signInFailed(w, r, err)
		return
	}
	writePage(w, http.StatusOK, "signin", pageView{Title: "Sign in", Static: "/static/" + staticVersion, Standby: s.standby(), Data: signInData{
		Username: l.Username, Link: secret, ExpiresIn: inWords(linkLeft(l, time.Now())), ExpiresAt: l.ExpiresAt.UTC().Format("15:04 UTC, Monday 2 January")}})
}

// signInData is what the confirmation page shows of a link.
type signInData struct {
	Username, Link       string
	ExpiresIn, ExpiresAt string
}

// linkLeft is how long a link has left at now: never more than it was
// made to last, so a clock behind the server's never promises more.
func linkLeft(l app.LoginLink, now time.Time) time.Duration {
	lasts := l.ExpiresAt.Sub(l.CreatedAt)
	left := l.ExpiresAt.Sub(now)
	if left > lasts || left < 0 {
		return lasts
	}
	return left
}

// inWords is a time to come as a person says it: "in 14 minutes", "in
// 2 hours", "in 3 days"; under a minute is "in less than a minute".
func inWords(d time.Duration) string {
	unit := func(n int, one string) string {
		if n == 1 {
			return "in 1 " + one
		}
		return "in " + strconv.Itoa(n) + " " + one + "s"
	}
	switch {
	case d < time.Minute:
		return "in less than a minute"
	case d < 2*time.Hour:
		return unit(int(d.Round(time.Minute)/time.Minute), "minute")
	case d < 48*time.Hour:
		return unit(int(d.Round(time.Hour)/time.Hour), "hour")
	}
	return unit(int(d.Round(24*time.Hour)/(24*time.Hour)), "day")
}

// handleSignIn spends the link posted by the confirmation page, sets the
// session cookie and sends the browser to the app.
func (s *Server) handleSignIn(w http.ResponseWriter, r *http.Request) {
	if err := s.crossOrigin.Check(r); err != nil {
		// Another site must not sign a browser in to an account of its choosing.
		s.problem(w, r, app.Errorf(app.CodeCrossOrigin, "sign in from tend's own page"))
		return
	}
	ss, err := s.app.SignIn(r.Context(), r.PostFormValue("link"), wire.SessionClient(r))
	if err != nil {
		s.signInFailed(w, r, err)
		return
	}
	wire.SetSession(w, r, s.app.PublicURL(), ss)
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) signInFailed(w http.ResponseWriter, r *http.Request, err error) {
	if app.CodeOf(err) == app.CodeLoginLinkUnusable {
		writePage(w, http.StatusGone, "spent", pageView{Title: "Sign-in link no longer works", Static: "/static/" + staticVersion})
		return
	}
	s.problem(w, r, err)
}

// problem answers a refusal outside the pages proper (the sign-in routes):
// a page for a browser, the problem document for any other client.
func (s *Server) problem(w http.ResponseWriter, r *http.Request, err error) {
	if wantsPage(r) {
		s.pageProblem(w, r, err)
		return
	}
	wire.WriteProblem(s.log, w, r, err)
}
