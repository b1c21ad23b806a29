// Package web is tend's HTTP server: the router, the authentication of
// requests (bearer credential or browser session), the access log and
// metrics, the health probes, and the JSON API under /v1. It mounts the
// other adapters, each a package of its own that imports app and
// web/wire but never web or another adapter: MCP on POST /mcp
// (web/mcpserver, which reaches the JSON API only through the in-process
// call it is given), the web app (web/pages) and the calendar feeds
// (web/calfeed).
//
// A JSON handler parses the request, makes exactly one app.Service call,
// and encodes the answer; it returns errors rather than writing them, and
// wire.WriteProblem is the one place an error turns into a response.
package web
