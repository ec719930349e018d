package version

import (
	"runtime/debug"
	"testing"
)

func TestBuildSaysWhereItComesFrom(t *testing.T) {
	stamp := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-28T04:00:00Z"}, {Key: "vcs.modified", Value: "false"}}
	for _, c := range []struct {
		release, commit string
		settings        []debug.BuildSetting
		want            string
	}{
		{"1.2.0", "", stamp, "1.2.0 (commit 0123456789ab, 2026-11-28T04:00:00Z)"},
		{"1.2.0", "ffffffffffffffff", stamp, "1.2.0 (commit 0123456789ab, 2026-11-28T04:00:00Z)"}, // the toolchain's stamp wins
		{"dev", "", append(stamp[:3:3], debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "dev (commit 0123456789ab, 2026-11-28T04:00:00Z, with changes not committed)"},
		{"1.2.0", "fedcba9876543210", nil, "1.2.0 (commit fedcba987654)"}, // a worktree's build, named with -X
		{"dev", "", nil, "dev (no commit recorded)"},
	} {
		if got := from(c.release, c.commit, c.settings).String(); got != c.want {
			t.Errorf("from(%q, %q, …) = %q, want %q", c.release, c.commit, got, c.want)
		}
	}
}
