package dav

import (
	"net/http"
	"strconv"
	"strings"

	"tend/app"
)

// get answers GET and HEAD of an object with its VTODO and strong ETag.
func (h *Handler) get(w http.ResponseWriter, r *http.Request, a app.Actor, t target) error {
	if t.kind != "object" {
		return errMethod
	}
	_, objs, err := h.svc.DavObjects(r.Context(), a, t.workspace, t.key, []string{t.name})
	if err != nil {
		return err
	}
	if len(objs) == 0 {
		return app.NotFound("task")
	}
	body, err := encodeObject(objs[0], h.svc.PublicURL(), h.svc.Version())
	if err != nil {
		return err
	}
	w.Header().Set("ETag", objs[0].ETag())
	w.Header().Set("Last-Modified", objs[0].Task.UpdatedAt.UTC().Format(http.TimeFormat))
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8; component=VTODO")
	if inm := r.Header.Get("If-None-Match"); inm != "" && etagIn(inm, objs[0].ETag()) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	if r.Method == http.MethodHead {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	_, _ = w.Write(body)
	return nil
}

// put creates or replaces an object: 201 for a new one, 204 for a change,
// each with the new ETag.
func (h *Handler) put(w http.ResponseWriter, r *http.Request, a app.Actor, t target) error {
	if t.kind != "object" {
		return errMethod
	}
	body, err := h.readBody(w, r)
	if err != nil {
		return err
	}
	in, err := decodeObject(body)
	if err != nil {
		return err
	}
	in.IfMatch = strings.TrimSpace(r.Header.Get("If-Match"))
	in.IfNoneMatch = strings.TrimSpace(r.Header.Get("If-None-Match")) == "*"
	o, created, err := h.svc.PutDavObject(r.Context(), a, t.workspace, t.key, t.name, in)
	if err != nil {
		return err
	}
	w.Header().Set("ETag", o.ETag())
	if created {
		w.Header().Set("Location", r.URL.Path)
		w.WriteHeader(http.StatusCreated)
		return nil
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// delete moves an object's task to the trash, as the API's DELETE does.
func (h *Handler) delete(w http.ResponseWriter, r *http.Request, a app.Actor, t target) error {
	if t.kind != "object" {
		return errMethod
	}
	if err := h.svc.DeleteDavObject(r.Context(), a, t.workspace, t.key, t.name, strings.TrimSpace(r.Header.Get("If-Match"))); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// etagIn reports whether a list of entity tags (or *) names etag.
func etagIn(list, etag string) bool {
	for _, e := range strings.Split(list, ",") {
		if e = strings.TrimSpace(e); e == "*" || e == etag {
			return true
		}
	}
	return false
}
