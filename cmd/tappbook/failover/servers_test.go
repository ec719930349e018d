package failover

import (
	"os/exec"
)

// The failover test lives in a package of its own: its five failovers take
// minutes, and go test's default ten-minute limit counts per package.

// request is one deal a client sends; it is sent again, with the same key,
// until it is acknowledged.
type request struct {
	key, body string
}

// verify runs `tappbook verify` on the database.
func verify(bin, url string) (string, error) {
	out, err := exec.Command(bin, "verify", "--db", url).CombinedOutput()
	return string(out), err
}
