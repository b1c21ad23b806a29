// Package cli is the client layer of tend's terminal commands (tend add,
// ls, done, claim, …), the fourth adapter over app.Service beside the JSON
// API, MCP and the pages. The commands call one interface, Client, which
// Remote serves: it talks to tend's JSON API under /v1 and decodes the
// answers into web/wire's records and its problem documents, either a
// server's with a bearer credential (NewRemote) or the database file's,
// served in process by the same router as the account LocalActor names
// (NewFile over web's Server.Transport; main opens the file, nothing here
// imports the store or the router). Either way every request is the route's
// own, refusals included.
//
// Each method is one route of the API. The requests are web/wire's request
// records (the route's body: wire.TaskCreate, wire.TaskUpdate, …) and query
// parameters, sent as JSON and as the query string. No JSON name is written
// twice.
//
// What the commands print is here too (render*.go), so that the cobra
// files at the root only read flags and choose a printer: aligned tables
// with relative dates on a clock the caller gives, colour only when asked,
// the API's JSON, or the compact lines agents read (web/wire's).
//
// It imports app and web/wire only: never the store, the router (web) or
// another adapter (.ci/run checks).
package cli
