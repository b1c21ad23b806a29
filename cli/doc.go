// Package cli is tend's terminal commands (tend add, ls, done, claim, …)
// and their client layer, the fourth adapter over app.Service beside the
// JSON API, MCP and the pages. NewRoot builds the command tree; main adds
// the commands that serve and keep the database, and gives the commands
// (in Env) the one thing they need from the file side: OpenFunc, which
// opens the database file and the Service on it. The commands call one
// interface, Client, which
// two implementations serve with the same results and the same refusals:
//
//   - Remote talks to a tend server over its JSON API under /v1, with a
//     bearer credential, and decodes the answers into web/wire's records
//     and its problem documents;
//   - Local calls the Service on the database file itself (main opens it;
//     nothing here imports the store), as the account LocalActor names,
//     and turns each answer and refusal into what the server would have
//     sent: the same wire records, the same problem document.
//
// Each method is one route of the API and one Service call, the call the
// route's handler makes. The requests are web/wire's request records (the
// route's body: wire.TaskCreate, wire.TaskUpdate, …) and query parameters:
// Remote sends the record as JSON and the parameters as the query string;
// Local reads both back as the route does (wire.DecodeBody, and
// wire.TaskListQuery and the other readers) and hands the Service the
// same input. No JSON name is written twice.
//
// What the commands print is here too (render*.go), so that the cobra
// commands only read flags and choose a printer: aligned tables
// with relative dates on a clock the caller gives, colour only when asked,
// the API's JSON, or the compact lines agents read (web/wire's).
//
// It imports app and web/wire only (and cobra): never the store, the
// router (web), another adapter or package main (.ci/run checks).
package cli
