package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	staticfiles "tappbook/static"
)

// staticCaching says how long a browser may keep an embedded file. Pages
// link each by its content hash (static.URL), and under that address it
// never changes: kept for a year without asking. Any other address (an old
// page's hash after an upgrade, none at all) is asked about every time,
// and answered 304 when the file is the one the browser has (its ETag is
// its hash), so a phone never runs an old script against new pages.
func staticCaching(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		if v := staticfiles.Version(strings.TrimPrefix(c.Request().URL.Path, "/static/")); v != "" {
			// Weak: the gzip middleware may send the same file in
			// other bytes under it.
			h.Set("ETag", `W/"`+v+`"`)
			if c.QueryParam("v") == v {
				h.Set("Cache-Control", "public, max-age=31536000, immutable")
				return next(c)
			}
		}
		h.Set("Cache-Control", "no-cache")
		return next(c)
	}
}

// serviceWorker is static/sw.js with this release written in: its
// version (a hash of every static file) and the files it keeps for
// offline use by the addresses pages link them by, under the app's root
// path (--public-url's). A release with other files is thus a worker of
// other bytes, which browsers install.
func serviceWorker(root string) ([]byte, error) {
	b, err := staticfiles.FS.ReadFile("sw.js")
	if err != nil {
		return nil, fmt.Errorf("service worker: %w", err)
	}
	shell, err := json.Marshal([]string{root + staticfiles.URL("app.css"), root + staticfiles.URL("app.js"),
		root + staticfiles.URL("icon-192.png"), root + "/manifest.webmanifest"})
	if err != nil {
		return nil, fmt.Errorf("service worker: %w", err)
	}
	rootJS, err := json.Marshal(root)
	if err != nil {
		return nil, fmt.Errorf("service worker: %w", err)
	}
	js := string(b)
	for _, line := range []struct{ prefix, with string }{
		{"var VERSION = ", `"` + staticfiles.Digest() + `";`},
		{"var ROOT = ", string(rootJS) + ";"},
		{"var SHELL = ", string(shell) + ";"},
	} {
		before, after, ok := strings.Cut(js, "\n"+line.prefix)
		if !ok {
			return nil, fmt.Errorf("service worker: no line %q in sw.js", line.prefix)
		}
		_, rest, _ := strings.Cut(after, "\n")
		js = before + "\n" + line.prefix + line.with + "\n" + rest
	}
	return []byte(js), nil
}

// rootFile serves one embedded file at the site's root.
func rootFile(name, contentType, cacheControl string) echo.HandlerFunc {
	return func(c echo.Context) error {
		b, err := staticfiles.FS.ReadFile(name)
		if err != nil {
			return fmt.Errorf("static file %s: %w", name, err)
		}
		c.Response().Header().Set("Cache-Control", cacheControl)
		return c.Blob(http.StatusOK, contentType, b)
	}
}
