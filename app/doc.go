// Package app is tend's domain: accounts, workspaces, credentials,
// vocabularies and the one Service that the HTTP API, the MCP endpoint and
// the command line all call.
//
// Rules live here and nowhere else. A request is one store transaction
// whatever transport it came through: a write method runs one Update, a
// read method one View and never an Update. Exported methods never call
// each other, and shared steps are unexported helpers that take the open
// Tx. Pure work (parsing, validation) happens before the transaction
// starts, because the writer is a single connection. A few methods also
// read outside the writer before their Update (a subtree's size, a large
// body's mentions), so that the writer is held for the write alone.
//
// Work a request cannot afford in its transaction (indexing text, purging a
// deleted tag, changing a large subtree) is queued in that transaction as
// rows the store keeps, and app/background's worker does it later, each step
// a transaction of its own, resuming after any stop. So a read can meet
// text not yet indexed: a search that does waits for the worker's urgent
// lane to index it and reads again, writing nothing itself (view). Expensive
// reads are bounded by background.Budget.
//
// Adapters see only the part of Service they call: each declares it as an
// interface that *Service satisfies (web.Service, pages.Service,
// mcpserver.Service, calfeed.Service).
//
// The package imports no storage or transport code: it states what it needs
// from storage as the Store and Tx interfaces, and the store package
// implements them on SQLite. Nor does it own a wire format: its inputs and
// results carry no JSON names (TestAppOwnsNoWireFormat); web/wire holds
// the records clients send and receive, and converts them.
package app
