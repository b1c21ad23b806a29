package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"tend/app"
	"tend/web/wire"
)

// changesJSON is the change feed: the listing envelope and what it covers.
type changesJSON struct {
	Covers []string  `json:"covers"`
	Items  any       `json:"items"`
	Page   wire.Page `json:"page"`
}

// writeAfterWait is how long a waited answer has to be written once the
// wait ends, as any answer has under the server's write timeout.
const writeAfterWait = 30 * time.Second

// feedQuery reads the parameters the feed and the journal share.
func feedQuery(r *http.Request) (app.FeedQuery, *wire.Query) {
	q := wire.NewQuery(r)
	in := app.FeedQuery{Workspace: wsParam(r), Actor: q.Str("actor"), CreatedAt: q.CreatedAt(), Limit: q.Limit(),
		Cursor: q.Str("cursor"), IncludeTotal: q.Bool("include_total")}
	return in, q
}

func (s *Server) handleChanges(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	in, q := feedQuery(r)
	in.Actions, in.Project = q.Str("action"), q.Str("project")
	if v := q.Str("since"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			q.Fail("since", "since is a seq: a whole number, 0 or more")
		}
		in.Since = &n
	}
	if q.Str("wait") != "" {
		n := q.Int("wait")
		in.WaitSeconds = &n
		// A wait may outlast the server's write timeout: this answer's
		// deadline is the wait's and the time to write it.
		_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(time.Duration(n)*time.Second + writeAfterWait))
	}
	if err := q.Err(); err != nil {
		return err
	}
	page, err := s.app.Changes(r.Context(), a, in)
	if err != nil {
		return err
	}
	// Waiters one write woke may share this page: the query is all the
	// rendering depends on besides the page, so they share its bytes too.
	body, err := page.Rendered(r.URL.RawQuery, func() ([]byte, error) {
		shaped, err := shapeEvents(page.Items, q)
		if err != nil {
			return nil, err
		}
		return json.Marshal(changesJSON{Covers: page.Covers, Items: shaped, Page: wire.NewPage(page.Page)})
	})
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, json.RawMessage(body))
}

func (s *Server) handleJournal(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	in, q := feedQuery(r)
	in.Oldest = q.Bool("oldest")
	switch q.Str("order") {
	case "":
	case "seq":
		in.Oldest = true
	case "-seq":
		if in.Oldest {
			q.Fail("order", "order=-seq is most recent first, which oldest=true contradicts")
		}
	default:
		q.Fail("order", "order is -seq (most recent first) or seq (oldest first, like oldest=true)")
	}
	if err := q.Err(); err != nil {
		return err
	}
	page, err := s.app.Journal(r.Context(), a, in)
	if err != nil {
		return err
	}
	shaped, err := shape(q, page.Items, wire.NewJournalEntry, func(e wire.JournalEntry) string { return e.ID },
		func(e wire.JournalEntry) []string {
			what := e.EntityType
			if e.ItemRef != nil {
				what = "#" + wire.Itoa64(*e.ItemRef)
			}
			return []string{wire.Itoa64(e.Seq), e.CreatedAt, orDash(e.Actor), e.Action, what}
		})
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, changesJSON{Covers: page.Covers, Items: shaped, Page: wire.NewPage(page.Page)})
}

func orDash(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}
