package web

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The Groups section of docs/api.md is run as written: every curl example,
// in order, against a fresh server, each answered 2xx, and each answer
// shown after an example has the keys the server's answer has. Every
// endpoint of api.md's Groups section has an example.
func TestDocsGroupsExamplesRun(t *testing.T) {
	raw, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	start := strings.Index(doc, "\n## Groups")
	if start < 0 {
		t.Fatal("docs/api.md has no Groups section")
	}
	section := doc[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	for _, endpoint := range []string{"`POST /api/groups`", "`POST /api/games` with `\"group\"`", "`GET /api/groups/{id}`", "`GET /api/groups/{id}/tab`",
		"`POST /api/groups/{id}/payments`", "`POST /api/groups/{id}/payments/{n}/void`", "`GET /api/groups/{id}/stats`", "`GET /api/r/{read_id}`"} {
		if !strings.Contains(section, endpoint) {
			t.Errorf("docs/api.md has no example of %s", endpoint)
		}
	}

	h := newServer(t)
	vars := map[string]string{}
	blocks := regexp.MustCompile("(?s)```(sh|json)\n(.*?)```").FindAllStringSubmatch(section, -1)
	var lastFirst resp
	ran := 0
	for _, b := range blocks {
		if b[1] == "json" {
			if lastFirst.status == 0 {
				t.Fatalf("an answer with no example before it: %s", b[2])
			}
			sameKeys(t, b[2], lastFirst.body)
			lastFirst = resp{}
			continue
		}
		lines := strings.Split(strings.ReplaceAll(b[2], "\\\n", " "), "\n")
		first := true
		for _, line := range lines {
			if !strings.HasPrefix(strings.TrimSpace(line), "curl ") {
				continue
			}
			r := runCurl(t, h, line, vars)
			ran++
			if first {
				lastFirst, first = r, false
			}
		}
	}
	if ran < 15 {
		t.Fatalf("only %d examples ran", ran)
	}
}

// runCurl runs one curl line of the docs against the handler and keeps
// the ids the examples after it use.
func runCurl(t *testing.T, h http.Handler, line string, vars map[string]string) resp {
	t.Helper()
	args := shellWords(t, line, vars)
	method, body, path := "GET", "", ""
	var headers []string
	for i := 1; i < len(args); i++ {
		switch a := args[i]; a {
		case "-s":
		case "-X":
			i++
			method = args[i]
		case "-d":
			i++
			body = args[i]
			if method == "GET" {
				method = "POST"
			}
		case "-H":
			i++
			k, v, _ := strings.Cut(args[i], ":")
			headers = append(headers, k, strings.TrimSpace(v))
		default:
			if strings.HasPrefix(a, "#") {
				i = len(args)
				continue
			}
			path = strings.TrimPrefix(a, "localhost:8080")
		}
	}
	r := do(t, h, method, path, body, headers...)
	if r.status >= 300 {
		t.Fatalf("%s: %d %s", line, r.status, r.body)
	}
	if method == "POST" && path == "/api/groups" {
		m := r.json(t)
		vars["GROUP"], vars["READ"] = m["id"].(string), m["read_id"].(string)
	}
	if method == "POST" && path == "/api/games" && vars["GAME"] == "" {
		vars["GAME"] = r.json(t)["id"].(string)
	}
	return r
}

// shellWords splits a command line as sh would for the docs' examples:
// single quotes literal, $NAME expanded outside them, quoted parts joined.
func shellWords(t *testing.T, line string, vars map[string]string) []string {
	t.Helper()
	var out []string
	var cur strings.Builder
	inWord, single, double := false, false, false
	expand := func(i int) int {
		j := i + 1
		for j < len(line) && (line[j] == '_' || line[j] >= 'A' && line[j] <= 'Z') {
			j++
		}
		v, ok := vars[line[i+1:j]]
		if !ok {
			t.Fatalf("%s: $%s is not set by an example before it", line, line[i+1:j])
		}
		cur.WriteString(v)
		return j - 1
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case single:
			if c == '\'' {
				single = false
			} else {
				cur.WriteByte(c)
			}
		case double:
			switch c {
			case '"':
				double = false
			case '$':
				i = expand(i)
			default:
				cur.WriteByte(c)
			}
		case c == '\'':
			single, inWord = true, true
		case c == '"':
			double, inWord = true, true
		case c == '$':
			i, inWord = expand(i), true
		case c == ' ' || c == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// sameKeys checks that a documented answer has the keys of the real one
// (of the first element, for a list).
func sameKeys(t *testing.T, documented, real string) {
	t.Helper()
	var d, r any
	if err := json.Unmarshal([]byte(documented), &d); err != nil {
		t.Fatalf("the documented answer is not JSON: %v\n%s", err, documented)
	}
	if err := json.Unmarshal([]byte(real), &r); err != nil {
		t.Fatal(err)
	}
	if dl, ok := d.([]any); ok {
		rl, _ := r.([]any)
		if len(dl) == 0 || len(rl) == 0 {
			return
		}
		d, r = dl[0], rl[0]
	}
	dm, ok1 := d.(map[string]any)
	rm, ok2 := r.(map[string]any)
	if !ok1 || !ok2 || keys(dm) != keys(rm) {
		t.Fatalf("the documented answer has keys %s, the server's %s:\n%s\n%s", keys(dm), keys(rm), documented, real)
	}
}
