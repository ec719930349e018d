package sqlite

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// leftBehind refuses a new database at path where a file of the one that
// was there is left: its -wal (the file moved or deleted while a server
// ran; the log may hold its last deals) or a complete copy a store wrote
// when that happened (rescuedPrefix). A new database would throw the one
// away and leave the other unread. The names are looked up where SQLite
// keeps them, beside the file a link leads to, even one that is gone.
func leftBehind(path string) error {
	real := realPath(path)
	if wal := real + "-wal"; exists(wal) {
		return fmt.Errorf("there is no database file at %s, but there is its log %s: the file was probably moved or deleted while a server ran, and the log may hold its last deals. Put the file back beside it and start again; or, to start from a complete copy a server may have left (%s.rescued-…), move %s and %s-shm aside first, then put the copy at %s; to start a new, empty database here instead, move %s and %s-shm aside", path, wal, real, wal, real, real, wal, real)
	}
	if copies := rescuedCopies(real); len(copies) > 0 {
		return fmt.Errorf("there is no database file at %s, but a server left a complete copy of it at %s (the file was deleted or moved while it ran): put the copy at %s and start again; to start a new, empty database here instead, move the copies aside", path, copies[len(copies)-1], real)
	}
	return nil
}

// BesideRescued refuses to serve the database at path while a complete
// copy a stopped store wrote is beside it: that store stopped because the
// file or its -wal was deleted, moved or replaced, and the file here now
// may lack deals the copy holds. Which one to keep is the operator's call.
func BesideRescued(path string) error {
	real := realPath(path)
	if copies := rescuedCopies(real); len(copies) > 0 {
		return fmt.Errorf("a server left a complete copy of %s at %s when it stopped writing (the file or its -wal was deleted, moved or replaced while it ran), and the file here may lack deals the copy holds: to keep the copy, move %s with its -wal and -shm aside and put the copy there; to keep the file, move the copies out of this folder; then start again", path, copies[len(copies)-1], real)
	}
	return nil
}

// rescuedCopies lists the complete copies stopped stores wrote beside the
// file real, the newest last (a .part is what a kill left midway).
func rescuedCopies(real string) []string {
	prefix := filepath.Base(rescuedPrefix(real))
	var copies []string
	// Listed, not globbed: a folder may be named "Karten [2024]".
	entries, _ := os.ReadDir(filepath.Dir(real))
	for _, e := range entries {
		if name := e.Name(); strings.HasPrefix(name, prefix) && !strings.HasSuffix(name, ".part") && !strings.HasSuffix(name, "-journal") {
			copies = append(copies, filepath.Join(filepath.Dir(real), name))
		}
	}
	slices.Sort(copies) // by the time in their names
	return copies
}
