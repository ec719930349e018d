package internal_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// layer places each package of tappbook: a package may import only
// packages of a lower layer, so dependencies run one way, from the web
// down to the rules and the store, and nothing reaches back up (README,
// "How the code is laid out"). A new package fails this test until it is
// given its place.
var layer = map[string]int{
	"tappbook/internal/plurals":               0,
	"tappbook/internal/names":                 0,
	"tappbook/internal/jsonenc":               0,
	"tappbook/migrations":                     0,
	"tappbook/migrations/postgres":            0,
	"tappbook/internal/pgserver":              0,
	"tappbook/internal/pgserver/pgtest":       1,
	"tappbook/internal/pgserver/autofailover": 1,
	"tappbook/static":                         0,
	"tappbook/templates":                      1, // links static files by their hash
	"tappbook/internal/lan":                   0,
	"tappbook/internal/version":               0,
	"tappbook/internal/shareimage":            0,
	"tappbook/internal/netserve":              0,
	"tappbook/internal/problem":               1,
	"tappbook/internal/events":                1,
	"tappbook/internal/signing":               1,
	"tappbook/internal/payout":                2,
	"tappbook/internal/archive":               2,
	"tappbook/internal/events/sqlite":         2,
	"tappbook/internal/events/postgres":       2,
	"tappbook/internal/events/memory":         2,
	"tappbook/internal/events/storetest":      2,
	"tappbook/internal/i18n":                  2,
	"tappbook/internal/payee":                 2,
	"tappbook/internal/payqr":                 3,
	"tappbook/internal/tapp":                  3,
	"tappbook/internal/group":                 4,
	"tappbook/internal/receipt":               4,
	"tappbook/internal/game":                  5,
	"tappbook/internal/web":                   6,
	"tappbook/internal/bench":                 7,
	"tappbook/cmd/tappbook":                   8,
	"tappbook/cmd/tappbook-bench":             8, // measures the tappbook binary
	"tappbook/cmd/tappbook/failover":          9, // tests only: runs the built binary
	"tappbook/cmd/tappbook/internal/clitest":  8, // tests only: builds and runs the binary
}

func TestDependenciesRunOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "tappbook/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	seen := 0
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		pkg, imports := f[0], f[1:]
		if pkg == "tappbook/internal" {
			continue // this test
		}
		from, ok := layer[pkg]
		if !ok {
			t.Errorf("package %s has no layer: give it its place in internal/layers_test.go", pkg)
			continue
		}
		seen++
		for _, imp := range imports {
			if !strings.HasPrefix(imp, "tappbook/") {
				continue
			}
			if to, ok := layer[imp]; ok && to >= from {
				t.Errorf("%s (layer %d) imports %s (layer %d): dependencies must run downward", pkg, from, imp, to)
			}
		}
	}
	if seen < len(layer) {
		t.Errorf("go list named %d of the %d packages placed here: one was renamed or removed", seen, len(layer))
	}
}

// The bench is a program beside tappbook: no package but cmd/tappbook-bench
// depends on internal/bench, so nothing the server runs carries its code.
func TestNothingServedImportsTheBench(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, "tappbook/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if f[0] == "tappbook/cmd/tappbook-bench" {
			continue
		}
		for _, dep := range f[1:] {
			if dep == "tappbook/internal/bench" {
				t.Errorf("%s depends on internal/bench: only cmd/tappbook-bench may", f[0])
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
