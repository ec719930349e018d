package sqlite

import (
	"os"
	"path/filepath"
	"testing"
)

// identify tells files apart by device and inode, as the guard needs: a
// file moved onto another's path is the moved one, a path with no file is
// not found, and the plain stat it falls back to gives the same.
func TestIdentifyNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	idA, errA := identify(a)
	idB, errB := identify(b)
	if errA != nil || errB != nil || idA == idB || idA == (fileID{}) {
		t.Fatalf("a: %v %v, b: %v %v: want two different files", idA, errA, idB, errB)
	}
	if byStat, err := statID(a); err != nil || byStat != idA {
		t.Fatalf("a by stat: %v %v, want %v as identify gives it", byStat, err, idA)
	}
	if err := os.Rename(a, b); err != nil {
		t.Fatal(err)
	}
	if id, err := identify(b); err != nil || id != idA {
		t.Fatalf("b after a was moved onto it: %v %v, want a's %v", id, err, idA)
	}
	if _, err := identify(a); !os.IsNotExist(err) {
		t.Fatalf("a after it was moved: %v, want it not found", err)
	}
}
