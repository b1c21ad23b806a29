// Package app is tend's domain: accounts, workspaces, credentials,
// vocabularies and the one Service that the HTTP API, the MCP endpoint and
// the command line all call.
//
// Rules live here and nowhere else. Every exported Service method runs
// exactly one store transaction (View to read, Update to write), so one
// request is one transaction whatever transport it came through; exported
// methods never call each other, and shared steps are unexported helpers
// that take the open Tx. Pure work (parsing, validation) happens before the
// transaction starts, because the writer is a single connection.
//
// The package imports no storage or transport code: it states what it needs
// from storage as the Store and Tx interfaces, and the store package
// implements them on SQLite. Nor does it own a wire format: its inputs and
// results carry no JSON names (TestAppOwnsNoWireFormat); web/wire holds
// the records clients send and receive, and converts them.
package app
