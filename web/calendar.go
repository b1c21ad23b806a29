package web

import (
	"net/http"
	"strings"
	"time"

	"tend/app"
	"tend/web/wire"
)

// calendarJSON is a feed as listings and revocation report it: never the
// secret or the URL.
type calendarJSON struct {
	ID           string   `json:"id"`
	Prefix       string   `json:"prefix"`
	Title        string   `json:"title"`
	Audience     string   `json:"audience"`
	WorkspaceID  string   `json:"workspace_id"`
	ProjectID    *string  `json:"project_id"`
	ProjectKey   *string  `json:"project_key"`
	ItemTypeIDs  []string `json:"item_type_ids"`
	ItemTypes    []string `json:"item_types"`
	Username     string   `json:"username"`
	CreatedAt    string   `json:"created_at"`
	ExpiresAt    *string  `json:"expires_at"`
	LastPolledAt *string  `json:"last_polled_at"`
	RevokedAt    *string  `json:"revoked_at"`
	Usable       bool     `json:"usable"`
}

func newCalendarJSON(c app.Calendar) calendarJSON {
	return calendarJSON{ID: c.ID, Prefix: c.Prefix, Title: c.Title, Audience: c.Audience, WorkspaceID: c.WorkspaceID,
		ProjectID: wire.OrNull(c.ProjectID), ProjectKey: wire.OrNull(c.ProjectKey), ItemTypeIDs: c.ItemTypeIDs, ItemTypes: c.ItemTypes,
		Username: c.Username, CreatedAt: wire.Stamp(c.CreatedAt), ExpiresAt: wire.StampPtr(c.ExpiresAt), LastPolledAt: wire.StampPtr(c.LastPolledAt),
		RevokedAt: wire.StampPtr(c.RevokedAt), Usable: c.Usable(time.Now())}
}

// issuedCalendarJSON is the one response that carries a feed's URL.
type issuedCalendarJSON struct {
	calendarJSON
	URL string `json:"url"`
}

// feedURL is where the feed is fetched: under the configured public URL,
// else under the origin the request came to.
func (s *Server) feedURL(r *http.Request, c app.IssuedCalendar) string {
	base := strings.TrimRight(s.app.PublicURL(), "/")
	if base == "" {
		scheme := "http"
		if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	return base + "/v1/calendars/" + c.Prefix + "/" + c.Secret + ".ics"
}

func (s *Server) handleCalendarList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	cs, err := s.app.Calendars(r.Context(), a)
	if err != nil {
		return err
	}
	items := make([]calendarJSON, len(cs))
	for i, c := range cs {
		items[i] = newCalendarJSON(c)
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: items, Page: wire.Whole()})
}

func (s *Server) handleCalendarCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in app.CalendarCreate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	in.Workspace = wsParam(r)
	c, err := s.app.CreateCalendar(r.Context(), a, in)
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusCreated, issuedCalendarJSON{calendarJSON: newCalendarJSON(c.Calendar), URL: s.feedURL(r, c)})
}

func (s *Server) handleCalendarRevoke(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	c, err := s.app.RevokeCalendar(r.Context(), a, param(r, "calendar"))
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, newCalendarJSON(c))
}

func (s *Server) handleCalendarReset(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	c, err := s.app.ResetCalendar(r.Context(), a, param(r, "calendar"))
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, issuedCalendarJSON{calendarJSON: newCalendarJSON(c.Calendar), URL: s.feedURL(r, c)})
}

// handleCalendarFeed serves a feed without a login: the secret in the path
// is the authority. A client whose copy is current gets 304 before the
// feed is built.
func (s *Server) handleCalendarFeed(w http.ResponseWriter, r *http.Request) {
	secret, _ := strings.CutSuffix(param(r, "secret"), ".ics")
	f, err := s.app.CalendarFeed(r.Context(), param(r, "calendar"), secret, feedConditions(r))
	if err != nil {
		wire.WriteProblem(s.log, w, r, err)
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
	refresh := time.Duration(s.app.Limits().CalendarRefreshMinutes) * time.Minute
	body, err := encodeFeed(f, s.app.PublicURL(), s.app.Version(), refresh)
	if err != nil {
		wire.WriteProblem(s.log, w, r, err)
		return
	}
	h.Set("Content-Type", "text/calendar; charset=utf-8")
	_, _ = w.Write(body)
}

func feedConditions(r *http.Request) app.FeedConditions {
	c := app.FeedConditions{IfNoneMatch: r.Header.Get("If-None-Match")}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" {
		if t, err := http.ParseTime(ims); err == nil {
			c.IfModifiedSince = &t
		}
	}
	return c
}
