// Package store is tend's SQLite adapter: it opens the database file with
// the right pragmas, runs the embedded migrations, implements app.Store and
// app.Tx with plain SQL, takes backups and restores them (restore.go), and
// replicates the file continuously off the machine with Litestream
// (replicate.go), or, as a standby, follows a primary's replica into its
// own file until promoted (follow.go).
//
// One writer connection takes every write with BEGIN IMMEDIATE, so writers
// queue in Go rather than spin on the busy timeout; a pool of query-only
// readers serves reads, which WAL lets run beside the writer. A third,
// single maintenance connection runs WAL checkpoints and backups so neither
// holds up a request; while replicating, the checkpoints go through
// Litestream's own connection, at moments the replication loop chooses
// (replicate.go).
package store
