// Package migrations holds the SQL schema of the tappbook database, embedded
// in the binary and applied in order at start by goose.
package migrations

import "embed"

// FS holds the migration files. Embedded files are read-only.
//
//go:embed *.sql
var FS embed.FS
