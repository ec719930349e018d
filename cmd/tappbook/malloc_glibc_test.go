//go:build linux && cgo

package main

import (
	"os"
	"testing"
)

// C's allocations keep one heap, unless the environment says how many.
func TestOneMallocArena(t *testing.T) {
	for _, k := range []string{"MALLOC_ARENA_MAX", "GLIBC_TUNABLES"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	if !oneMallocArena() {
		t.Fatal("glibc refused one arena (mallopt M_ARENA_MAX)")
	}
	t.Setenv("MALLOC_ARENA_MAX", "4")
	if oneMallocArena() {
		t.Fatal("MALLOC_ARENA_MAX=4 in the environment, but one arena was set")
	}
}
