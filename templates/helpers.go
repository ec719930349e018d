package templates

import (
	"net/url"
	"strings"
)

// langURL is the current page with another language chosen.
func langURL(path, lang string) string {
	u, err := url.Parse(path)
	if err != nil || !strings.HasPrefix(u.Path, "/") {
		return "/?lang=" + lang
	}
	q := u.Query()
	q.Set("lang", lang)
	u.RawQuery = q.Encode()
	return u.RequestURI()
}

// liveURL is where a game's page follows it live, or "" off a game.
func liveURL(p Page) string {
	if p.Base == "" {
		return ""
	}
	return p.Base + "/live"
}

func describedBy(id string, f Field) string {
	if f.Error != "" {
		return id + "-error"
	}
	return ""
}

// formPath is the path a form without an action posts to: the page's own.
func formPath(p Page) string {
	if u, err := url.Parse(p.Path); err == nil {
		return u.Path
	}
	return p.Path
}

// formToken is the token for a form that posts to path; empty where the
// page has no signer (a view rendered outside the server).
func formToken(p Page, path string) string {
	if p.Forms == nil {
		return ""
	}
	return p.Forms.For(path)
}
