package web

import (
	"net/http"
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

func (s *Server) handleCalendarList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, newCalendarJSON)(s.app.Calendars(r.Context(), a))
}

// issued is the feed c with its URL, which only creating and resetting it answer.
func (s *Server) issued(r *http.Request) func(c app.IssuedCalendar) issuedCalendarJSON {
	return func(c app.IssuedCalendar) issuedCalendarJSON {
		return issuedCalendarJSON{calendarJSON: newCalendarJSON(c.Calendar), URL: wire.FeedURL(r, s.app.PublicURL(), c)}
	}
}

func (s *Server) handleCalendarCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.CalendarCreate) error {
	return reply(w, http.StatusCreated, s.issued(r))(s.app.CreateCalendar(r.Context(), a, in.App(wsParam(r))))
}

func (s *Server) handleCalendarRevoke(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return reply(w, http.StatusOK, newCalendarJSON)(s.app.RevokeCalendar(r.Context(), a, wire.Param(r, "calendar")))
}

func (s *Server) handleCalendarReset(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return reply(w, http.StatusOK, s.issued(r))(s.app.ResetCalendar(r.Context(), a, wire.Param(r, "calendar")))
}
