//go:build !linux || !cgo

package main

// oneMallocArena does nothing where C's allocator is not glibc's (see
// malloc_glibc.go).
func oneMallocArena() bool { return false }
