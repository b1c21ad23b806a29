package wire

import "tend/app"

// The readers of the query strings the terminal's commands send besides
// the task listing's (TaskListQuery): the server reads the request's
// query with them, and the terminal on a database file reads the
// parameters it would have sent, so that both refuse alike.

// ItemSearchQuery reads the parameters of GET /v1/search from p: q (words
// and terms, required), project and limit.
func ItemSearchQuery(p Params) (app.ItemSearchQuery, *Query) {
	q := QueryOf(p)
	in := app.ItemSearchQuery{Workspace: q.Str("workspace_id"), Q: q.Str("q"), Project: q.Str("project"), Limit: q.Limit()}
	if in.Q == "" {
		q.Fail("q", "q names words to look for")
	}
	return in, q
}

// NextClaimQuery reads the parameters of POST /v1/tasks/next/claim from
// p: the listing's project, tag, type and assignee, and minutes.
func NextClaimQuery(p Params) (app.NextClaim, *Query) {
	q := QueryOf(p)
	in := app.NextClaim{Workspace: q.Str("workspace_id"), Project: q.Str("project"), Tag: q.Str("tag"), Type: q.Str("type"),
		Assignee: q.Str("assignee")}
	if q.Str("minutes") != "" {
		m := q.Int("minutes")
		in.Minutes = &m
	}
	return in, q
}

// AgendaQuery reads the parameters of GET /v1/agenda from p: date and
// timezone.
func AgendaQuery(p Params) (app.AgendaQuery, *Query) {
	q := QueryOf(p)
	return app.AgendaQuery{Workspace: q.Str("workspace_id"), Date: q.Str("date"), Timezone: q.Str("timezone")}, q
}
