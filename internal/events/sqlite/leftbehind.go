package sqlite

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// LeftBehind refuses a new database at path where a file of the one that
// was there is left: its -wal (the file moved or deleted while a server
// ran; the log may hold its last deals) or a complete copy a store wrote
// when that happened (rescuedPrefix). A new database would throw the one
// away and leave the other unread. The names are looked up where SQLite
// keeps them, beside the file a link leads to, even one that is gone.
func LeftBehind(path string) error {
	real := realPath(path)
	if wal := real + "-wal"; exists(wal) {
		return fmt.Errorf("there is no database file at %s, but there is its log %s: the file was probably moved or deleted while a server ran, and the log may hold its last deals. Put the file back beside it and start again; or, to start from a complete copy a server may have left (%s.rescued-…), move %s and %s-shm aside first, then put the copy at %s; to start a new, empty database here instead, move %s and %s-shm aside", path, wal, real, wal, real, real, wal, real)
	}
	prefix := filepath.Base(rescuedPrefix(real))
	var copies []string // complete ones: a .part is what a kill left midway
	// Listed, not globbed: a folder may be named "Karten [2024]".
	entries, _ := os.ReadDir(filepath.Dir(real))
	for _, e := range entries {
		if name := e.Name(); strings.HasPrefix(name, prefix) && !strings.HasSuffix(name, ".part") && !strings.HasSuffix(name, "-journal") {
			copies = append(copies, filepath.Join(filepath.Dir(real), name))
		}
	}
	if len(copies) > 0 {
		slices.Sort(copies) // by the time in their names: the newest last
		return fmt.Errorf("there is no database file at %s, but a server left a complete copy of it at %s (the file was deleted or moved while it ran): put the copy at %s and start again; to start a new, empty database here instead, move the copies aside", path, copies[len(copies)-1], real)
	}
	return nil
}
