package web

import (
	"embed"
	"html/template"
	"net/http"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// sessionCookie names the browser session's cookie (CONTRACT.md).
const sessionCookie = "tend_session"

//go:embed pages/*.html
var pageFiles embed.FS

var pages = template.Must(template.New("pages").Funcs(pageFuncs).ParseFS(pageFiles, "pages/*.html"))

// loginLinkJSON is SignInLink: the one response that carries the link's secret.
type loginLinkJSON struct {
	URL       string `json:"url"`
	Username  string `json:"username"`
	ExpiresAt string `json:"expires_at"`
}

func (s *Server) handleLoginLinkCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in app.LoginLinkCreate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	l, err := s.app.CreateLoginLink(r.Context(), a, in)
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusCreated, loginLinkJSON{URL: SignInURL(s.baseURL(r), l.Secret), Username: l.Username,
		ExpiresAt: wire.Stamp(l.ExpiresAt)})
}

// SignInURL is the link a person opens to sign in.
func SignInURL(base, secret string) string {
	return strings.TrimRight(base, "/") + "/signin?link=" + secret
}

// baseURL is the instance's public_url, else the origin the request came to.
func (s *Server) baseURL(r *http.Request) string {
	if pub := wire.OriginOf(s.app.PublicURL()); pub != "" {
		return pub
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// secure reports whether the session cookie must be Secure.
func (s *Server) secure(r *http.Request) bool {
	return r.TLS != nil || strings.HasPrefix(strings.ToLower(s.app.PublicURL()), "https://")
}

// writePage renders a page with the headers every sign-in page carries: the
// link's secret is in the URL, so no Referer may leak it and no cache keep it.
func writePage(w http.ResponseWriter, status int, name string, data any) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = pages.ExecuteTemplate(w, name, data)
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
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: ss.Secret, Path: "/", Expires: ss.ExpiresAt,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secure(r)})
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

// handleSessionEnd signs the presented browser session out and clears its cookie.
func (s *Server) handleSessionEnd(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.app.EndSession(r.Context(), a); err != nil {
		return err
	}
	s.clearSession(w, r)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// clearSession tells the browser to forget its session cookie.
func (s *Server) clearSession(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: s.secure(r)})
}

func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	out, err := s.app.SignOut(r.Context(), a, wire.Param(r, "username"))
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, out)
}
