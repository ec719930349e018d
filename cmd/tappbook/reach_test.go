package main

import (
	"strings"
	"testing"
)

// Given --public-url with a path, the app is served under it: the path is
// kept without its trailing slash (the prefix every address gets); a path
// that would need escaping, a query or no host is refused with a sentence.
func TestPublicURLPath(t *testing.T) {
	for in, want := range map[string]string{
		"https://tapp.example.org/":       "https://tapp.example.org",
		"https://tapp.example.org":        "https://tapp.example.org",
		"https://example.org/tapp/":       "https://example.org/tapp",
		"https://example.org/tapp":        "https://example.org/tapp",
		"http://example.org:8443/a/b-c/":  "http://example.org:8443/a/b-c",
		"https://example.org//tapp//":     "https://example.org/tapp",
		"https://example.org/~me/tapp.v2": "https://example.org/~me/tapp.v2",
	} {
		u, err := parsePublicURL(in)
		if err != nil || u.String() != want {
			t.Errorf("--public-url %s: %v %v, want %s", in, u, err, want)
		}
	}
	for _, in := range []string{"https://example.org/my tapp/", "https://example.org/a%2Fb/", "https://example.org/../x/",
		"https://example.org/a//b/", "https://example.org/tapp/?x=1", "example.org/tapp/"} {
		if _, err := parsePublicURL(in); err == nil || !strings.Contains(err.Error(), "--public-url") {
			t.Errorf("--public-url %s: %v, want a refusal naming the flag", in, err)
		}
	}
}
