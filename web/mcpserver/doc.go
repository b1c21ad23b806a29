// Package mcpserver is tend's MCP adapter: the 15 tools and 3 resources an
// agent calls, each a thin adapter over the same app.Service methods the
// JSON API calls, answered on POST /mcp (Handler, mounted by web's router)
// and on stdin/stdout (ServeStdio, for `tend mcp`). Tools reuse the JSON
// API's records and problem codes from web/wire; service_call_api reaches
// the JSON API itself only through the in-process transport it is given, so
// this package imports app and web/wire, never web or another adapter.
//
// Every failure of a tool is an isError result whose text starts with the
// stable code; the fast path (call.go) answers the stateless era's single
// tools/call without the SDK's per-request machinery, with the same bytes.
package mcpserver
