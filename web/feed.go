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

type journalEntryJSON struct {
	Seq        int64        `json:"seq"`
	ID         string       `json:"id"`
	Action     string       `json:"action"`
	EntityType string       `json:"entity_type"`
	EntityID   string       `json:"entity_id"`
	ItemRef    *int64       `json:"item_ref"`
	ItemTitle  *string      `json:"item_title"`
	Actor      *string      `json:"actor"`
	Said       *string      `json:"said"`
	Changed    []changeJSON `json:"changed"`
	CreatedAt  string       `json:"created_at"`
}

type changeJSON struct {
	Field  string  `json:"field"`
	Before *string `json:"before"`
	After  *string `json:"after"`
	Said   string  `json:"said"`
}

func newJournalEntryJSON(e app.JournalEntry) journalEntryJSON {
	out := journalEntryJSON{Seq: e.Seq, ID: e.ID, Action: e.Action, EntityType: e.EntityType, EntityID: e.EntityID,
		ItemRef: e.ItemRef, ItemTitle: orNull(e.ItemTitle), Actor: orNull(e.Actor), Said: e.Said,
		Changed: make([]changeJSON, len(e.Changed)), CreatedAt: stamp(e.CreatedAt)}
	for i, c := range e.Changed {
		out.Changed[i] = changeJSON{Field: c.Field, Before: c.Before, After: c.After, Said: c.Said}
	}
	return out
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
			q.errs = append(q.errs, app.Invalidf("query.since", "since is a seq: a whole number, 0 or more"))
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
			q.errs = append(q.errs, app.Invalidf("query.order", "order=-seq is most recent first, which oldest=true contradicts"))
		}
	default:
		q.errs = append(q.errs, app.Invalidf("query.order", "order is -seq (most recent first) or seq (oldest first, like oldest=true)"))
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
