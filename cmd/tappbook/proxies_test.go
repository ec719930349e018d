package main

import (
	"bufio"
	"context"
	"crypto/x509"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"tappbook/cmd/tappbook/internal/clitest"
)

// readmeBlock is the README's fenced blocks in lang, as written, one
// after the other.
func readmeBlock(t *testing.T, lang string) string {
	t.Helper()
	return strings.Join(readmeBlocks(t, lang, ""), "")
}

// readmeBlocks are the README's fenced blocks in lang that hold has, as
// written.
func readmeBlocks(t *testing.T, lang, has string) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```"+lang+"\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		if strings.Contains(m[1], has) {
			blocks = append(blocks, m[1])
		}
	}
	if blocks == nil {
		t.Fatalf("README.md has no ```%s block with %q", lang, has)
	}
	return blocks
}

// proxyTool is Debian's binary of a proxy; a test without it fails under
// CI=true (.ci/run installs it) and is skipped elsewhere.
func proxyTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed (apt-get install %s)", name, name)
		}
		t.Skipf("%s is not installed", name)
	}
	return p
}

// behindProxy is the README's serve command for a proxy, on addr, for the
// public address public.
func behindProxy(t *testing.T, addr, public string) {
	t.Helper()
	var line string
	for _, l := range strings.Split(readmeBlock(t, "sh"), "\n") {
		if strings.Contains(l, "--public-url") {
			line = l
		}
	}
	if line == "" {
		t.Fatal("README.md's sh blocks have no serve command with --public-url")
	}
	line = strings.NewReplacer("127.0.0.1:8080", addr, "https://tapp.example.org/", public).Replace(line)
	args := strings.Fields(strings.TrimPrefix(line, "tappbook serve "))
	startServe(t, append(args, "--db", filepath.Join(t.TempDir(), "t.db"))...)
}

// TestBehindNginx runs the README's nginx block, with TLS, in front of
// tappbook started as the README says.
func TestBehindNginx(t *testing.T) {
	nginx := proxyTool(t, "nginx")
	dir := t.TempDir()
	certFile, keyFile, cert := selfSigned(t, dir)
	proxy, app := clitest.FreeAddr(t), clitest.FreeAddr(t)
	_, port, _ := net.SplitHostPort(proxy)
	server := strings.NewReplacer("listen 443 ssl", "listen "+proxy+" ssl", "tapp.example.org;", "tapp.test;",
		"/etc/ssl/certs/tapp.example.org.pem", certFile, "/etc/ssl/private/tapp.example.org.key", keyFile,
		"127.0.0.1:8080", app).Replace(readmeBlocks(t, "nginx", "server {")[0])
	writeNginxConf(t, dir, server)
	behindProxy(t, app, "https://tapp.test:"+port+"/")
	runProxy(t, exec.Command(nginx, "-p", dir, "-c", filepath.Join(dir, "nginx.conf")), filepath.Join(dir, "error.log"))
	checkThroughProxy(t, cert, proxy, "https://tapp.test:"+port)
}

// TestBehindNginxUnderASubpath runs the README's nginx location for a
// subpath, /tapp/ of a name shared with other sites, in a TLS server of
// the test's, in front of tappbook started as the README says with the
// path in --public-url.
func TestBehindNginxUnderASubpath(t *testing.T) {
	nginx := proxyTool(t, "nginx")
	dir := t.TempDir()
	certFile, keyFile, cert := selfSigned(t, dir)
	proxy, app := clitest.FreeAddr(t), clitest.FreeAddr(t)
	_, port, _ := net.SplitHostPort(proxy)
	location := strings.ReplaceAll(readmeBlocks(t, "nginx", "location /tapp/ {")[0], "127.0.0.1:8080", app)
	writeNginxConf(t, dir, "server {\nlisten "+proxy+" ssl;\nserver_name tapp.test;\nssl_certificate "+certFile+
		";\nssl_certificate_key "+keyFile+";\nlocation / { return 404; }\n"+location+"}\n")
	behindProxy(t, app, "https://tapp.test:"+port+"/tapp/")
	runProxy(t, exec.Command(nginx, "-p", dir, "-c", filepath.Join(dir, "nginx.conf")), filepath.Join(dir, "error.log"))
	checkThroughProxy(t, cert, proxy, "https://tapp.test:"+port+"/tapp")
}

// writeNginxConf writes dir/nginx.conf: an nginx of the test's, in the
// foreground, keeping its files in dir, serving server.
func writeNginxConf(t *testing.T, dir, server string) {
	t.Helper()
	conf := "daemon off;\nuser root;\npid " + dir + "/nginx.pid;\nerror_log " + dir + "/error.log;\nevents {}\nhttp {\n" +
		"access_log off;\nclient_body_temp_path " + dir + "/body;\nproxy_temp_path " + dir + "/proxy;\n" +
		"fastcgi_temp_path " + dir + "/fcgi;\nuwsgi_temp_path " + dir + "/uwsgi;\nscgi_temp_path " + dir + "/scgi;\n" +
		server + "}\n"
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestBehindCaddy runs the README's Caddyfile, with a certificate of the
// test's instead of Let's Encrypt's, in front of tappbook started as the
// README says.
func TestBehindCaddy(t *testing.T) {
	caddy := proxyTool(t, "caddy")
	dir := t.TempDir()
	certFile, keyFile, cert := selfSigned(t, dir)
	proxy, app := clitest.FreeAddr(t), clitest.FreeAddr(t)
	_, port, _ := net.SplitHostPort(proxy)
	site := strings.NewReplacer("tapp.example.org {", "tapp.test:"+port+" {\n\tbind 127.0.0.1\n\ttls "+certFile+" "+keyFile,
		"127.0.0.1:8080", app).Replace(readmeBlocks(t, "caddyfile", "tapp.example.org {")[0])
	conf := "{\n\tadmin off\n\tauto_https disable_redirects\n}\n" + site
	file := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(file, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	behindProxy(t, app, "https://tapp.test:"+port+"/")
	cmd := exec.Command(caddy, "run", "--adapter", "caddyfile", "--config", file)
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	runProxy(t, cmd, "")
	checkThroughProxy(t, cert, proxy, "https://tapp.test:"+port)
}

// TestBehindCaddyUnderASubpath runs the README's Caddy block for a subpath
// in a site of the test's, in front of tappbook started as the README says
// with the path in --public-url.
func TestBehindCaddyUnderASubpath(t *testing.T) {
	caddy := proxyTool(t, "caddy")
	dir := t.TempDir()
	certFile, keyFile, cert := selfSigned(t, dir)
	proxy, app := clitest.FreeAddr(t), clitest.FreeAddr(t)
	_, port, _ := net.SplitHostPort(proxy)
	conf := "{\n\tadmin off\n\tauto_https disable_redirects\n}\ntapp.test:" + port + " {\n\tbind 127.0.0.1\n\ttls " + certFile + " " + keyFile +
		"\n" + strings.ReplaceAll(readmeBlocks(t, "caddyfile", "handle /tapp/")[0], "127.0.0.1:8080", app) + "\trespond 404\n}\n"
	file := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(file, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	behindProxy(t, app, "https://tapp.test:"+port+"/tapp/")
	cmd := exec.Command(caddy, "run", "--adapter", "caddyfile", "--config", file)
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	runProxy(t, cmd, "")
	checkThroughProxy(t, cert, proxy, "https://tapp.test:"+port+"/tapp")
}

// runProxy starts the proxy, in a process group of its own (nginx's
// workers too), until the test ends; its output and log are shown when
// the test fails.
func runProxy(t *testing.T, cmd *exec.Cmd, logFile string) {
	t.Helper()
	out, err := os.CreateTemp(t.TempDir(), "proxy-out")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		if t.Failed() {
			o, _ := os.ReadFile(out.Name())
			b, _ := os.ReadFile(logFile)
			t.Logf("%s:\n%s%s", filepath.Base(cmd.Path), o, b)
		}
	})
}

// checkThroughProxy is what a phone does through the proxy at public
// (with the path the app is served under, if any): the join page names the
// public address, the language chosen is kept in a Secure cookie, a form
// saves and leads to the evening under the path, its share page's link
// names the public address, and the live stream the table page names sees
// a deal recorded.
func checkThroughProxy(t *testing.T, cert *x509.Certificate, proxy, public string) {
	pu, err := url.Parse(public)
	if err != nil {
		t.Fatal(err)
	}
	origin, root := pu.Scheme+"://"+pu.Host, pu.Path
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	c := httpsClient(roots, proxy)
	// The proxy answers 502 until tappbook listens: wait for the 200.
	for i := 0; ; i++ {
		res := getUntil(t, c, public+"/healthz", &clitest.Buffer{})
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			break
		}
		if i == 300 {
			t.Fatalf("GET %s/healthz through the proxy: %d", public, res.StatusCode)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if body := get(t, c, public+"/"); !strings.Contains(body, public+"/") {
		t.Fatalf("the join page does not name %s:\n%s", public, body)
	}
	// A language chosen over HTTPS is remembered in a Secure cookie.
	res, err := c.Get(public + "/?lang=de")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if ck := res.Cookies(); len(ck) != 1 || ck[0].Name != "lang" || !ck[0].Secure || !ck[0].HttpOnly {
		t.Fatalf("the language cookie through the proxy: %q, want Secure and HttpOnly", res.Header.Values("Set-Cookie"))
	}
	form := url.Values{"player": {"Anna", "Ben", "Cleo", "Dan"}, "unit": {"1"}, "currency": {"EUR"}}
	req, _ := http.NewRequest("POST", public+"/new/zuger", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", origin)
	res, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, root+"/g/") {
		t.Fatalf("the new-evening form through the proxy: %d %q, want 303 to %s/g/…", res.StatusCode, loc, root)
	}
	id := strings.Split(strings.TrimPrefix(loc, root+"/g/"), "/")[0]
	if body := get(t, c, public+"/g/"+id+"/share"); !strings.Contains(body, public+"/g/"+id) {
		t.Fatalf("the share page does not link %s/g/%s:\n%s", public, id, body)
	}
	live := regexp.MustCompile(`data-live="([^"]+)"`).FindStringSubmatch(get(t, c, origin+loc))
	if live == nil || live[1] != root+"/g/"+id+"/live" {
		t.Fatalf("the table page's live stream: %q, want %s/g/%s/live", live, root, id)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	lreq, _ := http.NewRequestWithContext(ctx, "GET", origin+live[1], nil)
	stream, err := (&http.Client{Transport: c.Transport}).Do(lreq)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	versions := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(stream.Body)
		ping := false
		for sc.Scan() {
			switch l := sc.Text(); {
			case l == "event: ping":
				ping = true
			case l == "":
				ping = false
			case strings.HasPrefix(l, "data: ") && !ping:
				versions <- strings.TrimPrefix(l, "data: ")
			}
		}
		close(versions)
	}()
	first := <-versions
	solo := url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}}
	deal, _ := http.NewRequest("POST", public+"/g/"+id+"/record", strings.NewReader(solo.Encode()))
	deal.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	deal.Header.Set("Origin", origin)
	if res, err := c.Do(deal); err != nil || res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), root+"/g/"+id) {
		t.Fatalf("a deal's form through the proxy: %v %v", res, err)
	}
	select {
	case v, ok := <-versions:
		if !ok || v == first {
			t.Fatalf("the live stream through the proxy: %q after %q", v, first)
		}
	case <-ctx.Done():
		t.Fatal("the live stream through the proxy did not bring the deal")
	}
}

// get is the body of a GET that must answer 200.
func get(t *testing.T, c *http.Client, u string) string {
	t.Helper()
	res, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		b.WriteString(sc.Text() + "\n")
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", u, res.StatusCode, b.String())
	}
	return b.String()
}
