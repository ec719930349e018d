package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"tappbook/internal/events/sqlite"
)

// Imports run at once into a file none of them found: one holds the file
// at a time, the others are refused, and every import that said
// "imported" finds its evening in the file afterwards (before, a refused
// one removed the file another had just written into).
func TestImportsAtOnceIntoANewFileLoseNothing(t *testing.T) {
	ctx := context.Background()
	var ids, files []string
	for range 4 {
		_, id, file := exportedEvening(t)
		ids, files = append(ids, id), append(files, file)
	}
	for round := range 5 {
		dst := filepath.Join(t.TempDir(), fmt.Sprintf("new%d.db", round))
		var wg sync.WaitGroup
		errs := make([]error, len(files))
		for i, file := range files {
			wg.Go(func() {
				var so, se bytes.Buffer
				errs[i] = run(ctx, []string{"import", "--db", dst, file}, &so, &se)
			})
		}
		wg.Wait()
		imported := 0
		for i, err := range errs {
			if err != nil {
				if !strings.Contains(err.Error(), "another tappbook (a server, or an import) is using") {
					t.Fatalf("round %d, import %d: %v", round, i, err)
				}
				continue
			}
			var so, se bytes.Buffer
			out := filepath.Join(t.TempDir(), "again.jsonl")
			if err := run(ctx, []string{"export", ids[i], "--db", dst, "--out", out}, &so, &se); err != nil {
				t.Fatalf("round %d: import %d said imported, but its evening is not in the file: %v", round, i, err)
			}
			imported++
		}
		if imported == 0 {
			t.Fatalf("round %d: every import was refused; one holds the file and imports", round)
		}
	}
}

// An import beside a running server is refused and changes nothing: the
// server keeps the rows it knows (an import under it moved them, and its
// next deal failed).
func TestImportBesideAServerIsRefused(t *testing.T) {
	ctx := context.Background()
	_, _, file := exportedEvening(t)
	dst := filepath.Join(t.TempDir(), "served.db")
	served, err := sqlite.Open(ctx, dst, sqlite.Options{Serve: true})
	if err != nil {
		t.Fatal(err)
	}
	defer served.Close()
	var so, se bytes.Buffer
	err = run(ctx, []string{"import", "--db", dst, file}, &so, &se)
	if err == nil || !strings.Contains(err.Error(), "another tappbook (a server, or an import) is using "+dst) {
		t.Fatalf("import beside a server: %v", err)
	}
	if _, err := os.Stat(dst); err != nil {
		t.Fatalf("the served file after a refused import: %v", err)
	}
}
