// Package version says which build a tappbook binary is: the release it
// was built as and the commit it was built from.
//
// The release is set when the binary is built:
//
//	go build -buildvcs=true -ldflags "-X tappbook/internal/version.Release=1.2.0" ./cmd/tappbook
//
// A build without it says "dev". The commit and its time come from the Go
// toolchain, which stamps them into a build made from a git clone
// (runtime/debug.ReadBuildInfo: vcs.revision, vcs.time, vcs.modified)
// unless -buildvcs=false (GOFLAGS may hold it) or the checkout is a git
// worktree, which Go does not stamp from: such a build may name its commit
// with -X tappbook/internal/version.Commit=$(git rev-parse HEAD).
package version

import (
	"runtime/debug"
	"strings"
)

// Release and Commit are what the build says it is: the release, and the
// commit when the toolchain did not stamp one. They are variables only so
// that the linker can set them (-X); nothing in tappbook writes them.
var (
	Release = "dev"
	Commit  = ""
)

// Build is where a binary comes from.
type Build struct {
	Release  string
	Commit   string // the full revision, "" when the build had no VCS stamp
	Time     string // the commit's time, RFC 3339
	Modified bool   // built from a checkout with changes not committed
}

// Current is this binary's build.
func Current() Build {
	var settings []debug.BuildSetting
	if info, ok := debug.ReadBuildInfo(); ok {
		settings = info.Settings
	}
	return from(Release, Commit, settings)
}

// from is the build a release, a commit given with -X and the toolchain's
// settings make: the toolchain's stamp, when there is one, is the commit.
func from(release, commit string, settings []debug.BuildSetting) Build {
	b := Build{Release: release}
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	if b.Commit == "" {
		b.Commit = commit
	}
	return b
}

// String is the build in one line: "1.2.0 (commit 0123456789ab, 2026-11-28T04:00:00Z)",
// "+ changes" when the checkout had some, or "(no commit recorded)".
func (b Build) String() string {
	var s strings.Builder
	s.WriteString(b.Release)
	if b.Commit == "" {
		s.WriteString(" (no commit recorded)")
		return s.String()
	}
	s.WriteString(" (commit ")
	s.WriteString(b.Commit[:min(12, len(b.Commit))])
	if b.Time != "" {
		s.WriteString(", " + b.Time)
	}
	if b.Modified {
		s.WriteString(", with changes not committed")
	}
	s.WriteString(")")
	return s.String()
}
