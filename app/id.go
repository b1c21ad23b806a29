package app

import "github.com/google/uuid"

// newID returns a fresh id: a version 7 UUID (RFC 9562), which begins with
// its creation time in milliseconds. New rows therefore go to the end of
// every index keyed by id rather than to a random page of it, so a write
// dirties the few pages at the end, which the writer already holds, instead
// of reading and splitting pages all over the index.
func newID() string { return uuid.Must(uuid.NewV7()).String() }
