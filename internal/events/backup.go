package events

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"

	"github.com/mattn/go-sqlite3"
)

// Backup copies the live database to dest with SQLite's online backup API:
// a consistent snapshot, while the server keeps reading and writing.
func (s *Store) Backup(ctx context.Context, dest string) error {
	if _, err := os.Stat(dest); err == nil {
		return fmt.Errorf("backup: %s exists; choose a new file", dest)
	}
	destDB, err := sql.Open("sqlite3", "file:"+(&url.URL{Path: dest}).EscapedPath())
	if err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	defer destDB.Close()
	dc, err := destDB.Conn(ctx)
	if err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	defer dc.Close()
	sc, err := s.read.Conn(ctx)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer sc.Close()
	return dc.Raw(func(d any) error {
		return sc.Raw(func(src any) error {
			b, err := d.(*sqlite3.SQLiteConn).Backup("main", src.(*sqlite3.SQLiteConn), "main")
			if err != nil {
				return fmt.Errorf("backup to %s: %w", dest, err)
			}
			// One step copies every page under one read transaction: a
			// consistent snapshot; WAL lets writers go on meanwhile.
			if _, err := b.Step(-1); err != nil {
				b.Finish()
				return fmt.Errorf("backup to %s: %w", dest, err)
			}
			return b.Finish()
		})
	})
}
