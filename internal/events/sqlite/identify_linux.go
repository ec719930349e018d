package sqlite

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// identify gives the device and inode of the file at path, and asks the
// kernel for nothing else. A stat that asks for a file's times marks them
// as seen; on Linux 6.13 and later (fine-grained timestamps) the next
// write then gives the file a new time, and the fsync of every commit has
// to write the -wal's inode too: one more disk write and wait per commit,
// a tenth of a lone table's rate. A kernel older than statx (4.11), or a
// sandbox that refuses it, gets the plain stat.
func identify(path string) (fileID, error) {
	var st unix.Statx_t
	err := unix.Statx(unix.AT_FDCWD, path, 0, unix.STATX_INO, &st)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		return statID(path)
	}
	if err != nil {
		return fileID{}, &os.PathError{Op: "statx", Path: path, Err: err}
	}
	return fileID{dev: unix.Mkdev(st.Dev_major, st.Dev_minor), ino: st.Ino}, nil
}
