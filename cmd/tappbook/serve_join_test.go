package main

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tappbook/cmd/tappbook/internal/clitest"
	"tappbook/internal/lan"
)

// serve on every address logs where phones join (each LAN address of this
// machine) and keeps the form key, private, next to the database.
func TestServeLogsJoinAddresses(t *testing.T) {
	_, port, _ := net.SplitHostPort(clitest.FreeAddr(t))
	dir := t.TempDir()
	logs, stop := startServe(t, "--addr", "0.0.0.0:"+port, "--db", filepath.Join(dir, "t.db"), "--mdns", "off")
	res := getUntil(t, http.DefaultClient, "http://127.0.0.1:"+port+"/healthz", logs)
	res.Body.Close()
	stop()
	ifs, err := lan.System()
	if err != nil {
		t.Fatal(err)
	}
	addrs := lan.Addresses(ifs)
	for _, u := range lan.URLs("http", "0.0.0.0:"+port, addrs, "") {
		if !strings.Contains(logs.String(), `msg="phones join at" url=`+u) {
			t.Fatalf("the log does not name %s:\n%s", u, logs.String())
		}
	}
	t.Logf("%d addresses logged", len(addrs))
	// A first start says it made a new database; a second, on it, does not.
	if !strings.Contains(logs.String(), `msg="there was no database file at this path: started a new, empty one"`) {
		t.Fatalf("the first start does not say it made a new database:\n%s", logs.String())
	}
	addr := clitest.FreeAddr(t) // the first one's port may be taken by another test meanwhile
	again, stop := startServe(t, "--addr", addr, "--db", filepath.Join(dir, "t.db"), "--mdns", "off")
	res = getUntil(t, http.DefaultClient, "http://"+addr+"/healthz", again)
	res.Body.Close()
	stop()
	if strings.Contains(again.String(), "no database file") {
		t.Fatalf("a start on the database says it made a new one:\n%s", again.String())
	}
	fi, err := os.Stat(filepath.Join(dir, "tappbook-form.key"))
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Size() != 32 {
		t.Fatalf("form key: %v %v", fi, err)
	}
}
