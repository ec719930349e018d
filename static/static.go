// Package static holds the UI's stylesheet and script, embedded in the
// binary so that the app works on a home network with no internet.
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"slices"
)

// FS holds the files; embedded files are read-only.
//
//go:embed *.css *.js *.png *.webmanifest
var FS embed.FS

// versions are the files' content hashes, made once from FS and only read
// after: a page links each file by its hash (URL), so a phone that kept an
// old stylesheet or script asks for the new one as soon as a new binary
// serves new pages, and a file linked by its hash can be kept for good.
var versions = func() map[string]string {
	names, err := fs.Glob(FS, "*")
	if err != nil {
		panic(err) // only a malformed pattern fails
	}
	v := make(map[string]string, len(names))
	for _, name := range names {
		b, err := FS.ReadFile(name)
		if err != nil {
			panic(err) // embedded at build time: always there
		}
		sum := sha256.Sum256(b)
		v[name] = hex.EncodeToString(sum[:6])
	}
	return v
}()

// Digest is one hash of every embedded file: it changes when any does.
func Digest() string {
	names := slices.Sorted(maps.Keys(versions))
	h := sha256.New()
	for _, name := range names {
		fmt.Fprintf(h, "%s %s\n", name, versions[name])
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

// Version is the content hash of the embedded file name, "" for none.
func Version(name string) string { return versions[name] }

// URL is the address pages link the embedded file name by: its path with
// its content hash, /static/app.css?v=….
func URL(name string) string {
	if v := versions[name]; v != "" {
		return "/static/" + name + "?v=" + v
	}
	return "/static/" + name
}
