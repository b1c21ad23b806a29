package calfeed

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"tend/app"
	"tend/web/wire"
)

// Handler serves a feed, GET /v1/calendars/:calendar/:secret (the
// route's parameters by those names), without a login: the secret in the
// path is the authority. A client whose copy is current gets 304 before
// the feed is built. log receives internal errors, never the secret.
func Handler(svc Service, log *slog.Logger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		secret, _ := strings.CutSuffix(wire.Param(r, "secret"), ".ics")
		f, err := svc.CalendarFeed(r.Context(), wire.Param(r, "calendar"), secret, feedConditions(r))
		if err != nil {
			wire.WriteProblem(log, w, r, err)
			return
		}
		h := w.Header()
		h.Set("ETag", f.ETag)
		h.Set("Last-Modified", f.LastModified.UTC().Format(http.TimeFormat))
		h.Set("Cache-Control", "private, no-cache") // revalidate every time, so a revocation is seen at once
		h.Set("Referrer-Policy", "no-referrer")
		if f.NotModified {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		refresh := time.Duration(svc.Limits().CalendarRefreshMinutes) * time.Minute
		body, err := encodeFeed(f, svc.PublicURL(), svc.Version(), refresh)
		if err != nil {
			wire.WriteProblem(log, w, r, err)
			return
		}
		h.Set("Content-Type", "text/calendar; charset=utf-8")
		_, _ = w.Write(body)
	}
}

// feedConditions are the request's conditions on the copy its client holds.
func feedConditions(r *http.Request) app.FeedConditions {
	c := app.FeedConditions{IfNoneMatch: r.Header.Get("If-None-Match")}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" {
		if t, err := http.ParseTime(ims); err == nil {
			c.IfModifiedSince = &t
		}
	}
	return c
}
