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
