// Package postgres holds the SQL schema of the event store on PostgreSQL,
// embedded and applied in order at start by goose. It is the SQLite schema
// (../*.sql) as it stands after every migration there, in PostgreSQL's
// terms: the same tables and columns, so that the same events, hashes and
// keys are kept on either engine.
package postgres

import "embed"

// FS holds the migration files.
//
//go:embed *.sql
var FS embed.FS
