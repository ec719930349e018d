package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"tappbook/internal/signing"
)

// signingKey reads the server's signing key from the data folder, or makes
// it on first start, named name or else after the machine. A key keeps its
// name: a --name other than the key's is refused; the host name renamed
// since is not (the key goes on under the name it has).
func signingKey(dataDir, name string) (*signing.Key, error) {
	path := filepath.Join(dataDir, signing.FileName)
	if name == "" {
		if _, err := os.Stat(path); err == nil {
			return signing.Load(path, "")
		}
		host, err := os.Hostname()
		if err != nil {
			return nil, fmt.Errorf("signing key: no --name given and no host name: %w", err)
		}
		name = strings.Map(func(r rune) rune {
			if r == '+' || r <= ' ' {
				return '-'
			}
			return r
		}, host)
	}
	return signing.LoadOrCreate(path, name)
}
