package postgres

import (
	"database/sql"

	"github.com/jackc/pgx/v5/stdlib"
)

// PoolDB gives a database/sql handle on the store's pool, for the tests
// that look at its connections.
func PoolDB(s *Store) *sql.DB { return stdlib.OpenDBFromPool(s.pool) }
