package web

import (
	"net/http"
	"strconv"

	"tend/app"
)

// changesJSON is the change feed: the listing envelope and what it covers.
type changesJSON struct {
	Covers []string `json:"covers"`
	Items  any      `json:"items"`
	Page   pageJSON `json:"page"`
}

// feedQuery reads the parameters the feed and the journal share.
func feedQuery(r *http.Request) (app.FeedQuery, *query) {
	q := newQuery(r)
	in := app.FeedQuery{Workspace: wsParam(r), Actor: q.str("actor"), CreatedAt: q.createdAt(), Limit: q.limit(),
		Cursor: q.str("cursor"), IncludeTotal: q.bool("include_total")}
	return in, q
}

func (s *Server) handleChanges(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	in, q := feedQuery(r)
	if v := q.str("since"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			q.fail("since", "since is a seq: a whole number, 0 or more")
		}
		in.Since = &n
	}
	if err := q.err(); err != nil {
		return err
	}
	page, err := s.app.Changes(r.Context(), a, in)
	if err != nil {
		return err
	}
	items := make([]eventJSON, len(page.Items))
	for i, e := range page.Items {
		items[i] = newEventJSON(e)
	}
	shaped, err := shapeItems(items, q.str("format"), q.str("fields"), func(e eventJSON) string { return e.ID },
		func(e eventJSON) []string { return []string{itoa64(e.Seq), e.CreatedAt, e.Action} })
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, changesJSON{Covers: page.Covers, Items: shaped, Page: newPage(page.Page)})
}

func (s *Server) handleJournal(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	in, q := feedQuery(r)
	in.Oldest = q.bool("oldest")
	switch q.str("order") {
	case "":
	case "seq":
		in.Oldest = true
	case "-seq":
		if in.Oldest {
			q.fail("order", "order=-seq is most recent first, which oldest=true contradicts")
		}
	default:
		q.fail("order", "order is -seq (most recent first) or seq (oldest first, like oldest=true)")
	}
	if err := q.err(); err != nil {
		return err
	}
	page, err := s.app.Journal(r.Context(), a, in)
	if err != nil {
		return err
	}
	items := make([]journalEntryJSON, len(page.Items))
	for i, e := range page.Items {
		items[i] = newJournalEntryJSON(e)
	}
	shaped, err := shapeItems(items, q.str("format"), q.str("fields"), func(e journalEntryJSON) string { return e.ID },
		func(e journalEntryJSON) []string {
			what := e.EntityType
			if e.ItemRef != nil {
				what = "#" + itoa64(*e.ItemRef)
			}
			return []string{itoa64(e.Seq), e.CreatedAt, orDash(e.Actor), e.Action, what}
		})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, changesJSON{Covers: page.Covers, Items: shaped, Page: newPage(page.Page)})
}

func orDash(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}
