// Package wire is what every adapter of tend's HTTP server shares about
// the wire: the problem document every error becomes (the one app.Code →
// HTTP status table, WriteProblem), JSON in and out (DecodeJSON,
// DecodeError, WriteJSON), the records of items as the JSON API, the MCP
// tools and the pages show them (Task, Document, Agenda, Event, …) with
// their hand encoders and compact lines, the request bodies the JSON API
// reads (TaskCreate, TaskUpdate, …, with Patch for a partial update's
// fields), each with App, its conversion to the Service's input, and the
// reading of a request's named parameters from wherever they were written
// (Params, Query, TaskListQuery; Param for a route's). It imports app, the
// standard library and httprouter only; the adapters (web's JSON API,
// web/mcpserver, web/pages, web/calfeed) import it and never each other.
package wire
