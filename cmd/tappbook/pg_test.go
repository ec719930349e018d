package main

import (
	"os"
	"testing"

	"tappbook/internal/pgserver/pgtest"
)

// pg is this test binary's PostgreSQL server: the crash test, the tools
// and the two-server test run on it as well as on SQLite files.
var pg pgtest.Server

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m, &pg)) }
