package wire

import "tend/app"

// ItemSearchQuery reads the parameters of GET /v1/search from p: q (words
// and terms, required), project and limit. The terminal's search on a
// database file reads them here too, so both refuse alike.
func ItemSearchQuery(p Params) (app.ItemSearchQuery, *Query) {
	q := QueryOf(p)
	in := app.ItemSearchQuery{Workspace: q.Str("workspace_id"), Q: q.Str("q"), Project: q.Str("project"), Limit: q.Limit()}
	if in.Q == "" {
		q.Fail("q", "q names words to look for")
	}
	return in, q
}
