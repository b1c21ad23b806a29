// Package cli is tend's terminal commands (tend add, ls, done, claim, …)
// and their client layer, the fourth adapter over app.Service beside the
// JSON API, MCP and the pages. NewRoot builds the command tree; main adds
// the commands that serve and keep the database, and gives the commands
// (in Env) the one thing they need from the file side: OpenFunc, which
// opens the database file, the Service on it and its JSON API served in
// process by the router tend serve runs (web's Server.Transport). Nothing
// here imports the store or the router.
//
// The commands call one interface, Client, which Remote serves: it talks
// to tend's JSON API under /v1 and decodes the answers into web/wire's
// records and its problem documents, either a server's with a bearer
// credential (NewRemote) or the database file's, in process, as the
// account LocalActor names (NewFile). Either way every request is the
// route's own, refusals included.
//
// Each method is one route of the API. The requests are web/wire's request
// records (the route's body: wire.TaskCreate, wire.TaskUpdate, …) and query
// parameters, sent as JSON and as the query string. No JSON name is written
// twice.
//
// What the commands print is here too (render*.go), so that the cobra
// commands only read flags and choose a printer: aligned tables
// with relative dates on a clock the caller gives, colour only when asked,
// the API's JSON, or the compact lines agents read (web/wire's).
//
// It imports app and web/wire only (and cobra): never the store, the
// router (web), another adapter or package main (.ci/run checks).
package cli
