package dav

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"tend/app"
)

// Root is where the DAV tree is mounted; WellKnown redirects to it (RFC 6764).
const (
	Root      = "/dav/"
	WellKnown = "/.well-known/caldav"

	principals = Root + "principals/"
	home       = Root + "calendars/"
)

// allow is every method a DAV resource answers.
const allow = "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR, MKCOL"

// Handler serves the DAV tree and the well-known address.
type Handler struct {
	svc Service
	log *slog.Logger
}

// New builds the handler over svc; log receives internal errors, never a
// secret.
func New(svc Service, log *slog.Logger) *Handler { return &Handler{svc: svc, log: log} }

// Serves reports whether a request is the handler's: anything at the
// well-known address or under the root, so that nothing there reaches the
// web app, and a PROPFIND of the server's own address, where a client
// given only that looks for the current user's principal.
func Serves(r *http.Request) bool {
	p := r.URL.Path
	return p == WellKnown || p == WellKnown+"/" || p == strings.TrimSuffix(Root, "/") || strings.HasPrefix(p, Root) ||
		(p == "/" && r.Method == "PROPFIND")
}

// target is what a path under the root names.
type target struct {
	kind      string // "root", "principal", "home", "collection" or "object"
	user      string // a principal's username
	workspace string // "" for a collection named by the account's task app: key is that name
	key       string
	name      string // an object's resource name
}

// parse reads a path under the root; ok is false for a path that names
// nothing tend serves.
func parse(path string) (target, bool) {
	rest, ok := strings.CutPrefix(path, Root)
	if !ok {
		return target{kind: "root"}, path == strings.TrimSuffix(Root, "/") || path == "/"
	}
	segs := strings.Split(rest, "/")
	if len(segs) > 0 && segs[len(segs)-1] == "" {
		segs = segs[:len(segs)-1]
	}
	switch {
	case len(segs) == 0:
		return target{kind: "root"}, true
	case segs[0] == "principals" && len(segs) == 2:
		return target{kind: "principal", user: segs[1]}, true
	case segs[0] != "calendars" || len(segs) > 3:
		return target{}, false
	case len(segs) == 1:
		return target{kind: "home"}, true
	}
	// A segment with a dot is WORKSPACE.KEY; one without is a name a task
	// app chose (Apple's apps make their lists under a UUID).
	ws, key, dotted := strings.Cut(segs[1], ".")
	if !dotted {
		ws, key = "", segs[1]
	}
	if dotted && (ws == "" || key == "") {
		return target{}, false
	}
	if len(segs) == 2 {
		return target{kind: "collection", workspace: ws, key: key}, true
	}
	if segs[2] == "" || strings.HasSuffix(path, "/") {
		return target{}, false
	}
	return target{kind: "object", workspace: ws, key: key, name: segs[2]}, true
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("DAV", "1, 3, calendar-access")
	if r.URL.Path == WellKnown || r.URL.Path == WellKnown+"/" {
		http.Redirect(w, r, Root, http.StatusMovedPermanently)
		return
	}
	if r.Method == http.MethodOptions {
		w.Header().Set("Allow", allow)
		w.WriteHeader(http.StatusOK)
		return
	}
	a, err := h.authenticate(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if r.Method == "MKCALENDAR" || r.Method == "MKCOL" {
		if err := h.mkcalendar(w, r, a); err != nil {
			h.fail(w, r, err)
		}
		return
	}
	t, ok := parse(r.URL.Path)
	if !ok || (t.kind == "principal" && !strings.EqualFold(t.user, a.User.Username)) {
		h.fail(w, r, app.NotFound("resource"))
		return
	}
	switch r.Method {
	case "PROPFIND":
		err = h.propfind(w, r, a, t)
	case "REPORT":
		err = h.report(w, r, a, t)
	case "PROPPATCH":
		err = h.proppatch(w, r, a, t)
	case http.MethodGet, http.MethodHead:
		err = h.get(w, r, a, t)
	case http.MethodPut:
		err = h.put(w, r, a, t)
	case http.MethodDelete:
		err = h.delete(w, r, a, t)
	default:
		w.Header().Set("Allow", allow)
		err = errMethod
	}
	if err != nil {
		h.fail(w, r, err)
	}
}

// errMethod is a method no resource here answers.
var errMethod = errors.New("method not allowed")

// authenticate reads HTTP Basic (the account's username and an API token
// as its password, which is all most task apps can send) or a bearer
// token. A Basic username must be the token's account.
func (h *Handler) authenticate(r *http.Request) (app.Actor, error) {
	scheme, cred, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	cred = strings.TrimSpace(cred)
	switch {
	case strings.EqualFold(scheme, "Bearer") && cred != "":
		return h.svc.Authenticate(r.Context(), cred, "caldav")
	case strings.EqualFold(scheme, "Basic"):
		raw, err := base64.StdEncoding.DecodeString(cred)
		if err != nil {
			break
		}
		user, secret, ok := strings.Cut(string(raw), ":")
		if !ok || secret == "" {
			break
		}
		a, err := h.svc.Authenticate(r.Context(), secret, "caldav")
		if err != nil {
			return a, err
		}
		if !strings.EqualFold(user, a.User.Username) {
			return app.Actor{}, app.Errorf(app.CodeUnauthorized, "this token is not %s's", user)
		}
		return a, nil
	}
	return app.Actor{}, app.Errorf(app.CodeUnauthorized, "sign in with your username and an API token as the password")
}

// fail answers a refusal as WebDAV does: its status, the precondition it
// broke where RFC 4791 or 4918 names one, and a sentence for people.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, errMethod) {
		writeError(w, http.StatusMethodNotAllowed, "", r.Method+" is not served here; see the Allow header")
		return
	}
	e := app.AsError(err)
	status, cond := http.StatusForbidden, ""
	switch e.Code {
	case app.CodeUnauthorized:
		w.Header().Set("WWW-Authenticate", `Basic realm="tend", charset="UTF-8"`)
		status = http.StatusUnauthorized
	case app.CodeNotFound:
		status = http.StatusNotFound
	case app.CodeVersionConflict:
		status = http.StatusPreconditionFailed
	case app.CodeTooLarge:
		status, cond = http.StatusRequestEntityTooLarge, "c:max-resource-size"
	case app.CodeConflict:
		cond = "c:no-uid-conflict"
	case app.CodeBusy, app.CodeReadsSaturated, app.CodeTooManyWaiters, app.CodeStorageFull:
		w.Header().Set("Retry-After", "1")
		status = http.StatusServiceUnavailable
	case app.CodeReadOnly:
		// A standby: the body's sentence names the primary, where the
		// calendar client is to be pointed for writes.
		status = http.StatusServiceUnavailable
	case app.CodeInternal:
		h.log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		writeError(w, http.StatusInternalServerError, "", "internal error")
		return
	}
	if bad := (*badCalendar)(nil); errors.As(err, &bad) {
		cond = bad.cond
		if bad.status != 0 {
			status = bad.status
		}
	}
	writeError(w, status, cond, string(e.Code)+": "+e.Detail)
}

// badCalendar is a request tend refuses (such as a body that is no
// calendar object it can store) with the RFC 4791 or 4918 precondition it
// breaks, and the status when it is not 403.
type badCalendar struct {
	cond   string
	msg    string
	status int
}

func (e *badCalendar) Error() string { return e.msg }

// refuse is a badCalendar as the app error fail answers 403 with.
func refuse(cond, format string, args ...any) error {
	return refuseStatus(http.StatusForbidden, cond, format, args...)
}

// refuseStatus is a badCalendar fail answers with status.
func refuseStatus(status int, cond, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return &app.Error{Code: app.CodeInvalid, Detail: msg, Err: &badCalendar{cond: cond, msg: msg, status: status}}
}

// badRequest is a body that does not parse as what the method takes: 400
// (RFC 4918 §8.2).
func badRequest(format string, args ...any) error {
	return refuseStatus(http.StatusBadRequest, "", format, args...)
}

// readBody reads a request's body, within the instance's limit.
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	limit := h.svc.Limits().MaxBodyBytes
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(limit)))
	if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
		return nil, app.Errorf(app.CodeTooLarge, "a body is at most %d bytes", limit)
	}
	if err != nil {
		return nil, app.Errorf(app.CodeInvalid, "the body could not be read")
	}
	return b, nil
}

// readXML reads a request's XML body into v, within the instance's limit.
func (h *Handler) readXML(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := h.readBody(w, r)
	if err != nil {
		return err
	}
	return decodeXML(body, v)
}
