// Package static holds the UI's stylesheet and script, embedded in the
// binary so that the app works on a home network with no internet.
package static

import "embed"

// FS holds the files; embedded files are read-only.
//
//go:embed *.css *.js *.png *.webmanifest
var FS embed.FS
