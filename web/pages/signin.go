package pages

import (
	"embed"
	"html/template"
	"net/http"
	"sync"

	"tend/app"
	"tend/web/wire"
)

//go:embed *.html
var pageFiles embed.FS

// templates are parsed when New first asks for them, not as the binary
// starts: every terminal command (tend ls, tend add) starts this binary and
// renders no page, and parsing them is a millisecond and more of each start.
var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("pages").Funcs(pageFuncs).ParseFS(pageFiles, "*.html"))
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
		writePage(w, http.StatusOK, "signed_out", pageView{Static: "/static/" + staticVersion})
		return
	}
	l, err := s.app.CheckLoginLink(r.Context(), secret)
	if err != nil {
		s.signInFailed(w, r, err)
		return
	}
	writePage(w, http.StatusOK, "signin", map[string]string{"Username": l.Username, "Link": secret, "Expires": wire.Stamp(l.ExpiresAt)})
}

// handleSignIn spends the link posted by the confirmation page, sets the
// session cookie and sends the browser to the app.
func (s *Server) handleSignIn(w http.ResponseWriter, r *http.Request) {
	if err := s.crossOrigin.Check(r); err != nil {
		// Another site must not sign a browser in to an account of its choosing.
		wire.WriteProblem(s.log, w, r, app.Errorf(app.CodeCrossOrigin, "sign in from tend's own page"))
		return
	}
	ss, err := s.app.SignIn(r.Context(), r.PostFormValue("link"))
	if err != nil {
		s.signInFailed(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: wire.SessionCookie, Value: ss.Secret, Path: "/", Expires: ss.ExpiresAt,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: wire.SecureCookies(r, s.app.PublicURL())})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) signInFailed(w http.ResponseWriter, r *http.Request, err error) {
	if app.CodeOf(err) == app.CodeLoginLinkUnusable {
		writePage(w, http.StatusGone, "spent", nil)
		return
	}
	wire.WriteProblem(s.log, w, r, err)
}
