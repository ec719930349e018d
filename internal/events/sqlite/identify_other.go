//go:build !linux

package sqlite

import (
	"fmt"
	"os"
	"syscall"
)

// identify gives the device and inode of the file at path.
func identify(path string) (fileID, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileID{}, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, fmt.Errorf("%s: no device and inode", path)
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, nil
}
