// Package migrations holds tend's SQL migrations, embedded in the binary.
// Files are NNNN_name.sql, forward only, numbered without gaps, and never
// edited once released; store runs the pending ones in one transaction.
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS
