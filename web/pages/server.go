package pages

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"tend/app"
	"tend/web/wire"
)

//go:embed static
var staticFiles embed.FS

// staticVersion names the embedded assets' content: their URLs carry it,
// so a browser may keep them a year and still never runs an old script.
var staticVersion = func() string {
	h := sha256.New()
	_ = fs.WalkDir(staticFiles, "static", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := staticFiles.ReadFile(p)
			h.Write([]byte(p))
			h.Write(b)
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12]
}()

// pageCookieWorkspace remembers which workspace a person's pages show when
// they reach several; it names a workspace, nothing secret.
const pageCookieWorkspace = "tend_workspace"

// pageView is what every page's template receives.
type pageView struct {
	Title     string
	Nav       string // the top bar's current item
	User      app.User
	Workspace string // the slug of the workspace shown
	Static    string // the assets' URL prefix
	Notice    string // a message for the person, such as a refused move
	Standby   string // on a standby, what the banner says: read-only, and where the primary is
	Data      any

	// The lists' rows (rows.go): the page's URL, where its row forms
	// return, and the Undo toast after a completion without the script.
	Here    string
	Done    *doneToast
	Deleted *deletedToast // the task a delete without the script sent the page back with

	// People: the person manages the members of the workspace shown (or
	// the instance), so the top bar links to the People page.
	People bool

	// The top bar's saved views (frame), and the one listed, if any.
	Views  []app.View
	ViewID string
}

// Server serves the web app's pages and the sign-in pages.
type Server struct {
	app Service
	log *slog.Logger
	// authenticate reads who makes a request, as the JSON API does: the
	// session cookie or a bearer credential, cookie writes from the same
	// origin only.
	authenticate func(*http.Request) (app.Actor, error)
	crossOrigin  *http.CrossOriginProtection // guards the sign-in form
	// nowhere answers a path no route takes (Fallback sets it): how a
	// page its caller may not know of answers too.
	nowhere http.Handler
}

// New builds the pages over svc; log receives internal errors,
// never a secret. The templates are parsed here, so that a server that
// cannot render a page does not start.
func New(svc Service, log *slog.Logger, authenticate func(*http.Request) (app.Actor, error)) *Server {
	templates()
	s := &Server{app: svc, log: log, authenticate: authenticate, crossOrigin: http.NewCrossOriginProtection()}
	s.nowhere = s.Fallback(http.NotFoundHandler(), app.CodeNotFound)
	return s
}

// Router is where the pages are mounted: web's router, which names
// each request by the route it matched.
type Router interface {
	Handler(method, path string, h http.Handler)
}

// pageFunc serves a page or a page action for an authenticated caller.
type pageFunc func(w http.ResponseWriter, r *http.Request, a app.Actor) error

// page registers a page route. Pages authenticate like the API (the
// session cookie, or a Bearer token); cookie writes pass the same
// cross-origin check.
func (s *Server) page(rt Router, method, path string, fn pageFunc) {
	rt.Handler(method, path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, err := s.authenticate(r)
		if err == nil {
			err = fn(w, r, a)
		}
		if err != nil {
			s.pageProblem(w, r, err)
		}
	}))
}

// Routes mounts the web app and the sign-in pages on rt.
func (s *Server) Routes(rt Router) {
	rt.Handler(http.MethodGet, "/static/:version/*file", http.HandlerFunc(serveStatic))
	rt.Handler(http.MethodGet, "/signin", http.HandlerFunc(s.handleSignInPage)) // the one route with a secret in its query
	rt.Handler(http.MethodPost, "/signin", http.HandlerFunc(s.handleSignIn))
	s.page(rt, http.MethodGet, "/", s.pageToday)
	s.page(rt, http.MethodPost, "/workspace", s.pageWorkspaceChoose)
	s.page(rt, http.MethodGet, "/live", s.pageLive)
	s.page(rt, http.MethodGet, "/tasks", s.pageTasks)
	s.page(rt, http.MethodPost, "/tasks", s.pageTaskAdd)
	s.page(rt, http.MethodGet, "/tasks/:ref", s.pageTask)
	s.page(rt, http.MethodPost, "/tasks/:ref", s.pageTaskEdit)
	s.page(rt, http.MethodPost, "/tasks/:ref/status", s.pageTaskStatus)
	s.page(rt, http.MethodPost, "/tasks/:ref/comments", s.pageTaskComment)
	s.page(rt, http.MethodPost, "/tasks/:ref/claim", s.pageTaskClaim)
	s.page(rt, http.MethodPost, "/tasks/:ref/release", s.pageTaskRelease)
	s.page(rt, http.MethodPost, "/tasks/:ref/complete", s.pageTaskComplete)
	s.page(rt, http.MethodPost, "/tasks/:ref/skip", s.pageTaskSkip)
	s.page(rt, http.MethodPost, "/tasks/:ref/subtasks", s.pageSubtaskAdd)
	s.page(rt, http.MethodPost, "/tasks/:ref/links", s.pageLinkAdd("task"))
	s.page(rt, http.MethodPost, "/tasks/:ref/links/:link/remove", s.pageLinkRemove("task"))
	s.page(rt, http.MethodPost, "/views", s.pageViewSave)
	s.page(rt, http.MethodPost, "/bulk", s.pageBulk)
	s.page(rt, http.MethodGet, "/board", s.pageBoard)
	s.page(rt, http.MethodGet, "/documents", s.pageDocuments)
	s.page(rt, http.MethodPost, "/documents", s.pageDocumentCreate)
	s.page(rt, http.MethodGet, "/documents/:ref", s.pageDocument)
	s.page(rt, http.MethodPost, "/documents/:ref", s.pageDocumentEdit)
	s.page(rt, http.MethodPost, "/documents/:ref/comments", s.pageDocumentComment)
	s.page(rt, http.MethodPost, "/documents/:ref/links", s.pageLinkAdd("document"))
	s.page(rt, http.MethodPost, "/documents/:ref/links/:link/remove", s.pageLinkRemove("document"))
	s.page(rt, http.MethodGet, "/items/:ref", s.pageItem)
	s.page(rt, http.MethodGet, "/pick", s.pagePick)
	s.page(rt, http.MethodPost, "/preview", s.pagePreview)
	s.page(rt, http.MethodGet, "/projects", s.pageProjects)
	s.page(rt, http.MethodPost, "/projects", s.pageProjectCreate)
	s.page(rt, http.MethodGet, "/projects/:key", s.pageProject)
	s.page(rt, http.MethodPost, "/projects/:key", s.pageProjectEdit)
	s.page(rt, http.MethodPost, "/projects/:key/move", s.pageProjectMove)
	s.page(rt, http.MethodPost, "/projects/:key/trash", s.pageProjectTrash)
	s.page(rt, http.MethodPost, "/projects/:key/restore", s.pageProjectRestore)
	s.page(rt, http.MethodPost, "/projects/:key/tasks", s.pageProjectTaskAdd)
	s.page(rt, http.MethodPost, "/projects/:key/members", s.pageProjectShare)
	s.page(rt, http.MethodPost, "/projects/:key/members/:username/remove", s.pageProjectUnshare)
	s.page(rt, http.MethodPost, "/projects/:key/roles", s.pageProjectRole)
	s.page(rt, http.MethodGet, "/search", s.pageSearch)
	s.page(rt, http.MethodGet, "/account", s.pageAccount)
	s.page(rt, http.MethodPost, "/account", s.pageAccountEdit)
	s.page(rt, http.MethodPost, "/account/tokens", s.pageTokenIssue)
	s.page(rt, http.MethodPost, "/account/tokens/:token/revoke", s.pageTokenRevoke)
	s.page(rt, http.MethodPost, "/account/calendars", s.pageCalendarIssue)
	s.page(rt, http.MethodPost, "/account/calendars/:calendar/revoke", s.pageCalendarRevoke)
	s.page(rt, http.MethodPost, "/account/calendars/:calendar/reset", s.pageCalendarReset)
	s.page(rt, http.MethodPost, "/account/channels", s.pageChannelAdd)
	s.page(rt, http.MethodPost, "/account/digest", s.pageDigest)
	s.page(rt, http.MethodPost, "/account/channels/:channel/remove", s.pageChannelRemove)
	s.page(rt, http.MethodPost, "/account/channels/:channel/test", s.pageChannelTest)
	s.page(rt, http.MethodPost, "/account/sessions/:session/revoke", s.pageSessionRevoke)
	s.page(rt, http.MethodPost, "/account/signout-others", s.pageSignOutOthers)
	s.page(rt, http.MethodPost, "/account/device-link", s.pageDeviceLink)
	s.page(rt, http.MethodPost, "/account/tailscale", s.pageTailscaleClaim)
	s.page(rt, http.MethodPost, "/signout", s.pageSignOut)
	s.page(rt, http.MethodGet, "/device", s.pageDevice)
	s.page(rt, http.MethodPost, "/device", s.pageDeviceDecide)
	s.rowRoutes(rt)
	s.trashRoutes(rt)
	s.webhookRoutes(rt)
	s.pwaRoutes(rt)
	s.peopleRoutes(rt)
	s.inviteRoutes(rt)
	s.page(rt, http.MethodPost, "/account/passkeys/:passkey/rename", s.pagePasskeyRename)
	s.page(rt, http.MethodPost, "/account/passkeys/:passkey/remove", s.pagePasskeyRemove)
}

// workspaceOf is the workspace a page shows: the one named in the query,
// else the one the person chose last, else their only one.
func workspaceOf(r *http.Request) string {
	if ws := r.URL.Query().Get("workspace_id"); ws != "" {
		return ws
	}
	if c, err := r.Cookie(pageCookieWorkspace); err == nil {
		if ws, err := url.PathUnescape(c.Value); err == nil {
			return ws
		}
	}
	return ""
}

// view is the page data shared by every page.
func (s *Server) view(r *http.Request, a app.Actor, title, nav string, data any) pageView {
	frame := s.frame(r, a)
	return pageView{Title: title, Nav: nav, User: a.User, Workspace: workspaceOf(r), Static: "/static/" + staticVersion,
		Notice: notices[r.URL.Query().Get("notice")], Here: hereOf(r), Done: s.doneOf(r, a), Deleted: refParam(r, "trashed"), Data: data,
		Views: frame.Views, People: frame.People, Standby: s.standby()}
}

// standby is the banner of a standby's pages, "" on a primary: every form
// there is refused, so the person learns it before filling one in.
func (s *Server) standby() string {
	err := s.app.ReadOnly()
	if err == nil {
		return ""
	}
	e := app.AsError(err)
	if primary, ok := e.Extra["primary"].(string); ok {
		return "This is a read-only standby of " + primary + ": make changes there."
	}
	return e.Detail
}

// render writes a page. It renders into a buffer first, so a template
// failure is a problem page, never half a page.
func (s *Server) render(w http.ResponseWriter, status int, name string, v pageView) error {
	var b bytes.Buffer
	if err := templates().ExecuteTemplate(&b, name, v); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'")
	w.WriteHeader(status)
	_, err := b.WriteTo(w)
	return err
}

// pageProblem renders a refusal as a page: 401 as the signed-out page, a
// workspace to choose as the chooser, anything else as an error page with
// the problem's status, title and code. Internal errors are logged as the
// API logs them.
func (s *Server) pageProblem(w http.ResponseWriter, r *http.Request, err error) {
	p := wire.NewProblem(err)
	v := pageView{Title: p.Title, Static: "/static/" + staticVersion, Standby: s.standby(),
		Data: problemPage{Status: p.Status, Code: p.Code, Message: problemMessage(err)}}
	if p.Code != app.CodeUnauthorized && p.Code != app.CodeCrossOrigin && p.Code != app.CodeTailscaleUnlinked {
		// The top bar names who is signed in, as on every other page.
		if a, aerr := s.authenticate(r); aerr == nil {
			v.User = a.User
		}
	}
	switch p.Code {
	case app.CodeInternal:
		level := slog.LevelError
		if wire.ClientGone(r) {
			level = slog.LevelDebug
		}
		s.log.Log(r.Context(), level, "page failed", "method", r.Method, "url", wire.RedactURL(r.URL.Path, r.URL.RawQuery), "err", err)
	case app.CodeUnauthorized:
		s.signedOut(w, r, http.StatusUnauthorized)
		return
	case app.CodeWorkspaceRequired:
		if a, aerr := s.authenticate(r); aerr == nil {
			if me, merr := s.app.Me(r.Context(), a); merr == nil {
				v = s.view(r, a, "Choose a workspace", "", me.Workspaces)
				_ = s.render(w, http.StatusOK, "workspaces", v)
				return
			}
		}
	}
	if re := s.render(w, p.Status, "problem", v); re != nil {
		wire.WriteProblem(s.log, w, r, err)
	}
}

// problemPage is what the error page shows of a refusal.
type problemPage struct {
	Status  int
	Code    app.Code
	Message string
}

// problemMessage is a refusal in words: its detail, or what was wrong with
// each field. An internal error says nothing of its cause.
func problemMessage(err error) string {
	e := app.AsError(err)
	if wire.NewProblem(err).Code == app.CodeInternal {
		return "Something went wrong on the server; it has been logged."
	}
	if len(e.Fields) == 0 {
		return e.Detail
	}
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		parts[i] = f.Msg
		if n := len(f.Loc); n > 0 {
			parts[i] = f.Loc[n-1] + ": " + f.Msg
		}
	}
	return strings.Join(parts, "; ")
}

// pageWorkspaceChoose remembers the workspace the person picked.
func (s *Server) pageWorkspaceChoose(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	ws := r.PostFormValue("workspace")
	http.SetCookie(w, &http.Cookie{Name: pageCookieWorkspace, Value: url.PathEscape(ws), Path: "/", MaxAge: 400 * 24 * 3600,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: wire.SecureCookies(r, s.app.PublicURL())})
	http.Redirect(w, r, "/", http.StatusSeeOther)
	return nil
}

// seeOther answers a page action: 303 to the page that shows its result.
func seeOther(w http.ResponseWriter, r *http.Request, to string) error {
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// serveStatic serves the embedded assets. The version segment is the
// content hash: an old one still answers (a cached page may ask for it) but
// only the current one may be kept long.
func serveStatic(w http.ResponseWriter, r *http.Request) {
	p := strings.TrimPrefix(wire.Param(r, "file"), "/")
	b, err := staticFiles.ReadFile("static/" + p)
	if err != nil || strings.Contains(p, "..") {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	switch {
	case strings.HasSuffix(p, ".css"):
		h.Set("Content-Type", "text/css; charset=utf-8")
	case strings.HasSuffix(p, ".js"):
		h.Set("Content-Type", "text/javascript; charset=utf-8")
	}
	if wire.Param(r, "version") == staticVersion {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	http.ServeContent(w, r, p, time.Time{}, bytes.NewReader(b))
}
