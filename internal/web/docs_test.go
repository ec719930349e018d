package web

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every curl example of docs/api.md runs, in order, against the server, and
// answers as the page says: 2xx unless the line ends in "# → 409" or the
// like, and with every member of the JSON shown after it. A line
// "ID=$(curl … | jq -r .id)" keeps the answer's id for the lines after it.
func TestAPIDocExamplesRun(t *testing.T) {
	doc, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	h := newServer(t)
	vars := map[string]string{}
	ran := 0
	var last any // the answer the next JSON block shows
	for _, b := range docBlocks(string(doc)) {
		if b.lang == "json" {
			if last != nil {
				shownKeysAreReal(t, elide(b.text), last)
			}
			last = nil
			continue
		}
		if b.lang != "sh" {
			continue
		}
		for _, line := range commands(b.text) {
			if !strings.Contains(line, "curl ") {
				continue
			}
			c := parseCurl(t, line, vars)
			r := do(t, h, c.method, c.path, c.body, c.headers...)
			ran++
			if os.Getenv("TAPPBOOK_DOC_LOG") != "" {
				t.Logf("%s\n→ %d %s", line, r.status, r.body)
			}
			ok := r.status >= 200 && r.status < 300
			if c.want != 0 {
				ok = r.status == c.want
			}
			if !ok {
				t.Fatalf("docs/api.md: %s\n→ %d %s", line, r.status, r.body)
			}
			last = nil
			if json.Unmarshal([]byte(r.body), &last) != nil {
				last = nil
			}
			if c.setVar != "" {
				m, _ := last.(map[string]any)
				v, _ := m[c.field].(string)
				if v == "" {
					t.Fatalf("docs/api.md: %s\n→ no %q in %s", line, c.field, r.body)
				}
				vars[c.setVar] = v
			}
		}
	}
	for _, endpoint := range []string{"`POST /api/groups`", "`POST /api/games` with `\"group\"`", "`GET /api/groups/{id}`", "`GET /api/groups/{id}/tab`",
		"`POST /api/groups/{id}/payments`", "`POST /api/groups/{id}/payments/{n}/void`", "`GET /api/groups/{id}/stats`", "`GET /api/r/{read_id}`",
		"`POST /api/games/{id}/herz-as`"} {
		if !strings.Contains(string(doc), endpoint) {
			t.Errorf("docs/api.md has no example of %s", endpoint)
		}
	}
	if ran < 25 {
		t.Fatalf("ran only %d examples: the page or its parsing changed", ran)
	}
}

type block struct{ lang, text string }

func docBlocks(doc string) []block {
	var out []block
	re := regexp.MustCompile("(?s)```(\\w+)\n(.*?)```")
	for _, m := range re.FindAllStringSubmatch(doc, -1) {
		out = append(out, block{m[1], m[2]})
	}
	return out
}

// commands joins lines continued with a backslash.
func commands(text string) []string {
	var out []string
	cur := ""
	for _, l := range strings.Split(text, "\n") {
		if strings.HasSuffix(l, "\\") {
			cur += strings.TrimSuffix(l, "\\")
			continue
		}
		out = append(out, cur+l)
		cur = ""
	}
	return out
}

// elide makes a shown answer with "…" valid JSON again.
func elide(s string) string {
	s = strings.ReplaceAll(s, "[…]", "[]")
	return strings.ReplaceAll(s, "…", "")
}

type curl struct {
	method, path, body string
	headers            []string
	want               int
	setVar, field      string
}

var (
	assign   = regexp.MustCompile(`^(\w+)=\$\((.*)\|\s*jq -r \.(\w+)\)\s*$`)
	expected = regexp.MustCompile(`#\s*→\s*(\d{3})`)
)

// parseCurl reads the curl line as a shell would, for the few flags the
// page uses: -X, -H, -d, and the URL on localhost:8080.
func parseCurl(t *testing.T, line string, vars map[string]string) curl {
	t.Helper()
	var c curl
	if m := expected.FindStringSubmatch(line); m != nil {
		c.want, _ = strconv.Atoi(m[1])
	}
	if i := strings.Index(line, "#"); i >= 0 {
		line = line[:i]
	}
	if m := assign.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
		c.setVar, c.field, line = m[1], m[3], m[2]
	}
	args := shellWords(t, line, vars)
	for i := 0; i < len(args); i++ {
		switch f := args[i]; {
		case f == "curl" || f == "-s":
		case f == "-X":
			i++
			c.method = args[i]
		case f == "-H":
			i++
			k, v, _ := strings.Cut(args[i], ":")
			c.headers = append(c.headers, strings.TrimSpace(k), strings.TrimSpace(v))
		case f == "-d":
			i++
			c.body = args[i]
		case strings.HasPrefix(f, "localhost:8080"):
			c.path = strings.TrimPrefix(f, "localhost:8080")
		default:
			t.Fatalf("docs/api.md: %q: %q is not a curl flag this test reads", line, f)
		}
	}
	if c.method == "" {
		c.method = http.MethodGet
		if c.body != "" {
			c.method = http.MethodPost
		}
	}
	return c
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

// shownKeysAreReal checks that every member a documented answer shows is
// in the server's answer (of the first element, for a list).
func shownKeysAreReal(t *testing.T, documented string, real any) {
	t.Helper()
	var d any
	if err := json.Unmarshal([]byte(documented), &d); err != nil {
		t.Fatalf("docs/api.md shows an answer that is not JSON: %v\n%s", err, documented)
	}
	if dl, ok := d.([]any); ok {
		rl, _ := real.([]any)
		if len(dl) == 0 || len(rl) == 0 {
			return
		}
		d, real = dl[0], rl[0]
	}
	dm, _ := d.(map[string]any)
	rm, ok := real.(map[string]any)
	if !ok {
		t.Fatalf("docs/api.md shows an object, the server answers %v", real)
	}
	for k := range dm {
		if _, ok := rm[k]; !ok {
			t.Errorf("docs/api.md shows %q in the answer, but the server's answer has no such member: %v", k, keysOf(rm))
		}
	}
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
