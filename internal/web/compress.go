package web

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzip"
	"github.com/labstack/echo/v4"
)

// compress gzips pages and assets for the browsers that take it; a live
// stream must flush as it goes, and the API's answers are too small to
// gain from it.
//
// Stateless: each write is compressed on its own, with no compressor kept
// from one write to the next nor between requests. A page is written in
// one piece (rendered into a buffer first), so it loses only ~13% of the
// ratio (a 700-deal table page: 6.9 KB against 6.1 KB at level 6), but a
// request no longer holds an ~800 KB compressor from its first byte to
// its last: with 32 tables posting the deal form, those alone made the
// heap reach serve's memory limit and the collector run back to back
// (issue 39), and every writer the collector emptied from its pool was
// made and cleared anew.
func compress() (echo.MiddlewareFunc, error) {
	wrap, err := gzhttp.NewWrapper(gzhttp.CompressionLevel(gzip.StatelessCompression), gzhttp.EnableZstd(false))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if strings.HasSuffix(c.Path(), "/live") || strings.HasPrefix(c.Request().URL.Path, "/api/") {
				return next(c)
			}
			res := c.Response()
			plain := res.Writer
			defer func() { res.Writer = plain }()
			var err error
			wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				res.Writer = w
				c.SetRequest(r)
				err = next(c)
			})).ServeHTTP(plain, c.Request())
			// An error is answered once this returns (observe), by the
			// writer the response had: uncompressed, as nothing was
			// written yet (or, if something was, not at all).
			return err
		}
	}, nil
}
