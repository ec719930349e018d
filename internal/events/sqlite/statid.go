package sqlite

import (
	"fmt"
	"os"
	"syscall"
)

// statID gives the device and inode of the file at path by a plain stat.
func statID(path string) (fileID, error) {
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
