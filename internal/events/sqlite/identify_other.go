//go:build !linux

package sqlite

// identify gives the device and inode of the file at path.
func identify(path string) (fileID, error) { return statID(path) }
