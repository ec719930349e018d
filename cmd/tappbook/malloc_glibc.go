//go:build linux && cgo

package main

/*
#include <malloc.h>

// one_arena has glibc's malloc keep one heap for every thread; 0 where the
// C library is not glibc or cannot.
static int one_arena(void) {
#ifdef M_ARENA_MAX
	return mallopt(M_ARENA_MAX, 1);
#else
	return 0;
#endif
}
*/
import "C"

import "os"

// oneMallocArena has C's allocations (SQLite's page caches and statements)
// share one heap, unless MALLOC_ARENA_MAX or GLIBC_TUNABLES in the
// environment say otherwise; it reports whether glibc took the setting.
// glibc gives each thread that finds the heap busy an arena of its own, up
// to eight per core, and memory freed in one stays there: SQLite's
// connections move between Go's threads, so a server held about 12 MB in
// ten arenas for 5 MB in use. One arena costs no waiting that was not
// there: SQLite serialises its allocations on a mutex of its own
// (SQLITE_DEFAULT_MEMSTATUS).
func oneMallocArena() bool {
	for _, k := range []string{"MALLOC_ARENA_MAX", "GLIBC_TUNABLES"} {
		if _, set := os.LookupEnv(k); set {
			return false
		}
	}
	return C.one_arena() == 1
}
