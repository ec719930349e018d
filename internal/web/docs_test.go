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
	var last map[string]any // the answer the next JSON block shows
	for _, b := range docBlocks(string(doc)) {
		if b.lang == "json" {
			if last != nil {
				var want map[string]any
				if err := json.Unmarshal([]byte(elide(b.text)), &want); err == nil {
					for k := range want {
						if _, ok := last[k]; !ok {
							t.Errorf("docs/api.md shows %q in the answer, but the server's answer has no such member: %v", k, keysOf(last))
						}
					}
				}
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
			var m map[string]any
			if json.Unmarshal([]byte(r.body), &m) == nil {
				last = m
			}
			if c.setVar != "" {
				v, _ := m[c.field].(string)
				if v == "" {
					t.Fatalf("docs/api.md: %s\n→ no %q in %s", line, c.field, r.body)
				}
				vars[c.setVar] = v
			}
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
	quoted   = regexp.MustCompile(`'([^']*)'`)
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
	for name, v := range vars {
		line = strings.ReplaceAll(line, "$"+name, v)
	}
	// Quoted arguments first, so their spaces do not split them.
	var args []string
	rest := quoted.ReplaceAllStringFunc(line, func(q string) string {
		args = append(args, q[1:len(q)-1])
		return "\x00" + strconv.Itoa(len(args)-1)
	})
	fields := strings.Fields(rest)
	arg := func(f string) string {
		if strings.HasPrefix(f, "\x00") {
			i, _ := strconv.Atoi(f[1:])
			return args[i]
		}
		return f
	}
	for i := 0; i < len(fields); i++ {
		switch f := fields[i]; {
		case f == "curl" || f == "-s":
		case f == "-X":
			i++
			c.method = arg(fields[i])
		case f == "-H":
			i++
			k, v, _ := strings.Cut(arg(fields[i]), ":")
			c.headers = append(c.headers, strings.TrimSpace(k), strings.TrimSpace(v))
		case f == "-d":
			i++
			c.body = arg(fields[i])
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
	if strings.Contains(c.path, "$") {
		t.Fatalf("docs/api.md: %q uses a variable no line before it set", line)
	}
	return c
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
